import { Field, Float, ID, InputType } from "type-graphql";
import { GraphQLJSONObject } from "graphql-scalars";
import type { JsonValue, SearchIntensity } from "@weft/engine";
import { SearchIntensityEnum } from "../common/search-intensity.type.js";
import { LoopInput, StateChannelInput, WorkflowLimitsInput } from "./workflow-settings.input.js";
import type { NodePositionObject, PromptSetObject, WorkflowNodeObject } from "./workflow.type.js";

/** Absent prompt fields keep their current (or default) text. */
@InputType("PromptSetInput")
export class PromptSetInput implements Partial<PromptSetObject> {
  @Field(() => String, { nullable: true })
  generation?: string;

  @Field(() => String, { nullable: true })
  ensemble?: string;

  @Field(() => String, { nullable: true })
  validation?: string;
}

@InputType("NodePositionInput")
export class NodePositionInput implements NodePositionObject {
  @Field(() => Float)
  x!: number;

  @Field(() => Float)
  y!: number;
}

@InputType("CreateWorkflowInput")
export class CreateWorkflowInput {
  @Field(() => String)
  name!: string;

  @Field(() => String, { nullable: true })
  description?: string;

  @Field(() => PromptSetInput, { nullable: true })
  prompts?: PromptSetInput;

  @Field(() => String, { nullable: true })
  outputFormat?: string;

  @Field(() => String, { nullable: true })
  knowledgeBase?: string | null;

  @Field(() => SearchIntensityEnum, { nullable: true })
  intensity?: SearchIntensity;
}

/** Absent fields are left as they are; `knowledgeBase: null` clears the knowledge base. */
@InputType("UpdateWorkflowInput")
export class UpdateWorkflowInput {
  @Field(() => String, { nullable: true })
  name?: string;

  @Field(() => String, { nullable: true })
  description?: string;

  @Field(() => PromptSetInput, { nullable: true })
  prompts?: PromptSetInput;

  @Field(() => String, { nullable: true })
  outputFormat?: string;

  @Field(() => String, { nullable: true })
  knowledgeBase?: string | null;

  @Field(() => SearchIntensityEnum, { nullable: true })
  intensity?: SearchIntensity;

  @Field(() => [LoopInput], {
    nullable: true,
    description: "weft.workflow/v2: replaces the declared loops (null or []: none). Checked like a graph edit (refused while a run of the draft is active).",
  })
  loops?: LoopInput[] | null;

  @Field(() => [StateChannelInput], { nullable: true, description: "weft.workflow/v2: replaces the state channels, in this order (null or []: none)." })
  state?: StateChannelInput[] | null;

  @Field(() => WorkflowLimitsInput, { nullable: true, description: "weft.workflow/v2: replaces the limits (null: the defaults)." })
  limits?: WorkflowLimitsInput | null;
}

/** The attributes a node's update may change; `null` clears an attribute. */
@InputType("UpdateNodeInput")
export class UpdateNodeInput implements Partial<Omit<WorkflowNodeObject, "id" | "type">> {
  @Field(() => String, { nullable: true })
  content?: string | null;

  @Field(() => String, { nullable: true })
  provider?: string | null;

  @Field(() => String, { nullable: true })
  model?: string | null;

  @Field(() => GraphQLJSONObject, { nullable: true })
  params?: Record<string, unknown> | null;

  @Field(() => String, { nullable: true })
  prompt?: string | null;

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description:
      "The type's own fields (weft.workflow/v2), as a document writes them; replaces the whole config (null clears it). Checked against the type's configSchema (see nodeTypes) and the graph's rules.",
  })
  config?: Record<string, JsonValue> | null;

  @Field(() => NodePositionInput, { nullable: true })
  position?: NodePositionInput;
}

@InputType("AddNodeInput")
export class AddNodeInput extends UpdateNodeInput {
  @Field(() => String, { description: "A node type of the registry (see the nodeTypes query)." })
  type!: string;

  @Field(() => ID, { nullable: true, description: "Chosen by the server (e.g. generation-2) when absent." })
  id?: string;
}

@InputType("NodeMoveInput")
export class NodeMoveInput {
  @Field(() => ID)
  id!: string;

  @Field(() => Float)
  x!: number;

  @Field(() => Float)
  y!: number;
}
