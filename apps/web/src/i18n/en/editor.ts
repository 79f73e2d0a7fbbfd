/** Workflow editor: canvas, palette, edit panel, run bar, results pane. */
export const editor = {
  "title": "Editor",
} as const;
