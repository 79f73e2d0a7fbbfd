import { Field, InputType } from "type-graphql";
import type { ApiKey } from "./api-key.type.js";

export const API_KEY_INPUT_LIMITS = { maxNameLength: 100 } as const;

@InputType()
export class CreateApiKeyInput implements Partial<ApiKey> {
  @Field(() => String, { description: `1..${API_KEY_INPUT_LIMITS.maxNameLength} characters.` })
  name!: string;

  @Field(() => [String], { description: "At least one of read, write, run, admin." })
  scopes!: string[];
}
