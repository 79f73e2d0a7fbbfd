-- weft.workflow/v2 graphs (SPEC-V2): node configs, edge ports and loop edges, workflow loops, state
-- channels and limits, node runs per (run, node, invocation), a run's final state and, for a run of the
-- draft, the edit version it started from. Every new column is nullable or defaults to what a v1 row
-- means (no config, port `out`, a data edge, invocation ""), so stored v1 workflows and runs keep their
-- meaning unchanged. `json` (not `jsonb`) for what a document holds, so key order survives export.
-- DropIndex
DROP INDEX "NodeRun_runId_nodeKey_key";

-- DropIndex
DROP INDEX "WorkflowEdge_workflowId_source_target_key";

-- AlterTable
ALTER TABLE "NodeRun" ADD COLUMN     "invocation" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "value" JSONB;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "editVersion" INTEGER,
ADD COLUMN     "state" JSONB;

-- AlterTable
ALTER TABLE "Workflow" ADD COLUMN     "limits" JSON,
ADD COLUMN     "loops" JSON,
ADD COLUMN     "state" JSON;

-- AlterTable
ALTER TABLE "WorkflowEdge" ADD COLUMN     "loop" TEXT,
ADD COLUMN     "sourcePort" TEXT;

-- AlterTable
ALTER TABLE "WorkflowNode" ADD COLUMN     "config" JSON;

-- CreateIndex
CREATE UNIQUE INDEX "NodeRun_runId_nodeKey_invocation_key" ON "NodeRun"("runId", "nodeKey", "invocation");

-- CreateIndex
CREATE INDEX "WorkflowEdge_workflowId_source_idx" ON "WorkflowEdge"("workflowId", "source");
