-- CreateEnum
CREATE TYPE "TriggerKind" AS ENUM ('WEBHOOK', 'SCHEDULE');

-- CreateEnum
CREATE TYPE "WebhookMode" AS ENUM ('ASYNC', 'SYNC');

-- CreateEnum
CREATE TYPE "ScheduleOverlap" AS ENUM ('SKIP', 'ALLOW');

-- CreateEnum
CREATE TYPE "ScheduleCatchUp" AS ENUM ('NONE', 'LAST');

-- CreateEnum
CREATE TYPE "TriggerFiringStatus" AS ENUM ('STARTED', 'SKIPPED', 'FAILED');

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "triggerId" TEXT,
ADD COLUMN     "triggerKind" "TriggerKind";

-- CreateTable
CREATE TABLE "Trigger" (
    "id" TEXT NOT NULL,
    "workflowId" TEXT NOT NULL,
    "kind" "TriggerKind" NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "version" INTEGER,
    "inputs" JSONB NOT NULL DEFAULT '[]',
    "mode" "WebhookMode",
    "timeoutMs" INTEGER,
    "secret" TEXT,
    "cron" TEXT,
    "timezone" TEXT,
    "overlap" "ScheduleOverlap",
    "catchUp" "ScheduleCatchUp",
    "lastTickAt" TIMESTAMP(3),
    "lastFiredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Trigger_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TriggerFiring" (
    "id" TEXT NOT NULL,
    "triggerId" TEXT NOT NULL,
    "key" TEXT,
    "status" "TriggerFiringStatus" NOT NULL,
    "runId" TEXT,
    "error" JSONB,
    "firedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TriggerFiring_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Trigger_workflowId_createdAt_idx" ON "Trigger"("workflowId", "createdAt");

-- CreateIndex
CREATE INDEX "Trigger_kind_enabled_idx" ON "Trigger"("kind", "enabled");

-- CreateIndex
CREATE INDEX "TriggerFiring_triggerId_firedAt_idx" ON "TriggerFiring"("triggerId", "firedAt");

-- CreateIndex
CREATE INDEX "TriggerFiring_firedAt_idx" ON "TriggerFiring"("firedAt");

-- CreateIndex
CREATE UNIQUE INDEX "TriggerFiring_triggerId_key_key" ON "TriggerFiring"("triggerId", "key");

-- CreateIndex
CREATE INDEX "Run_triggerId_createdAt_idx" ON "Run"("triggerId", "createdAt");

-- AddForeignKey
ALTER TABLE "Trigger" ADD CONSTRAINT "Trigger_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TriggerFiring" ADD CONSTRAINT "TriggerFiring_triggerId_fkey" FOREIGN KEY ("triggerId") REFERENCES "Trigger"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TriggerFiring" ADD CONSTRAINT "TriggerFiring_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE SET NULL ON UPDATE CASCADE;
