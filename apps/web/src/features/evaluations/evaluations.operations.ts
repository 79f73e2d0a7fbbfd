import { graphql } from "@/gql";

/** A dataset as its list and its page show it. */
export const DatasetFields = graphql(`
  fragment DatasetFields on Dataset {
    id
    name
    description
    rowCount
    revision
    createdAt
    updatedAt
  }
`);

export const DatasetsQuery = graphql(`
  query Datasets($after: String) {
    datasets(first: 50, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          ...DatasetFields
        }
      }
    }
  }
`);

export const DatasetRowsQuery = graphql(`
  query DatasetRows($id: ID!, $first: Int!, $after: String) {
    serverInfo {
      limits {
        maxBodyBytes
      }
    }
    dataset(id: $id) {
      ...DatasetFields
      rows(first: $first, after: $after) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        edges {
          node {
            id
            position
            inputs {
              nodeId
              content
            }
            expected
            tags
          }
        }
      }
    }
  }
`);

export const CreateDatasetMutation = graphql(`
  mutation CreateDataset($input: CreateDatasetInput!) {
    createDataset(input: $input) {
      dataset {
        ...DatasetFields
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const ImportDatasetRowsMutation = graphql(`
  mutation ImportDatasetRows($datasetId: ID!, $format: DatasetFormat!, $text: String!) {
    importDatasetRows(datasetId: $datasetId, format: $format, text: $text) {
      added
      dataset {
        ...DatasetFields
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const DeleteDatasetMutation = graphql(`
  mutation DeleteDataset($id: ID!) {
    deleteDataset(id: $id) {
      id
      errors {
        ...UserErrorFields
      }
    }
  }
`);

/** An experiment's heading facts and its summary, as its page and the lists show them. */
export const ExperimentFields = graphql(`
  fragment ExperimentFields on Experiment {
    id
    workflowId
    datasetId
    datasetRevision
    version
    draft
    status
    concurrency
    scorers
    progress
    error
    createdAt
    finishedAt
    summary {
      ...ExperimentSummaryFields
    }
  }
`);

export const ExperimentSummaryFields = graphql(`
  fragment ExperimentSummaryFields on ExperimentSummary {
    rows
    completed
    failed
    scores {
      scorer
      mean
      passRate
    }
    latencyP50Ms
    latencyP95Ms
    tokens
    costUsd
  }
`);

/** The experiments page: the workflow's versions, its gate, its experiments and the datasets to pick from. */
export const WorkflowExperimentsQuery = graphql(`
  query WorkflowExperiments($workflowId: ID!, $after: String) {
    workflow(id: $workflowId) {
      id
      name
      publishedVersion {
        number
      }
      versions(first: 100) {
        edges {
          node {
            number
          }
        }
      }
      publishGate {
        datasetId
        scorers
        minMean
        noRegression
      }
    }
    experiments(workflowId: $workflowId, first: 50, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          ...ExperimentFields
        }
      }
    }
    datasets(first: 100) {
      edges {
        node {
          id
          name
          rowCount
        }
      }
    }
  }
`);

export const StartExperimentMutation = graphql(`
  mutation StartExperiment($input: StartExperimentInput!) {
    startExperiment(input: $input) {
      experiment {
        ...ExperimentFields
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const CancelExperimentMutation = graphql(`
  mutation CancelExperiment($id: ID!) {
    cancelExperiment(id: $id) {
      experiment {
        ...ExperimentFields
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const ExperimentQuery = graphql(`
  query Experiment($id: ID!, $first: Int!, $after: String) {
    experiment(id: $id) {
      ...ExperimentFields
      results(first: $first, after: $after) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        edges {
          node {
            rowId
            position
            runId
            completed
            output
            expected
            error
            latencyMs
            tokens
            scores {
              scorer
              score
              pass
              reason
            }
          }
        }
      }
    }
  }
`);

export const ExperimentProgressSubscription = graphql(`
  subscription ExperimentProgress($id: ID!) {
    experimentProgress(id: $id) {
      experimentId
      status
      rows
      completed
      failed
    }
  }
`);

/** One side of a comparison: what ran, and the first rows' outputs to read beside the scores. */
export const ComparedExperimentFields = graphql(`
  fragment ComparedExperimentFields on Experiment {
    id
    workflowId
    datasetId
    version
    draft
    status
    createdAt
    results(first: 100) {
      edges {
        node {
          rowId
          position
          output
          expected
          error
        }
      }
    }
  }
`);

export const CompareExperimentsQuery = graphql(`
  query CompareExperiments($a: ID!, $b: ID!) {
    compareExperiments(a: $a, b: $b) {
      a {
        ...ComparedExperimentFields
      }
      b {
        ...ComparedExperimentFields
      }
      regressions
      improvements
      summaryA {
        ...ExperimentSummaryFields
      }
      summaryB {
        ...ExperimentSummaryFields
      }
      rows {
        rowId
        delta
        regressed
        improved
        scoresA {
          scorer
          score
          pass
          reason
        }
        scoresB {
          scorer
          score
          pass
          reason
        }
      }
    }
  }
`);

export const SetPublishGateMutation = graphql(`
  mutation SetPublishGate($workflowId: ID!, $gate: PublishGateInput) {
    setPublishGate(workflowId: $workflowId, gate: $gate) {
      publishGate {
        datasetId
        scorers
        minMean
        noRegression
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);
