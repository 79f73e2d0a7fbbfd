import { serializeWorkflow, type Workflow } from "@weft/engine";
import type { Prisma, WorkflowVersion as VersionRow } from "../../generated/prisma/client.js";
import type { AuthInfo } from "../../auth/auth-info.js";
import { contentHash } from "./workflow-content-hash.js";

export const MAX_NOTE_LENGTH = 2_000;

/** A version row without its document, as lists read it. */
export type VersionHead = Omit<VersionRow, "document">;

/** Prisma `omit` that leaves a version's document unread. */
export const HEAD = { document: true } as const;

export interface NewVersion {
  workflowId: string;
  workflow: Workflow;
  /** The workflow's edit counter the content was read at. */
  editVersion: number;
  note: string;
  auth: AuthInfo;
}

/**
 * Stores the next numbered version of a workflow. The caller holds the workflow's row lock (publish,
 * import), which is what keeps numbers consecutive; the unique (workflowId, number) index backs it.
 */
export async function insertVersion(tx: Prisma.TransactionClient, version: NewVersion): Promise<VersionHead> {
  const document = documentOf(version.workflow);
  const last = await tx.workflowVersion.aggregate({ where: { workflowId: version.workflowId }, _max: { number: true } });
  const key = version.auth.keyId ? await tx.apiKey.findUnique({ where: { id: version.auth.keyId }, select: { name: true } }) : null;
  return tx.workflowVersion.create({
    data: {
      workflowId: version.workflowId,
      number: (last._max.number ?? 0) + 1,
      note: version.note,
      document: document as Prisma.InputJsonObject,
      contentHash: contentHash(document),
      editVersion: version.editVersion,
      apiKeyId: key ? version.auth.keyId : null,
      publishedBy: key?.name ?? null,
    },
    omit: HEAD,
  });
}

/** The workflow as the document export writes, as a JSON value (what a version stores). */
export function documentOf(workflow: Workflow): Record<string, unknown> {
  return serializeWorkflow(workflow) as unknown as Record<string, unknown>;
}
