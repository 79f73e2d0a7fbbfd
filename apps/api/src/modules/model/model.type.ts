import { Field, Float, ID, ObjectType } from "type-graphql";

@ObjectType("Model")
export class ModelObject {
  @Field(() => ID, { description: "What a model node's `model` names." })
  id!: string;

  @Field(() => String)
  label!: string;

  @Field(() => Boolean, { description: "True for the offline provider's test models, which are not language models." })
  testOnly!: boolean;

  @Field(() => Float, { nullable: true, description: "US dollars per million prompt tokens, when configured (WEFT_PROVIDERS_FILE): cost is computed from it." })
  inputUsdPerMTok!: number | null;

  @Field(() => Float, { nullable: true, description: "US dollars per million completion tokens, when configured." })
  outputUsdPerMTok!: number | null;
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
