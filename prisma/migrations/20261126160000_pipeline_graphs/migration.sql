-- weft.workflow/v2 graphs (SPEC-V2): node configs, edge ports and loop edges, workflow loops, state
-- channels and limits, node runs per (run, node, invocation), and a run's final state. Every new column
-- is nullable or defaults to what a v1 row means (no config, port `out`, a data edge, invocation ""),
-- so stored v1 workflows and runs keep their meaning unchanged.
-- DropIndex
DROP INDEX "NodeRun_runId_nodeKey_key";

-- DropIndex
DROP INDEX "WorkflowEdge_workflowId_source_target_key";

-- AlterTable
ALTER TABLE "NodeRun" ADD COLUMN     "invocation" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "value" JSONB;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "state" JSONB;

-- AlterTable
ALTER TABLE "Workflow" ADD COLUMN     "limits" JSONB,
ADD COLUMN     "loops" JSONB,
ADD COLUMN     "state" JSONB;

-- AlterTable
ALTER TABLE "WorkflowEdge" ADD COLUMN     "loop" TEXT,
ADD COLUMN     "sourcePort" TEXT;

-- AlterTable
ALTER TABLE "WorkflowNode" ADD COLUMN     "config" JSONB;

-- CreateIndex
CREATE UNIQUE INDEX "NodeRun_runId_nodeKey_invocation_key" ON "NodeRun"("runId", "nodeKey", "invocation");

-- CreateIndex
CREATE INDEX "WorkflowEdge_workflowId_source_idx" ON "WorkflowEdge"("workflowId", "source");
