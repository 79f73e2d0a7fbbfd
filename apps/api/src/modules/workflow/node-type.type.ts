import { GraphQLJSON, GraphQLJSONObject } from "graphql-scalars";
import { Field, Float, Int, ObjectType, registerEnumType } from "type-graphql";

export const NodeTypeProfileEnum = { seed: "seed", pipeline: "pipeline" } as const;
registerEnumType(NodeTypeProfileEnum, {
  name: "NodeTypeProfile",
  description: "seed: the five weft.workflow/v1 types (a workflow of only these exports as v1); pipeline: the types weft.workflow/v2 adds.",
});

@ObjectType("DegreeBounds", { description: "Inclusive bounds; max null means unbounded." })
export class DegreeBoundsObject {
  @Field(() => Int)
  min!: number;

  @Field(() => Int, { nullable: true })
  max!: number | null;
}

@ObjectType("NodeTypeField", {
  description: "One of a type's own fields (a node's `config` key), lifted from its JSON Schema for forms.",
})
export class NodeTypeFieldObject {
  @Field(() => String, { description: "The key in the node's config (and in the weft.workflow/v2 document)." })
  name!: string;

  @Field(() => String, {
    description:
      "What the value is: cel (a CEL condition), celList (a CEL list), template (text with placeholders), channel (a state channel name), port, jsonSchema, graph (an inline body), knowledgeBase (a knowledge base's name), or the JSON type when nothing more is said: string, integer, number, boolean, array, object, any.",
  })
  kind!: string;

  @Field(() => String)
  description!: string;

  @Field(() => Boolean, { description: "Whether a node of the type must have it." })
  required!: boolean;

  @Field(() => GraphQLJSON, { nullable: true, description: "The value that applies when the field is absent, if any." })
  default!: unknown;

  @Field(() => [String], { nullable: true, description: "The allowed values, when the field is one of a few strings." })
  enumValues!: string[] | null;

  @Field(() => Float, { nullable: true })
  minimum!: number | null;

  @Field(() => Float, { nullable: true })
  maximum!: number | null;

  @Field(() => Int, { nullable: true, description: "Text: the most characters; list: the most items." })
  maxLength!: number | null;

  @Field(() => GraphQLJSONObject, { description: "The field's own JSON Schema (2020-12), nested objects and list items included." })
  schema!: Record<string, unknown>;
}

@ObjectType("NodeType", { description: "An entry of the node-type registry: what the palette offers and the rules enforce." })
export class NodeTypeObject {
  @Field(() => String)
  type!: string;

  @Field(() => String)
  label!: string;

  @Field(() => String, {
    description: "UI component that renders it: TextNode, ModelNode, RouterNode, JoinNode, TemplateNode, MapNode, SubgraphNode or ToolNode.",
  })
  component!: string;

  @Field(() => String)
  description!: string;

  @Field(() => NodeTypeProfileEnum)
  profile!: keyof typeof NodeTypeProfileEnum;

  @Field(() => [String], { description: "Types allowed as pre-nodes." })
  accepts!: string[];

  @Field(() => [String], { description: "Types allowed as post-nodes." })
  feeds!: string[];

  @Field(() => DegreeBoundsObject)
  inDegree!: DegreeBoundsObject;

  @Field(() => DegreeBoundsObject)
  outDegree!: DegreeBoundsObject;

  @Field(() => DegreeBoundsObject, { nullable: true, description: "How many nodes of this type a workflow holds, if limited." })
  count!: DegreeBoundsObject | null;

  @Field(() => Boolean, { description: "Whether nodes of this type call a model (need provider and model)." })
  usesModel!: boolean;

  @Field(() => [String], { description: "The node attributes it takes besides its config: some of content, provider, model, params, prompt." })
  attributes!: string[];

  @Field(() => [String], {
    description: "The output ports every node of the type has (`out` for ordinary types); a router's config adds more (see portsField, and WorkflowNode.ports).",
  })
  ports!: string[];

  @Field(() => String, { nullable: true, description: "The config field whose entries are further ports: `cases` of a switch (their `port`), `labels` of a classify node." })
  portsField!: string | null;

  @Field(() => Boolean, { description: "Whether it routes: edges leave its ports, and loop edges may leave only such nodes." })
  router!: boolean;

  @Field(() => Boolean, { description: "Whether it runs an inline graph (`body`): map and subgraph." })
  composite!: boolean;

  @Field(() => [NodeTypeFieldObject], { description: "Its own fields (the node's config), in declaration order." })
  fields!: NodeTypeFieldObject[];

  @Field(() => GraphQLJSONObject, {
    description: "JSON Schema (2020-12) of the node's config, with `description`, `default` and `x-weft-kind` per field: what the server validates config against.",
  })
  configSchema!: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: "The config a new node of the type starts with (what the editor's palette sends to addNode); it passes configSchema and the edit-time rules. Null: {} will do.",
  })
  defaultConfig!: Record<string, unknown> | null;
}
