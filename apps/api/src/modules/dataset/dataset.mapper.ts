import type { Dataset as DatasetRow, DatasetRow as DatasetRowRow } from "../../generated/prisma/client.js";
import type { DatasetObject, DatasetRowObject } from "./dataset.type.js";

export function toDatasetObject(row: DatasetRow): DatasetObject {
  return { id: row.id, name: row.name, description: row.description, rowCount: row.rowCount, revision: row.revision, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

export function toDatasetRowObject(row: Pick<DatasetRowRow, "id" | "position" | "inputs" | "expected" | "tags">): DatasetRowObject {
  const inputs = Array.isArray(row.inputs) ? (row.inputs as { nodeId: string; content: string }[]) : [];
  return { id: row.id, position: row.position, inputs, expected: row.expected ?? null, tags: row.tags };
}
