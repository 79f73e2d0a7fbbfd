-- CreateIndex
CREATE INDEX "NodeRun_runId_startedAt_nodeKey_invocation_idx" ON "NodeRun"("runId", "startedAt", "nodeKey", "invocation");
