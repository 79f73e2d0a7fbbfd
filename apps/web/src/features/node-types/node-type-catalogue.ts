import type { NodeTypeFieldsFragment } from "@/gql/graphql";

export type NodeTypeInfo = NodeTypeFieldsFragment;
export type NodeTypeField = NodeTypeInfo["fields"][number];

/**
 * The node types the API's `nodeTypes` query describes, with the questions the UI asks of them. The UI
 * never compares type names: a source (no pre-node), a sink (feeds nothing), a model node or a text
 * node is whatever the registry says it is, so a type added on the server needs no change here.
 */
export interface NodeTypeCatalogue {
  /** In the registry's order (the palette's order). */
  readonly types: readonly NodeTypeInfo[];
  get(type: string): NodeTypeInfo | undefined;
  /** Takes no pre-node (an input node): no target handle, its content is what a run is given. */
  isSource(type: string): boolean;
  /** Feeds nothing (the output node): no source handle, it receives the run's result. */
  isSink(type: string): boolean;
  usesModel(type: string): boolean;
  /** Rendered as a text card (content) rather than a model card (provider, model, prompt). */
  isText(type: string): boolean;
  /** Takes a node attribute besides its config (content, provider, model, params, prompt). */
  takes(type: string, attribute: string): boolean;
}

export function nodeTypeCatalogue(types: readonly NodeTypeInfo[]): NodeTypeCatalogue {
  const byType = new Map(types.map((info) => [info.type, info]));
  return {
    types,
    get: (type) => byType.get(type),
    isSource: (type) => byType.get(type)?.inDegree.max === 0,
    isSink: (type) => byType.get(type)?.outDegree.max === 0,
    usesModel: (type) => byType.get(type)?.usesModel ?? false,
    isText: (type) => byType.get(type)?.component === "TextNode",
    takes: (type, attribute) => byType.get(type)?.attributes.includes(attribute) ?? false,
  };
}
