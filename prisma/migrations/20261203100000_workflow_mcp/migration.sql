-- AlterTable
ALTER TABLE "Workflow" ADD COLUMN     "mcpDescription" TEXT,
ADD COLUMN     "mcpEnabled" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "mcpToolName" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Workflow_mcpToolName_key" ON "Workflow"("mcpToolName");
