import { Field, ID, ObjectType } from "type-graphql";

@ObjectType("Model")
export class ModelObject {
  @Field(() => ID, { description: "What a model node's `model` names." })
  id!: string;

  @Field(() => String)
  label!: string;

  @Field(() => Boolean, { description: "True for the offline provider's test models, which are not language models." })
  testOnly!: boolean;
}

@ObjectType("ModelProvider")
export class ModelProviderObject {
  @Field(() => ID, { description: "What a model node's `provider` names." })
  id!: string;

  @Field(() => String)
  label!: string;

  @Field(() => [ModelObject])
  models!: ModelObject[];
}
