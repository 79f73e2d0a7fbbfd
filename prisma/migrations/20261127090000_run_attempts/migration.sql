-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "attempt" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "claimedBy" TEXT;
