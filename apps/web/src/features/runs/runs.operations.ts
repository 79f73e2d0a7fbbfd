import { graphql } from "@/gql";

export const RunsQuery = graphql(`
  query Runs($first: Int, $after: String, $workflowId: ID, $status: [RunStatus!], $createdAfter: DateTimeISO, $createdBefore: DateTimeISO) {
    runs(first: $first, after: $after, workflowId: $workflowId, status: $status, createdAfter: $createdAfter, createdBefore: $createdBefore) {
      edges {
        cursor
        node {
          id
          workflowId
          workflowName
          status
          createdAt
          startedAt
          finishedAt
          durationMs
          totalTokens
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
      totalCount
    }
  }
`);

export const RunFilterWorkflowsQuery = graphql(`
  query RunFilterWorkflows {
    workflows(first: 100) {
      edges {
        node {
          id
          name
        }
      }
    }
  }
`);

export const RunStatusChangedSubscription = graphql(`
  subscription RunStatusChanged {
    runStatusChanged {
      runId
      workflowId
      status
      at
    }
  }
`);

export const RunDetailQuery = graphql(`
  query RunDetail($id: ID!) {
    run(id: $id) {
      id
      workflowId
      status
      snapshot
      result
      error {
        code
        message
      }
      promptTokens
      completionTokens
      totalTokens
      lastSeq
      createdAt
      startedAt
      finishedAt
      durationMs
      nodeRuns {
        nodeId
        nodeType
        status
        inputs
        renderedPrompt
        context
        store
        rawReply
        description
        output
        error {
          code
          message
        }
        provider
        model
        promptTokens
        completionTokens
        totalTokens
        retries
        startedAt
        finishedAt
        durationMs
      }
      events {
        seq
        type
        at
        nodeId
        payload
      }
    }
  }
`);

export const RunEventsSubscription = graphql(`
  subscription RunEvents($runId: ID!, $afterSeq: Int!) {
    runEvents(runId: $runId, afterSeq: $afterSeq) {
      seq
      type
      at
      nodeId
      payload
    }
  }
`);

export const CancelRunMutation = graphql(`
  mutation CancelRun($id: ID!) {
    cancelRun(id: $id) {
      run {
        id
        status
      }
      errors {
        code
        message
      }
    }
  }
`);
