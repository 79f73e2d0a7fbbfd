import { Field, Float, ID, Int, ObjectType } from "type-graphql";
import { GraphQLJSONObject } from "graphql-scalars";
import type { JsonValue, SearchIntensity } from "@weft/engine";
import { TEXT_COST } from "../common/field-cost.js";
import { SearchIntensityEnum } from "../common/search-intensity.type.js";
import { LoopDeclarationObject, StateChannelObject, WorkflowLimitsObject } from "./workflow-settings.type.js";

@ObjectType("PromptSet", { description: "The workflow's prompt per model-node type." })
export class PromptSetObject {
  @Field(() => String, { complexity: TEXT_COST })
  generation!: string;

  @Field(() => String, { complexity: TEXT_COST })
  ensemble!: string;

  @Field(() => String, { complexity: TEXT_COST })
  validation!: string;
}

@ObjectType("NodePosition", { description: "Where the node sits on the canvas; layout only." })
export class NodePositionObject {
  @Field(() => Float)
  x!: number;

  @Field(() => Float)
  y!: number;
}

@ObjectType("WorkflowNode")
export class WorkflowNodeObject {
  @Field(() => ID, { description: "Unique within the workflow." })
  id!: string;

  @Field(() => String, { description: "A node type of the registry (see the nodeTypes query)." })
  type!: string;

  @Field(() => String, { nullable: true, description: "Input and output nodes: their text.", complexity: TEXT_COST })
  content!: string | null;

  @Field(() => String, { nullable: true, description: "Model nodes: provider id (see the models query)." })
  provider!: string | null;

  @Field(() => String, { nullable: true, description: "Model nodes: model id of the provider." })
  model!: string | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: "Model nodes: provider parameters.", complexity: TEXT_COST })
  params!: Record<string, unknown> | null;

  @Field(() => String, {
    nullable: true,
    description: "Model nodes: replaces the workflow prompt for this node.",
    complexity: TEXT_COST,
  })
  prompt!: string | null;

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description:
      "The type's own fields (weft.workflow/v2: cases, labels, template, items, body, schema, writes, …), as the document writes them; their schema is the type's `configSchema` (nodeTypes). Null when it has none.",
    complexity: TEXT_COST,
  })
  config!: Record<string, JsonValue> | null;

  @Field(() => NodePositionObject)
  position!: NodePositionObject;
}

@ObjectType("WorkflowEdge")
export class WorkflowEdgeObject {
  @Field(() => ID, { description: "Unique within the workflow." })
  id!: string;

  @Field(() => ID)
  source!: string;

  @Field(() => ID)
  target!: string;

  @Field(() => String, { description: "The source's output port: `out` for ordinary nodes, a case, label or verdict port for routers." })
  sourcePort!: string;

  @Field(() => String, { nullable: true, description: "Set on a loop edge: the workflow loop it closes (see Workflow.loops). Loop edges carry no data." })
  loop!: string | null;

  @Field(() => Int, {
    description: "Creation order: a node's inputs are joined in increasing order of their edges' order.",
  })
  order!: number;
}

@ObjectType("Workflow")
export class WorkflowObject {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String, { complexity: TEXT_COST })
  description!: string;

  @Field(() => PromptSetObject)
  prompts!: PromptSetObject;

  @Field(() => String, { complexity: TEXT_COST })
  outputFormat!: string;

  @Field(() => String, { nullable: true, description: "Name of the knowledge base model nodes search." })
  knowledgeBase!: string | null;

  @Field(() => SearchIntensityEnum)
  intensity!: SearchIntensity;

  @Field(() => [LoopDeclarationObject], { description: "Declared loops (weft.workflow/v2); loop edges name them." })
  loops!: LoopDeclarationObject[];

  @Field(() => [StateChannelObject], { description: "State channels (weft.workflow/v2), in declaration order." })
  state!: StateChannelObject[];

  @Field(() => WorkflowLimitsObject)
  limits!: WorkflowLimitsObject;

  @Field(() => Int, { description: "Incremented on every change to the workflow." })
  version!: number;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date)
  updatedAt!: Date;

  /** Filled when the graph was loaded with the workflow; otherwise the field resolvers load it. */
  graph?: { nodes: WorkflowNodeObject[]; edges: WorkflowEdgeObject[] };

  /** The row's MCP columns, which the MCP module's `mcp` field reads (no query per workflow of a list). */
  mcpSettings!: { enabled: boolean; toolName: string | null; description: string | null };
}
