import {
  getNamedType,
  isInterfaceType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";

export interface AliasCount {
  /** `Type.field`, e.g. `Query.workflow`. */
  field: string;
  count: number;
}

type Counts = Map<string, number>;

/**
 * How many times the operation asks for each field marked expensive (`extensions.expensive`, set with
 * type-graphql's @Extensions): every alias is a separate execution (`a: workflow(id: 1) b: workflow(id: 1)`
 * loads the workflow twice). Fragments are followed and counted once per spread; each fragment is
 * walked once (its counts are reused), so nested spreads cannot make this check itself expensive.
 * Call after standard validation (fields exist, fragments are acyclic).
 */
export function expensiveFieldCounts(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): AliasCount[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const memo = new Map<string, Counts>();
  const root = schema.getRootType(operation.operation);
  if (!root) return [];

  const countSelections = (selectionSet: SelectionSetNode, parent: GraphQLNamedType | undefined | null): Counts => {
    const counts: Counts = new Map();
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        if (!parent || !(isObjectType(parent) || isInterfaceType(parent))) continue;
        const definition = parent.getFields()[selection.name.value];
        if (!definition) continue;
        if (definition.extensions["expensive"] === true) add(counts, `${parent.name}.${definition.name}`, 1);
        if (selection.selectionSet) merge(counts, countSelections(selection.selectionSet, getNamedType(definition.type)));
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        merge(counts, countSelections(selection.selectionSet, type));
      } else {
        merge(counts, countFragment(selection.name.value));
      }
    }
    return counts;
  };

  const countFragment = (name: string): Counts => {
    const known = memo.get(name);
    if (known) return known;
    const fragment = fragments.get(name);
    const counts = fragment ? countSelections(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value)) : new Map<string, number>();
    memo.set(name, counts);
    return counts;
  };

  return [...countSelections(operation.selectionSet, root)].map(([field, count]) => ({ field, count }));
}

function add(counts: Counts, key: string, by: number): void {
  counts.set(key, (counts.get(key) ?? 0) + by);
}

function merge(into: Counts, from: Counts): void {
  for (const [key, count] of from) add(into, key, count);
}
