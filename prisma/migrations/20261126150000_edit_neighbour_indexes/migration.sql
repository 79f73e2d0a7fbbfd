-- Graph edits read a node's incoming edges and the nodes of one type instead of the whole graph.
-- CreateIndex
CREATE INDEX "WorkflowEdge_workflowId_target_idx" ON "WorkflowEdge"("workflowId", "target");

-- CreateIndex
CREATE INDEX "WorkflowNode_workflowId_type_idx" ON "WorkflowNode"("workflowId", "type");
