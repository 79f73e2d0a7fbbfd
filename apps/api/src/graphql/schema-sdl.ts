import { lexicographicSortSchema, printSchema, type GraphQLSchema } from "graphql";

export const SCHEMA_FILE_HEADER =
  "# The Weft GraphQL API. Generated from the resolvers by `pnpm --filter @weft/api run schema:emit`; do not edit.\n\n";

/** The schema as committed in apps/api/schema.graphql: sorted, so the diff of a change is only that change. */
export function schemaSdl(schema: GraphQLSchema): string {
  return `${SCHEMA_FILE_HEADER}${printSchema(lexicographicSortSchema(schema))}\n`;
}
