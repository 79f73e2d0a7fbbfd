import type { Workflow } from "@weft/engine";
import type { WorkflowVersion as VersionRow } from "../../generated/prisma/client.js";
import { encodeOffsetCursor, PageInfo, type Page } from "../common/pagination.js";
import { toPromptSetObject, type PromptSetObject } from "../workflow/index.js";
import type { WorkflowVersionObject } from "./workflow-version.type.js";

/** Version rows and contents → GraphQL objects, and the version list's cursors. Nothing here touches the database. */

export function toVersionObject(row: Omit<VersionRow, "document">): WorkflowVersionObject {
  return {
    id: row.id,
    workflowId: row.workflowId,
    number: row.number,
    note: row.note,
    contentHash: row.contentHash,
    editVersion: row.editVersion,
    publishedBy: row.publishedBy,
    publishedAt: row.createdAt,
  };
}

export function versionPromptSet(workflow: Workflow): PromptSetObject {
  return toPromptSetObject(workflow.prompts);
}

/** Versions are listed by number, newest first; a cursor is the number of the last one seen. */
export const VERSION_CURSOR = "version";

/** A page from rows fetched with `take: size + 1`, newest first. */
export function versionPage(rows: Omit<VersionRow, "document">[], size: number, totalCount: number): Page<WorkflowVersionObject> {
  const edges = rows.slice(0, size).map((row) => ({ cursor: encodeOffsetCursor(VERSION_CURSOR, row.number), node: toVersionObject(row) }));
  const pageInfo = new PageInfo();
  pageInfo.hasNextPage = rows.length > size;
  pageInfo.endCursor = edges.at(-1)?.cursor ?? null;
  return { edges, pageInfo, totalCount };
}
