-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "crashSuspects" JSONB;
