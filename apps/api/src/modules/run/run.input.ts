import type { SearchIntensity } from "@weft/engine";
import { ArgsType, Field, ID, InputType, Int } from "type-graphql";
import { PaginationArgs } from "../common/pagination.js";
import { MAX_NODE_RUNS_PER_READ, type NodeRunFilter } from "./node-run-page.js";
import { SearchIntensityEnum } from "../common/search-intensity.type.js";
import { PromptSetInput } from "../workflow/index.js";
import { RunStatusEnum, type RunStatusName } from "./run.type.js";

@InputType("FileInput", { description: "A file whose text is an input node's content: PDF (text layer), DOCX, HTML (main content as Markdown), Markdown or text, recognised by its content." })
export class FileInput {
  @Field(() => String, { description: "The file's name (shown, and telling Markdown from text)." })
  name!: string;

  @Field(() => String, { description: "The file's bytes in base64." })
  base64!: string;
}

@InputType("NodeContentInput", { description: "Content for one input node, for this run only: `content`, or a `file` whose text becomes it." })
export class NodeContentInput {
  @Field(() => String)
  nodeId!: string;

  @Field(() => String, { nullable: true })
  content?: string | null;

  @Field(() => FileInput, { nullable: true })
  file?: FileInput | null;
}

@InputType("RunWorkflowInput", { description: "Anything left out comes from the workflow (SPEC §4)." })
export class RunWorkflowInput {
  @Field(() => Int, {
    nullable: true,
    description: "Run this published version. Omitted: the latest published version, or the draft while none is published.",
  })
  version?: number | null;

  @Field(() => Boolean, {
    nullable: true,
    description: "true: run the draft, the workflow as it is now (the editor's test runs). Not together with `version`.",
  })
  draft?: boolean | null;

  @Field(() => PromptSetInput, { nullable: true, description: "Prompts by node type, merged over the workflow's." })
  prompts?: PromptSetInput | null;

  @Field(() => String, { nullable: true })
  outputFormat?: string | null;

  @Field(() => String, { nullable: true, description: 'Knowledge base name; "" runs without one.' })
  knowledgeBase?: string | null;

  @Field(() => SearchIntensityEnum, { nullable: true })
  intensity?: SearchIntensity | null;

  @Field(() => [NodeContentInput], { nullable: true })
  inputs?: NodeContentInput[] | null;

  @Field(() => Boolean, { nullable: true, description: "Stream model replies as NODE_TOKEN events (default false)." })
  streamTokens?: boolean | null;

  @Field(() => Boolean, {
    nullable: true,
    description: "Emit STATE_UPDATED {channel, nodeId, invocation} after each write to a state channel (default false).",
  })
  stateEvents?: boolean | null;

  @Field(() => ID, {
    nullable: true,
    description:
      "Continue this thread: history nodes read its messages, thread state channels start from its state, and the run's question and answer are added when it completes. Omitted: a new thread when the workflow has a history node or a thread state channel, else none. Refused with THREAD_BUSY while another run of the thread is queued or running.",
  })
  threadId?: string | null;
}

@ArgsType()
export class RunsArgs extends PaginationArgs {
  @Field(() => ID, { nullable: true })
  workflowId?: string | null;

  @Field(() => ID, { nullable: true, description: "Runs of this thread." })
  threadId?: string | null;

  @Field(() => ID, { nullable: true, description: "Runs started by this trigger (webhook or schedule)." })
  triggerId?: string | null;

  @Field(() => ID, { nullable: true, description: "The runs of this experiment; without it, experiments' runs are left out." })
  experimentId?: string | null;

  @Field(() => Int, { nullable: true, description: "Runs of this published version (give workflowId too)." })
  version?: number | null;

  @Field(() => Boolean, { nullable: true, description: "true: runs of the draft only; false: runs of published versions only." })
  draft?: boolean | null;

  @Field(() => [RunStatusEnum], { nullable: true, description: "Any of these statuses." })
  status?: RunStatusName[] | null;

  @Field(() => Date, { nullable: true, description: "Created at or after this time." })
  createdAfter?: Date | null;

  @Field(() => Date, { nullable: true, description: "Created before this time." })
  createdBefore?: Date | null;
}

@ArgsType()
export class NodeRunsArgs implements NodeRunFilter {
  @Field(() => String, { nullable: true, description: "This node's runs only." })
  nodeId?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Invocations starting with this text: "regen#" for a loop\'s later iterations, "perQuestion[" for a map\'s items (and what runs inside them).',
  })
  invocationPrefix?: string | null;

  @Field(() => Int, { nullable: true, description: `At most this many, 1..${MAX_NODE_RUNS_PER_READ} (default ${MAX_NODE_RUNS_PER_READ}).` })
  first?: number | null;

  @Field(() => String, { nullable: true, description: "The `cursor` of the last node run of the previous page." })
  after?: string | null;
}
