"use client";

import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import { useQuery } from "urql";
import { useI18n } from "@/i18n/i18n-provider";
import { ErrorState, LoadingState, QueryError } from "@/ui/state-views";
import { GraphView, type GraphViewEdge, type GraphViewNode } from "../graph-view/graph-view";
import { NodeTypesProvider } from "../node-types/node-types-context";
import { useNodeTypeLabel } from "../node-types/use-node-type-label";
import { ChangeList, FieldChangeTable, type ChangedItem } from "./change-list";
import { CompareChooser } from "./compare-chooser";
import { diffGraph, type GraphDiff } from "./version-diff";
import { CompareVersionsQuery, WorkflowVersionsQuery } from "./versions.operations";
import "../admin-pages.css";
import "./versions.css";

const positiveInt = (value: string | null): number | null => (value && /^\d+$/.test(value) && Number(value) > 0 ? Number(value) : null);

/** `/workflows/<id>/compare?from=1&to=2` (no `to`: the draft). */
export function VersionComparePage({ workflowId }: { workflowId: string }) {
  const { t } = useI18n();
  const search = useSearchParams();
  const from = positiveInt(search?.get("from") ?? null);
  const to = positiveInt(search?.get("to") ?? null);
  if (from === null) return <ErrorState message={t("versions.compare.notFound")} />;
  return (
    <NodeTypesProvider>
      <Comparison workflowId={workflowId} from={from} to={to} />
    </NodeTypesProvider>
  );
}

function Comparison({ workflowId, from, to }: { workflowId: string; from: number; to: number | null }) {
  const { t } = useI18n();
  const typeLabel = useNodeTypeLabel();
  const [selected, setSelected] = useState<string | null>(null);
  const [showLayout, setShowLayout] = useState(false);
  const [{ data, fetching, error }, reload] = useQuery({
    query: CompareVersionsQuery,
    variables: { workflowId, from, to, toVersion: to ?? from, withVersion: to !== null },
    requestPolicy: "network-only",
  });
  const [versionsResult] = useQuery({ query: WorkflowVersionsQuery, variables: { id: workflowId, first: 100 } });
  const numbers = versionsResult.data?.workflow?.versions.edges.map((edge) => edge.node.number) ?? [from];

  const diff = useMemo<GraphDiff | null>(() => {
    const later = to === null ? data?.workflow : data?.toVersion;
    if (!data?.fromVersion || !later?.nodes || !later.edges) return null;
    return diffGraph(data.fromVersion, { nodes: later.nodes, edges: later.edges }, data.compareWorkflowVersions);
  }, [data, to]);
  const graph = useMemo(() => (diff ? graphOf(diff, showLayout) : null), [diff, showLayout]);

  if (error && !data) return <QueryError error={error} onRetry={() => reload({ requestPolicy: "network-only" })} />;
  if (!data && fetching) return <LoadingState />;
  if (!data?.workflow || !diff || !graph) return <ErrorState message={t("versions.compare.notFound")} />;

  const comparison = data.compareWorkflowVersions;
  const toName = to === null ? t("versions.draft") : `v${to}`;
  const nodeItems: ChangedItem[] = diff.nodes.map((node) => ({ id: node.id, status: node.status, fields: node.fields, caption: typeLabel(node.type) }));
  const edgeItems: ChangedItem[] = diff.edges.map((edge) => ({ id: edge.id, status: edge.status, fields: edge.fields, caption: `${edge.source} → ${edge.target}` }));
  const settings = comparison.settings;
  const settingFields = [...settings.added, ...settings.removed, ...settings.changed];

  return (
    <div className="page" data-testid="version-compare">
      <div className="page__header">
        <h1>
          {data.workflow.name}: {t("versions.compare.heading", { from, to: toName })}
        </h1>
        <Link href={`/workflows/${workflowId}/versions`}>← {t("versions.link")}</Link>
      </div>
      <CompareChooser key={`${from}-${to}`} workflowId={workflowId} numbers={numbers} from={from} to={to} />
      {comparison.identical ? (
        <p className="notice notice--success" role="status">
          {t("versions.compare.identical")}
        </p>
      ) : null}
      <div className="version-compare">
        <section className="run-panel">
          <h3>{t("versions.compare.graph")}</h3>
          <GraphView nodes={graph.nodes} edges={graph.edges} selected={selected} onSelect={setSelected} className="graph-view graph-view--tall" fitWhole autoLayout />
          <ul className="version-legend" aria-label={t("versions.compare.legend")}>
            {(["added", "removed", "changed", "moved"] as const).map((status) => (
              <li key={status}>
                <span className={`version-legend__swatch version-legend__swatch--${status}`} aria-hidden="true" />
                {t(`versions.compare.${status}`)}
              </li>
            ))}
          </ul>
          <label className="check">
            <input type="checkbox" checked={showLayout} onChange={(e) => setShowLayout(e.target.checked)} />
            {t("versions.compare.showLayout")}
          </label>
        </section>
        <section className="run-panel" aria-label={t("versions.compare.title")}>
          <h3>{t("versions.compare.nodes")}</h3>
          <ChangeList items={nodeItems} showLayout={showLayout} onSelect={setSelected} />
          <h3>{t("versions.compare.edges")}</h3>
          <ChangeList items={edgeItems} showLayout={showLayout} />
          <h3>{t("versions.compare.settings")}</h3>
          {settingFields.length > 0 ? <FieldChangeTable fields={settingFields} /> : <p className="muted">{t("versions.compare.noChanges")}</p>}
        </section>
      </div>
    </div>
  );
}

/**
 * The diff as the canvas draws it; nodes that only moved look unchanged unless layout changes are shown.
 * The canvas lays both versions' nodes out together (`autoLayout`): each version's own positions would
 * put a removed node and an added one on the same spot.
 */
function graphOf(diff: GraphDiff, showLayout: boolean): { nodes: GraphViewNode[]; edges: GraphViewEdge[] } {
  const shown = (status: string) => (status === "moved" && !showLayout ? "same" : status);
  return {
    nodes: diff.nodes.map((node) => ({
      id: node.id,
      type: node.type,
      label: node.label,
      position: node.position,
      ...(node.ports ? { ports: node.ports } : {}),
      tone: shown(node.status),
      state: node.status,
      ...(shown(node.status) === "same" ? {} : { badge: shown(node.status) === "added" ? "+" : shown(node.status) === "removed" ? "−" : "Δ" }),
    })),
    edges: diff.edges.map((edge) => ({ id: edge.id, source: edge.source, target: edge.target, tone: edge.status, ...(edge.sourcePort ? { sourcePort: edge.sourcePort } : {}), ...(edge.loop ? { label: edge.loop, loop: edge.loop } : {}) })),
  };
}
