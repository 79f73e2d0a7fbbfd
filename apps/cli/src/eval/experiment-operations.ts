import type { ExperimentSummary, Score } from "@weft/engine";

/** The GraphQL documents `weft eval` sends (apps/api/schema.graphql; docs/evaluations.md), and what they answer. */

const USER_ERRORS = "errors { code message path }";

export const IMPORT_WORKFLOW = `mutation ($document: JSON!) { importWorkflow(document: $document) { workflow { id name } ${USER_ERRORS} } }`;
export const DELETE_WORKFLOW = `mutation ($id: ID!) { deleteWorkflow(id: $id) { deletedWorkflowId ${USER_ERRORS} } }`;
export const CREATE_DATASET = `mutation ($input: CreateDatasetInput!) { createDataset(input: $input) { dataset { id } ${USER_ERRORS} } }`;
export const IMPORT_DATASET_ROWS = `mutation ($id: ID!, $format: DatasetFormat!, $text: String!) {
  importDatasetRows(datasetId: $id, format: $format, text: $text) { added ${USER_ERRORS} }
}`;
export const DELETE_DATASET = `mutation ($id: ID!) { deleteDataset(id: $id) { id ${USER_ERRORS} } }`;
export const START_EXPERIMENT = `mutation ($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } ${USER_ERRORS} } }`;
export const CANCEL_EXPERIMENT = `mutation ($id: ID!) { cancelExperiment(id: $id) { experiment { status } ${USER_ERRORS} } }`;

export const EXPERIMENT_PROGRESS = `query ($id: ID!) { experiment(id: $id) { status summary { rows completed failed } } }`;

export const EXPERIMENT_SUMMARY = `query ($id: ID!) {
  experiment(id: $id) {
    id workflowId version draft datasetId status error
    summary { rows completed failed scores { scorer mean passRate } latencyP50Ms latencyP95Ms tokens costUsd }
  }
}`;

/** Every row's verdict without its output or expected value: a page stays small however large those are. */
export const EXPERIMENT_VERDICTS = `query ($id: ID!, $after: String) {
  experiment(id: $id) {
    results(first: 500, after: $after) {
      pageInfo { hasNextPage endCursor }
      edges { cursor node { position completed scores { scorer pass } } }
    }
  }
}`;

/** A few rows in full, output and expected value included (each may be about a MiB). */
export const EXPERIMENT_RESULTS = `query ($id: ID!, $after: String, $first: Int!) {
  experiment(id: $id) {
    results(first: $first, after: $after) {
      edges { node { position rowId runId completed error output expected scores { scorer score pass reason } } }
    }
  }
}`;

export type ExperimentStatus = "RUNNING" | "COMPLETED" | "CANCELLED" | "FAILED";

export interface ExperimentView {
  id: string;
  workflowId: string;
  version: number | null;
  draft: boolean;
  datasetId: string;
  status: ExperimentStatus;
  error: string | null;
  summary: ExperimentSummary;
}

export interface ResultRow {
  position: number;
  rowId: string;
  runId: string | null;
  completed: boolean;
  error: string | null;
  output: string | null;
  expected: unknown;
  scores: Score[];
}

export interface VerdictsPage {
  experiment: {
    results: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; edges: { cursor: string; node: Pick<ResultRow, "position" | "completed"> & { scores: Pick<Score, "scorer" | "pass">[] } }[] };
  } | null;
}

export interface ResultsPage {
  experiment: { results: { edges: { node: ResultRow }[] } } | null;
}
