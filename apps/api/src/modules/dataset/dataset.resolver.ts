import { Arg, Args, Authorized, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from "type-graphql";
import type { GraphQLContext } from "../../graphql/context.js";
import { PaginationArgs, type Page } from "../common/pagination.js";
import { CreateDatasetInput, DatasetRowInput } from "./dataset.input.js";
import type { DatasetService } from "./dataset.service.js";
import { AddDatasetRowsPayload, DatasetConnection, DatasetFormatEnum, DatasetObject, DatasetPayload, DatasetRowConnection, DeleteDatasetPayload, type DatasetFormat, type DatasetRowObject } from "./dataset.type.js";

type DatasetContext = GraphQLContext<{ datasets: DatasetService }>;

@Resolver(() => DatasetObject)
export class DatasetResolver {
  @Authorized("read")
  @Query(() => DatasetConnection, { description: "Datasets, newest first." })
  datasets(@Args(() => PaginationArgs) args: PaginationArgs, @Ctx() context: DatasetContext): Promise<Page<DatasetObject>> {
    return context.services.datasets.list(args);
  }

  @Authorized("read")
  @Query(() => DatasetObject, { nullable: true })
  dataset(@Arg("id", () => ID) id: string, @Ctx() context: DatasetContext): Promise<DatasetObject | null> {
    return context.services.datasets.get(id);
  }

  @Authorized("write")
  @Mutation(() => DatasetPayload)
  async createDataset(@Arg("input", () => CreateDatasetInput) input: CreateDatasetInput, @Ctx() context: DatasetContext): Promise<DatasetPayload> {
    const outcome = await context.services.datasets.create(input);
    return outcome.ok ? { dataset: outcome.value, errors: [] } : { dataset: null, errors: outcome.errors };
  }

  @Authorized("write")
  @Mutation(() => AddDatasetRowsPayload, { description: "Adds up to 10,000 rows; all of them or none." })
  async addDatasetRows(
    @Arg("datasetId", () => ID) datasetId: string,
    @Arg("rows", () => [DatasetRowInput]) rows: DatasetRowInput[],
    @Ctx() context: DatasetContext,
  ): Promise<AddDatasetRowsPayload> {
    const outcome = await context.services.datasets.addRows(datasetId, rows);
    return outcome.ok ? { ...outcome.value, errors: [] } : { dataset: null, added: 0, errors: outcome.errors };
  }

  @Authorized("write")
  @Mutation(() => AddDatasetRowsPayload, { description: "Adds the rows of a JSONL or CSV text (up to 10,000); all of them or none, with the bad lines' numbers." })
  async importDatasetRows(
    @Arg("datasetId", () => ID) datasetId: string,
    @Arg("format", () => DatasetFormatEnum) format: DatasetFormat,
    @Arg("text", () => String) text: string,
    @Ctx() context: DatasetContext,
  ): Promise<AddDatasetRowsPayload> {
    const outcome = await context.services.datasets.importRows(datasetId, format, text);
    return outcome.ok ? { ...outcome.value, errors: [] } : { dataset: null, added: 0, errors: outcome.errors };
  }

  @Authorized("write")
  @Mutation(() => DeleteDatasetPayload, { description: "Deletes a dataset, its rows and its experiments; refused (CONFLICT) while an experiment runs on it or a publish gate names it." })
  async deleteDataset(@Arg("id", () => ID) id: string, @Ctx() context: DatasetContext): Promise<DeleteDatasetPayload> {
    const outcome = await context.services.datasets.delete(id);
    return outcome.ok ? { id: outcome.value, errors: [] } : { id: null, errors: outcome.errors };
  }

  @FieldResolver(() => DatasetRowConnection, { description: "Rows in position order (first: 1..500, default 50)." })
  rows(@Root() dataset: DatasetObject, @Args(() => PaginationArgs) args: PaginationArgs, @Ctx() context: DatasetContext): Promise<Page<DatasetRowObject>> {
    return context.services.datasets.rows(dataset.id, args);
  }
}
