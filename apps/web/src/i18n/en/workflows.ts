/** Workflow list: create, rename, duplicate, delete, import, export. */
export const workflows = {
  "list.title": "Workflows",
  "list.empty": "No workflows yet. Create one or import a weft.workflow/v1 file.",
} as const;
