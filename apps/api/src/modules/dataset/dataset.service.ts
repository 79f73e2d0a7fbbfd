import { checkRowParts, DATASET_LIMITS, hasVisibleCharacter, VISIBLE_NAME, type DatasetRowValue } from "@weft/engine";
import { Prisma, type PrismaClient } from "../../generated/prisma/client.js";
import type { ServiceDeps } from "../../service-deps.js";
import { afterCursorWhere, buildPage, encodeOffsetCursor, readBound, readOffsetCursor, readPage, type Page } from "../common/pagination.js";
import { isUuid } from "../common/uuid.js";
import { failure, success, type Outcome } from "../../errors/outcome.js";
import { notFoundError, userError, type UserError } from "../../errors/user-error.type.js";
import { checkText } from "../workflow/index.js";
import { readImportRows } from "./dataset-import.js";
import type { CreateDatasetInput, DatasetRowInput } from "./dataset.input.js";
import { toDatasetObject, toDatasetRowObject } from "./dataset.mapper.js";
import { insertDatasetRows } from "./dataset-rows-insert.js";
import type { DatasetFormat, DatasetObject, DatasetRowObject } from "./dataset.type.js";

/** Rows one `rows(first:)` page may hold. */
export const MAX_ROWS_PER_PAGE = 500;
const ROW_CURSOR = "row";

/** What refuses a dataset's deletion (an experiment running on it, a publish gate naming it): the evaluation modules answer. */
export type DatasetDeletionGuard = (datasetId: string) => Promise<UserError | null>;

/** Datasets and their rows (SPEC-V3 §4): create, add, import (JSONL, CSV), browse, delete. */
export class DatasetService {
  readonly #db: PrismaClient;
  readonly #maxValueDepth: number;
  readonly #deletionGuards: DatasetDeletionGuard[] = [];

  constructor(deps: Pick<ServiceDeps, "db" | "env">) {
    this.#db = deps.db;
    this.#maxValueDepth = deps.env.WEFT_MAX_VALUE_DEPTH;
  }

  /** Another module refuses deletions it depends on (experiments, publish gates). */
  guardDeletion(guard: DatasetDeletionGuard): void {
    this.#deletionGuards.push(guard);
  }

