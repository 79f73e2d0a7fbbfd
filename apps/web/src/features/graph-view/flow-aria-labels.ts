import type { AriaLabelConfig } from "@xyflow/react";
import type { useT } from "../../i18n/i18n-provider";

/** ReactFlow's own screen-reader texts and control labels, in the UI's language. */
export function flowAriaLabels(t: ReturnType<typeof useT>): Partial<AriaLabelConfig> {
  return {
    "node.a11yDescription.default": t("canvas.aria.node"),
    "node.a11yDescription.keyboardDisabled": t("canvas.aria.nodeNoKeys"),
    "node.a11yDescription.ariaLiveMessage": ({ direction, x, y }) => t("canvas.aria.moved", { direction, x, y }),
    "edge.a11yDescription.default": t("canvas.aria.edge"),
    "controls.ariaLabel": t("canvas.aria.controls"),
    "controls.zoomIn.ariaLabel": t("canvas.aria.zoomIn"),
    "controls.zoomOut.ariaLabel": t("canvas.aria.zoomOut"),
    "controls.fitView.ariaLabel": t("canvas.aria.fitView"),
    "controls.interactive.ariaLabel": t("canvas.aria.interactive"),
    "minimap.ariaLabel": t("canvas.minimap"),
    "handle.ariaLabel": t("canvas.aria.handle"),
  };
}
