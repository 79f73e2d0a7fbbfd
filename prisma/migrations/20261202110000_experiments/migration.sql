-- CreateEnum
CREATE TYPE "ExperimentStatus" AS ENUM ('RUNNING', 'COMPLETED', 'CANCELLED', 'FAILED');

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "experimentId" TEXT;

-- CreateTable
CREATE TABLE "Experiment" (
    "id" TEXT NOT NULL,
    "workflowId" TEXT NOT NULL,
    "versionId" TEXT,
    "versionNumber" INTEGER,
    "draft" BOOLEAN NOT NULL,
    "datasetId" TEXT NOT NULL,
    "datasetRevision" INTEGER NOT NULL,
    "scorers" JSONB NOT NULL,
    "concurrency" INTEGER NOT NULL,
    "status" "ExperimentStatus" NOT NULL DEFAULT 'RUNNING',
    "rows" INTEGER NOT NULL,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "Experiment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ExperimentResult" (
    "id" TEXT NOT NULL,
    "experimentId" TEXT NOT NULL,
    "rowId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "runId" TEXT,
    "output" TEXT,
    "completed" BOOLEAN NOT NULL,
    "latencyMs" INTEGER,
    "tokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" DOUBLE PRECISION,
    "scores" JSONB NOT NULL,
    "error" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ExperimentResult_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Experiment_workflowId_createdAt_idx" ON "Experiment"("workflowId", "createdAt");

-- CreateIndex
CREATE INDEX "Experiment_datasetId_status_idx" ON "Experiment"("datasetId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "ExperimentResult_experimentId_rowId_key" ON "ExperimentResult"("experimentId", "rowId");

-- CreateIndex
CREATE UNIQUE INDEX "ExperimentResult_experimentId_position_key" ON "ExperimentResult"("experimentId", "position");

-- CreateIndex
CREATE INDEX "Run_experimentId_idx" ON "Run"("experimentId");

-- AddForeignKey
ALTER TABLE "Experiment" ADD CONSTRAINT "Experiment_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Experiment" ADD CONSTRAINT "Experiment_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExperimentResult" ADD CONSTRAINT "ExperimentResult_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment"("id") ON DELETE CASCADE ON UPDATE CASCADE;
