import { graphql } from "@/gql";

export const RunsQuery = graphql(`
  query Runs($first: Int, $after: String, $workflowId: ID, $status: [RunStatus!], $version: Int, $draft: Boolean, $createdAfter: DateTimeISO, $createdBefore: DateTimeISO, $triggerId: ID) {
    runs(first: $first, after: $after, workflowId: $workflowId, status: $status, version: $version, draft: $draft, createdAfter: $createdAfter, createdBefore: $createdBefore, triggerId: $triggerId) {
      edges {
        cursor
        node {
          id
          workflowId
          workflowName
          version
          draft
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

/** Run status changes, of every workflow or of one: the run list and the editor's lock follow it. */
export const RunStatusChangedSubscription = graphql(`
  subscription RunStatusChanged($workflowId: ID) {
    runStatusChanged(workflowId: $workflowId) {
      runId
      workflowId
      draft
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
      workflowName
      version
      draft
      rerunOf {
        id
      }
      state
      nodes {
        id
        type
        provider
        model
        ports
        position {
          x
          y
        }
      }
      edges {
        id
        source
        target
        sourcePort
        loop
      }
      result
      error {
        code
        message
      }
      promptTokens
      completionTokens
      totalTokens
      costUsd
      lastSeq
      createdAt
      startedAt
      finishedAt
      durationMs
      nodeRuns {
        nodeId
        invocation
        nodeType
        status
        value
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
        costUsd
        retries
        startedAt
        finishedAt
        durationMs
      }
    }
    models {
      id
      models {
        id
        inputUsdPerMTok
        outputUsdPerMTok
      }
    }
  }
`);

/** What the live views read of a run event: each kind's own fields (`__typename` says which kind). */
export const RunEventFields = graphql(`
  fragment RunEventFields on RunEvent {
    __typename
    seq
    type
    at
    nodeId
    ... on NodeEvent {
      invocation
    }
    ... on RunStartedEvent {
      nodeIds
    }
    ... on RunResumedEvent {
      attempt
    }
    ... on NodeTokenEvent {
      text
    }
    ... on NodeDescriptionEvent {
      description
    }
    ... on NodeCompletedEvent {
      description
      output
      value
    }
    ... on NodeFailedEvent {
      error {
        code
        message
      }
    }
    ... on NodeSkippedEvent {
      reason
    }
    ... on WarningEvent {
      code
      message
      invocation
    }
    ... on BranchTakenEvent {
      ports
      skipped
    }
    ... on LoopIterationEvent {
      invocation
      loopId
      iteration
      max
      feedback
    }
    ... on LoopExhaustedEvent {
      loopId
      max
      exit
    }
    ... on MapStartedEvent {
      items
    }
    ... on MapItemCompletedEvent {
      index
    }
    ... on CacheHitEvent {
      similarity
    }
    ... on AgentStepEvent {
      step
      text
      finishReason
      usage {
        promptTokens
        completionTokens
        totalTokens
      }
      calls {
        callId
        tool
        arguments
      }
    }
    ... on ToolCalledEvent {
      callId
      tool
      arguments
    }
    ... on ToolResultEvent {
      callId
      tool
      ok
      summary
    }
    ... on RunCompletedEvent {
      result
    }
    ... on RunFailedEvent {
      error {
        code
        message
      }
    }
    ... on RunCancelledEvent {
      reason
    }
  }
`);

/** The one run-event stream, for the editor's results pane and the run pages alike. */
export const RunEventsSubscription = graphql(`
  subscription RunEvents($runId: ID!, $afterSeq: Int!) {
    runEvents(runId: $runId, afterSeq: $afterSeq) {
      ...RunEventFields
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
        ...UserErrorFields
      }
    }
  }
`);

/** A new run of what a run executed: its published version (or the draft as it is now), same request. */
export const RerunRunMutation = graphql(`
  mutation RerunRun($id: ID!) {
    rerunRun(id: $id) {
      run {
        id
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);
