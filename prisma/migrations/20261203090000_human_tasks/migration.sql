-- CreateEnum
CREATE TYPE "HumanTaskStatus" AS ENUM ('OPEN', 'COMPLETED', 'EXPIRED', 'CANCELLED');

-- AlterEnum
ALTER TYPE "RunStatus" ADD VALUE 'WAITING';

-- CreateTable
CREATE TABLE "HumanTask" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "workflowId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "invocation" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "instructions" TEXT NOT NULL,
    "actions" JSONB NOT NULL,
    "form" JSONB,
    "input" JSONB,
    "editable" BOOLEAN NOT NULL,
    "onTimeout" TEXT,
    "assignee" TEXT,
    "status" "HumanTaskStatus" NOT NULL DEFAULT 'OPEN',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3),
    "completedAt" TIMESTAMP(3),
    "completedBy" TEXT,
    "action" TEXT,
    "data" JSONB,
    "comment" TEXT,

    CONSTRAINT "HumanTask_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "HumanTask_status_createdAt_idx" ON "HumanTask"("status", "createdAt");

-- CreateIndex
CREATE INDEX "HumanTask_workflowId_status_createdAt_idx" ON "HumanTask"("workflowId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "HumanTask_assignee_status_createdAt_idx" ON "HumanTask"("assignee", "status", "createdAt");

-- CreateIndex
CREATE INDEX "HumanTask_status_expiresAt_idx" ON "HumanTask"("status", "expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "HumanTask_runId_nodeId_invocation_key" ON "HumanTask"("runId", "nodeId", "invocation");

-- AddForeignKey
ALTER TABLE "HumanTask" ADD CONSTRAINT "HumanTask_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
