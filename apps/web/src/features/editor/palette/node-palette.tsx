"use client";

import { defaultRegistry } from "@weft/engine";
import { useT } from "../../../i18n/i18n-provider";
import { Button } from "../../../ui/button";
import { nodeTypeLabel } from "../graph/node-type-label";

/** Module scope: the registry is immutable, so the palette's entries never change. */
const PALETTE_TYPES = defaultRegistry.specs().map((spec) => ({ type: spec.type, component: spec.component }));

export function NodePalette({ disabled, onAdd }: { disabled: boolean; onAdd: (type: string) => void }) {
  const t = useT();
  return (
    <aside className="palette" aria-label={t("editor.palette.title")}>
      <h3>{t("editor.palette.title")}</h3>
      <ul className="palette__list">
        {PALETTE_TYPES.map(({ type, component }) => (
          <li key={type}>
            <Button
              className={`palette__item palette__item--${component === "TextNode" ? "text" : "model"}`}
              disabled={disabled}
              aria-label={t("editor.palette.add", { type: nodeTypeLabel(t, type) })}
              data-node-type={type}
              onClick={() => onAdd(type)}
            >
              <span className={`palette__swatch palette__swatch--${type}`} aria-hidden="true" />
              {nodeTypeLabel(t, type)}
            </Button>
          </li>
        ))}
      </ul>
      <p className="hint">{t("editor.palette.help")}</p>
    </aside>
  );
}