  async create(input: CreateDatasetInput): Promise<Outcome<DatasetObject>> {
    const errors = [...checkText(input.name, ["input", "name"], { max: DATASET_LIMITS.maxNameLength, required: true }), ...checkText(input.description, ["input", "description"], { max: DATASET_LIMITS.maxDescriptionLength })];
    if (errors.length === 0 && !hasVisibleCharacter(input.name)) errors.push(userError("VALIDATION_FAILED", `input.name ${VISIBLE_NAME}`, { path: ["input", "name"] }));
    if (errors.length > 0) return failure(...errors);
    try {
      const row = await this.#db.dataset.create({ data: { name: input.name, description: input.description ?? "" } });
      return success(toDatasetObject(row));
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
        return failure(userError("CONFLICT", `a dataset named "${input.name.slice(0, 80)}" exists already`, { path: ["input", "name"] }));
      }
      throw error;
    }
  }

  async get(id: string): Promise<DatasetObject | null> {
    if (!isUuid(id)) return null;
    const row = await this.#db.dataset.findUnique({ where: { id } });
    return row && toDatasetObject(row);
  }

  /** Newest first. */
  async list(args: { first?: number | null; after?: string | null }): Promise<Page<DatasetObject>> {
    const page = readPage(args);
    const where = page.after ? afterCursorWhere("createdAt", page.after) : {};
    const [rows, totalCount] = await Promise.all([
      this.#db.dataset.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: page.size + 1 }),
      this.#db.dataset.count(),
    ]);
    return buildPage(rows, page.size, totalCount, (row) => row.createdAt, toDatasetObject);
  }

  /** Rows in position order; bad page arguments throw BAD_USER_INPUT. */
  async rows(datasetId: string, args: { first?: number | null; after?: string | null }): Promise<Page<DatasetRowObject>> {
    const size = readBound("first", args.first, { max: MAX_ROWS_PER_PAGE, fallback: 50 });
    const after = readOffsetCursor(ROW_CURSOR, args.after);
    const rows = isUuid(datasetId)
      ? await this.#db.datasetRow.findMany({ where: { datasetId, position: { gt: after } }, orderBy: { position: "asc" }, take: size + 1 })
      : [];
    const visible = rows.slice(0, size);
    const totalCount = isUuid(datasetId) ? ((await this.#db.dataset.findUnique({ where: { id: datasetId }, select: { rowCount: true } }))?.rowCount ?? 0) : 0;
    const edges = visible.map((row) => ({ cursor: encodeOffsetCursor(ROW_CURSOR, row.position), node: toDatasetRowObject(row) }));
    return { edges, pageInfo: { hasNextPage: rows.length > size, endCursor: edges.at(-1)?.cursor ?? null }, totalCount };
  }

  /** Adds at most DATASET_LIMITS.maxRowsPerCall rows; every problem is reported and nothing is added then. */
  async addRows(datasetId: string, rows: readonly DatasetRowInput[]): Promise<Outcome<{ dataset: DatasetObject; added: number }>> {
    if (rows.length > DATASET_LIMITS.maxRowsPerCall) {
      return failure(userError("LIMIT_EXCEEDED", `${rows.length} rows; a call adds at most ${DATASET_LIMITS.maxRowsPerCall}`, { path: ["rows"] }));
    }
    const errors: UserError[] = [];
    const checked: DatasetRowValue[] = [];
    rows.forEach((row, index) => {
      const read = checkRowParts(row.inputs, row.expected ?? null, row.tags ?? []);
      if (read.ok) checked.push(read.row);
      else errors.push(...read.issues.map((issue) => userError(issue.code, issue.message, { path: ["rows", index, ...issue.path] })));
    });
    if (errors.length > 0) return failure(...errors.slice(0, 50));
    return this.#insert(datasetId, checked, ["datasetId"]);
  }

  /** JSONL or CSV text (see DatasetFormat); the first bad lines are reported with their numbers, and nothing is added then. */
  async importRows(datasetId: string, format: DatasetFormat, text: string): Promise<Outcome<{ dataset: DatasetObject; added: number }>> {
    const read = readImportRows(format, text, this.#maxValueDepth);
    if (!read.ok) {
      return failure(...read.issues.map((issue) => userError(issue.code, `line ${issue.line}: ${issue.message}`, { path: ["text", `line ${issue.line}`, ...issue.path] })));
    }
    if (read.rows.length === 0) return failure(userError("VALIDATION_FAILED", "the text holds no rows", { path: ["text"] }));
    return this.#insert(datasetId, read.rows, ["datasetId"]);
  }

  async #insert(datasetId: string, rows: readonly DatasetRowValue[], path: string[]): Promise<Outcome<{ dataset: DatasetObject; added: number }>> {
    if (!isUuid(datasetId)) return failure(notFoundError("dataset", datasetId, path));
    if (rows.length > 0 && !(await insertDatasetRows(this.#db, datasetId, rows))) {
      const exists = await this.#db.dataset.findUnique({ where: { id: datasetId }, select: { rowCount: true } });
      if (!exists) return failure(notFoundError("dataset", datasetId, path));
      return failure(userError("LIMIT_EXCEEDED", `the dataset holds ${exists.rowCount} rows; with ${rows.length} more it would pass the limit of ${DATASET_LIMITS.maxRows}`, { path: ["rows"] }));
    }
    const dataset = await this.#db.dataset.findUniqueOrThrow({ where: { id: datasetId } });
    return success({ dataset: toDatasetObject(dataset), added: rows.length });
  }

  /** Deletes a dataset with its rows, unless a running experiment or a publish gate needs it (CONFLICT). */
  async delete(id: string): Promise<Outcome<string>> {
    if (!isUuid(id)) return failure(notFoundError("dataset", id));
    for (const guard of this.#deletionGuards) {
      const refusal = await guard(id);
      if (refusal) return failure(refusal);
    }
    const deleted = await this.#db.dataset.deleteMany({ where: { id } });
    return deleted.count > 0 ? success(id) : failure(notFoundError("dataset", id));
  }
}
