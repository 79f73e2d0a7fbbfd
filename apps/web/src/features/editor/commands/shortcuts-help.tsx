"use client";

import type { MessageKey } from "../../../i18n/dictionary.type";
import { useT } from "../../../i18n/i18n-provider";
import { Button } from "../../../ui/button";
import { OTHER_KEYS, SHORTCUTS, shortcutLabel } from "./keyboard-shortcuts";

const OTHER_LABELS: Record<(typeof OTHER_KEYS)[number], string> = {
  copy: "Ctrl+C",
  paste: "Ctrl+V",
  delete: "Delete / Backspace",
  boxSelect: "Shift + drag",
  multiSelect: "Ctrl + click",
  escape: "Esc",
};

/** "?" : every shortcut of the editor, from the same table the key handler reads. */
export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  const t = useT();
  const rows = [
    ...SHORTCUTS.map((shortcut) => ({ keys: shortcutLabel(shortcut), what: t(`canvas.shortcuts.${shortcut.command}` as MessageKey) })),
    ...OTHER_KEYS.map((key) => ({ keys: OTHER_LABELS[key], what: t(`canvas.shortcuts.${key}` as MessageKey) })),
  ];
  return (
    <div className="overlay" onMouseDown={(event) => event.target === event.currentTarget && onClose()} onKeyDown={(event) => event.key === "Escape" && onClose()}>
      <div className="shortcuts-help" role="dialog" aria-label={t("canvas.shortcuts.title")} data-testid="shortcuts-help">
        <header className="panel__header">
          <h2>{t("canvas.shortcuts.title")}</h2>
          <Button size="sm" autoFocus onClick={onClose}>
            {t("common.action.close")}
          </Button>
        </header>
        <table className="table shortcuts-help__table">
          <tbody>
            {rows.map((row) => (
              <tr key={`${row.keys}-${row.what}`}>
                <td>
                  <kbd>{row.keys}</kbd>
                </td>
                <td>{row.what}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
