-- AlterTable
ALTER TABLE "Document" ADD COLUMN     "pageStarts" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
ADD COLUMN     "source" BYTEA;
