import { registerEnumType } from "type-graphql";
import type { SearchIntensity } from "@weft/engine";

/** GraphQL enum `SearchIntensity`; registered once here and shared by every module that uses it. */
export const SearchIntensityEnum: { readonly [K in SearchIntensity]: K } = {
  LOW: "LOW",
  MEDIUM: "MEDIUM",
  HIGH: "HIGH",
};

registerEnumType(SearchIntensityEnum, {
  name: "SearchIntensity",
  description: "How many knowledge-base chunks a model node retrieves (top_k): LOW=3, MEDIUM=5, HIGH=10 by default.",
});
