import { DATASET_LIMITS, type DatasetRowValue } from "@weft/engine";
import { Prisma, type PrismaClient } from "../../generated/prisma/client.js";
import { planned } from "../../db/planned.js";

/**
 * Adds rows to a dataset in ONE statement: the dataset's counters move (rowCount, revision,
 * lastPosition) and the rows are inserted from one JSON argument, numbered after the last position, so
 * a call adds all its rows or none, and two calls at once get distinct positions (the row lock of the
 * update). Returns false when the dataset does not exist or would pass DATASET_LIMITS.maxRows.
 */
export async function insertDatasetRows(db: PrismaClient, datasetId: string, rows: readonly DatasetRowValue[]): Promise<boolean> {
  const count = rows.length;
  const json = JSON.stringify(rows.map((row) => ({ inputs: row.inputs, expected: row.expected, tags: row.tags })));
  const inserted = await db.$executeRaw(
    planned(Prisma.sql`WITH ds AS (
        UPDATE "Dataset" SET "rowCount" = "rowCount" + ${count}::int, "revision" = "revision" + 1,
          "lastPosition" = "lastPosition" + ${count}::int, "updatedAt" = (now() AT TIME ZONE 'UTC')
        WHERE id = ${datasetId} AND "rowCount" + ${count}::int <= ${DATASET_LIMITS.maxRows}::int
        RETURNING "lastPosition" - ${count}::int AS base)
      INSERT INTO "DatasetRow" ("id", "datasetId", "position", "inputs", "expected", "tags")
      SELECT gen_random_uuid()::text, ${datasetId}, ds.base + row.ord::int, row.value->'inputs', row.value->'expected',
        ARRAY(SELECT jsonb_array_elements_text(row.value->'tags'))
      FROM ds, jsonb_array_elements(${json}::jsonb) WITH ORDINALITY AS row(value, ord)`),
  );
  return inserted === count;
}
