"use client";

import { useT } from "../../../i18n/i18n-provider";
import { Button } from "../../../ui/button";
import type { NodeTypeInfo } from "../../node-types/node-type-catalogue";
import { useNodeTypes } from "../../node-types/node-types-context";
import { useNodeTypeLabel } from "../../node-types/use-node-type-label";
import { NODE_TYPE_DRAG } from "../canvas/editor-canvas";
import { useNodeTypeHelp } from "../../node-types/use-node-type-help";

/**
 * Every node type the API offers, in the registry's order: the five seed-000 types, then the
 * weft.workflow/v2 types (routers, joins, templates, maps, tools) under their own heading.
 */
export function NodePalette({ disabled, onAdd }: { disabled: boolean; onAdd: (type: string) => void }) {
  const t = useT();
  const nodeTypes = useNodeTypes();
  const seed = nodeTypes.types.filter((info) => info.profile === "seed");
  const pipeline = nodeTypes.types.filter((info) => info.profile !== "seed");
  return (
    <aside className="palette" aria-label={t("editor.palette.title")}>
      <h3>{t("editor.palette.title")}</h3>
      <PaletteList types={seed} disabled={disabled} onAdd={onAdd} />
      {pipeline.length > 0 ? (
        <>
          <h3>{t("pipeline.palette.title")}</h3>
          <PaletteList types={pipeline} disabled={disabled} onAdd={onAdd} />
        </>
      ) : null}
      <p className="hint">{t("editor.palette.help")}</p>
    </aside>
  );
}

function PaletteList({ types, disabled, onAdd }: { types: readonly NodeTypeInfo[]; disabled: boolean; onAdd: (type: string) => void }) {
  const t = useT();
  const typeLabel = useNodeTypeLabel();
  const nodeTypes = useNodeTypes();
  const help = useNodeTypeHelp();
  return (
    <ul className="palette__list">
      {types.map(({ type, description }) => (
        <li key={type}>
          <Button
            className={`palette__item palette__item--${nodeTypes.isText(type) ? "text" : "model"}`}
            disabled={disabled}
            aria-label={t("editor.palette.add", { type: typeLabel(type) })}
            title={help.description(type, description)}
            data-node-type={type}
            draggable={!disabled}
            onDragStart={(event) => {
              event.dataTransfer.setData(NODE_TYPE_DRAG, type);
              event.dataTransfer.effectAllowed = "copy";
            }}
            onClick={() => onAdd(type)}
          >
            <span className={`palette__swatch palette__swatch--${type}`} aria-hidden="true" />
            {typeLabel(type)}
          </Button>
        </li>
      ))}
    </ul>
  );
}
