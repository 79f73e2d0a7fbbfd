-- Any number of runs of one workflow may be active at once: the unique "one active run per workflow"
-- lock goes. Graph edits are refused only while a run of the draft (versionId IS NULL) is active.
-- DropIndex
DROP INDEX "Run_activeLock_key";

-- AlterTable
ALTER TABLE "Run" DROP COLUMN "activeLock";
