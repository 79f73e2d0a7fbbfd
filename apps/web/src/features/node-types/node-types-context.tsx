"use client";

import { createContext, useContext, useMemo, type ReactNode } from "react";
import { useQuery } from "urql";
import { LoadingState, QueryError } from "../../ui/state-views";
import { nodeTypeCatalogue, type NodeTypeCatalogue } from "./node-type-catalogue";
import { NodeTypesQuery } from "./node-types.operations";

export const NodeTypesContext = createContext<NodeTypeCatalogue | null>(null);

/**
 * Loads the API's `nodeTypes` once (they change only with the server) and provides them to the pages
 * that draw workflow graphs; renders its children once they are known.
 */
export function NodeTypesProvider({ children }: { children: ReactNode }) {
  const [{ data, error }, reload] = useQuery({ query: NodeTypesQuery, requestPolicy: "cache-first" });
  const catalogue = useMemo(() => (data ? nodeTypeCatalogue(data.nodeTypes) : null), [data]);
  if (error && !catalogue) return <QueryError error={error} onRetry={() => reload({ requestPolicy: "network-only" })} />;
  if (!catalogue) return <LoadingState />;
  return <NodeTypesContext.Provider value={catalogue}>{children}</NodeTypesContext.Provider>;
}

export function useNodeTypes(): NodeTypeCatalogue {
  const catalogue = useContext(NodeTypesContext);
  if (!catalogue) throw new Error("useNodeTypes must be used inside <NodeTypesProvider>");
  return catalogue;
}
