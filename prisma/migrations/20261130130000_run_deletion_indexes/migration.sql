-- CreateIndex
CREATE INDEX "Run_rerunOfId_idx" ON "Run"("rerunOfId");

-- CreateIndex
CREATE INDEX "ThreadMessage_runId_idx" ON "ThreadMessage"("runId");
