-- AlterTable
ALTER TABLE "Experiment" ADD COLUMN     "contentHash" TEXT;

-- AlterTable
ALTER TABLE "Workflow" ADD COLUMN     "publishGate" JSONB;

-- CreateIndex
CREATE INDEX "Experiment_workflowId_contentHash_idx" ON "Experiment"("workflowId", "contentHash");
