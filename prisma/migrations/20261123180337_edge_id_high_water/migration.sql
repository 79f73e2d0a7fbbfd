-- AlterTable
ALTER TABLE "Workflow" ADD COLUMN     "lastEdgeNumber" INTEGER NOT NULL DEFAULT 0;

-- Existing workflows start from the highest edge number they hold now.
UPDATE "Workflow" AS w
SET "lastEdgeNumber" = COALESCE(
  (SELECT max(substring(e."key" FROM 2)::integer) FROM "WorkflowEdge" AS e
    WHERE e."workflowId" = w."id" AND e."key" ~ '^e[0-9]{1,9}$'),
  0);
