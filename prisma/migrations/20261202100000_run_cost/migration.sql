-- AlterTable
ALTER TABLE "NodeRun" ADD COLUMN     "costUsd" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "costUsd" DOUBLE PRECISION;
