import { Field, Int, ObjectType } from "type-graphql";

@ObjectType("DegreeBounds", { description: "Inclusive bounds; max null means unbounded." })
export class DegreeBoundsObject {
  @Field(() => Int)
  min!: number;

  @Field(() => Int, { nullable: true })
  max!: number | null;
}

@ObjectType("NodeType", { description: "An entry of the node-type registry: what the palette offers and the rules enforce." })
export class NodeTypeObject {
  @Field(() => String)
  type!: string;

  @Field(() => String)
  label!: string;

  @Field(() => String, { description: "UI component that renders it: TextNode or ModelNode." })
  component!: string;

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
}
