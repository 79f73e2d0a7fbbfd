"use client";

import type { WorkflowNode } from "@weft/engine";
import { useMemo, useState, type KeyboardEvent } from "react";
import { useT } from "../../../i18n/i18n-provider";
import { useNodeTypeLabel } from "../../node-types/use-node-type-label";
import { findNodes } from "./find-nodes";

interface NodeFinderProps {
  nodes: readonly WorkflowNode[];
  onPick: (nodeId: string) => void;
  onClose: () => void;
}

/** Ctrl+K: find a node by id, type or text; Enter (or a click) selects it and brings it into view. */
export function NodeFinder({ nodes, onPick, onClose }: NodeFinderProps) {
  const t = useT();
  const typeLabel = useNodeTypeLabel();
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const found = useMemo(() => findNodes(nodes, query, typeLabel), [nodes, query, typeLabel]);
  const pick = (index: number) => {
    const chosen = found[index];
    if (chosen) onPick(chosen.id);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") onClose();
    else if (event.key === "ArrowDown") setActive((index) => Math.min(found.length - 1, index + 1));
    else if (event.key === "ArrowUp") setActive((index) => Math.max(0, index - 1));
    else if (event.key === "Enter") pick(active);
    else return;
    event.preventDefault();
  };
  return (
    <div className="overlay" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div className="finder" role="dialog" aria-label={t("canvas.find.title")} data-testid="node-finder">
        <input
          autoFocus
          type="search"
          className="finder__input"
          placeholder={t("canvas.find.placeholder")}
          aria-label={t("canvas.find.title")}
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        {found.length === 0 ? <p className="muted finder__empty">{t("canvas.find.none")}</p> : null}
        <ul className="finder__list" role="listbox" aria-label={t("canvas.find.results")}>
          {found.map((node, index) => (
            <li key={node.id} role="option" aria-selected={index === active} className={index === active ? "finder__item finder__item--active" : "finder__item"} onMouseEnter={() => setActive(index)} onClick={() => pick(index)} data-node-id={node.id}>
              <code>{node.id}</code> <span className="muted">{typeLabel(node.type)}</span>
              {node.excerpt ? <span className="finder__excerpt">{node.excerpt}</span> : null}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
