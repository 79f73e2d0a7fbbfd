import { GraphQLError, Kind, type DocumentNode, type OperationDefinitionNode, type SelectionSetNode } from "graphql";
import type { AuthInfo } from "../auth/auth-info.js";

/** The fields that read the schema itself (`__typename` only names a type and stays open to all). */
const INTROSPECTION_FIELDS = new Set(["__schema", "__type"]);

/** Whether the operation reads the schema anywhere, fragments included (each fragment looked at once). */
export function readsSchema(document: DocumentNode, operation: OperationDefinitionNode): boolean {
  const fragments = new Map<string, SelectionSetNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition.selectionSet);
  }
  const seen = new Set<string>();
  const pending: SelectionSetNode[] = [operation.selectionSet];
  while (pending.length > 0) {
    for (const selection of pending.pop()!.selections) {
      if (selection.kind === Kind.FIELD) {
        if (INTROSPECTION_FIELDS.has(selection.name.value)) return true;
        if (selection.selectionSet) pending.push(selection.selectionSet);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        pending.push(selection.selectionSet);
      } else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) pending.push(fragment);
      }
    }
  }
  return false;
}

/**
 * Introspection needs a key outside local mode (SPEC-V3 §1): the schema is no secret (it is committed),
 * but reading it is work an anonymous caller could multiply. With WEFT_AUTH=disabled every caller is
 * authenticated, so local tools keep introspecting without one. Null when the operation may run.
 */
export function introspectionRefusal(document: DocumentNode, operation: OperationDefinitionNode, auth: AuthInfo): GraphQLError | null {
  if (auth.authenticated || !readsSchema(document, operation)) return null;
  return new GraphQLError("introspection needs an API key: send `Authorization: Bearer <key>`", {
    extensions: { code: "UNAUTHENTICATED", http: { status: 401 } },
  });
}
