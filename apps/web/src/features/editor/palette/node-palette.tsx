"use client";

import { useT } from "../../../i18n/i18n-provider";
import { Button } from "../../../ui/button";
import { useNodeTypes } from "../../node-types/node-types-context";
import { useNodeTypeLabel } from "../../node-types/use-node-type-label";

export function NodePalette({ disabled, onAdd }: { disabled: boolean; onAdd: (type: string) => void }) {
  const t = useT();
  const typeLabel = useNodeTypeLabel();
  const nodeTypes = useNodeTypes();
  // The canvas draws and checks the seed-000 types; the weft.workflow/v2 types (the API offers them too)
  // need their config forms and ports first.
  const offered = nodeTypes.types.filter((info) => info.profile === "seed");
  return (
    <aside className="palette" aria-label={t("editor.palette.title")}>
      <h3>{t("editor.palette.title")}</h3>
      <ul className="palette__list">
        {offered.map(({ type }) => (
          <li key={type}>
            <Button
              className={`palette__item palette__item--${nodeTypes.isText(type) ? "text" : "model"}`}
              disabled={disabled}
              aria-label={t("editor.palette.add", { type: typeLabel(type) })}
              data-node-type={type}
              onClick={() => onAdd(type)}
            >
              <span className={`palette__swatch palette__swatch--${type}`} aria-hidden="true" />
              {typeLabel(type)}
            </Button>
          </li>
        ))}
      </ul>
      <p className="hint">{t("editor.palette.help")}</p>
    </aside>
  );
}
