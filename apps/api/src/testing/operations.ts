import { graphql } from "./gql/index.js";

/** Operations shared by the integration tests; typed by codegen (codegen.ts, output apps/api/src/testing/gql/). */

export const RunFields = graphql(`
  fragment RunFields on Run {
    id
    workflowId
    version
    draft
    status
    result
    error { code message }
    lastSeq
    totalTokens
    startedAt
    finishedAt
  }
`);

export const RunWorkflow = graphql(`
  mutation RunWorkflow($workflowId: ID!, $input: RunWorkflowInput) {
    runWorkflow(workflowId: $workflowId, input: $input) {
      run { ...RunFields }
      errors { code message nodeIds edgeIds path }
    }
  }
`);

export const CancelRun = graphql(`
  mutation CancelRun($id: ID!) {
    cancelRun(id: $id) {
      run { ...RunFields }
      errors { code message path }
    }
  }
`);

export const RunDetail = graphql(`
  query RunDetail($id: ID!) {
    run(id: $id) {
      ...RunFields
      nodeRuns { nodeId nodeType status output description error { code message } retries totalTokens inputs }
      nodes { id type provider model }
      edges { id source target order }
      events { seq type nodeId nodeIds output description reason code error { code message } }
    }
  }
`);

export const Runs = graphql(`
  query Runs($first: Int, $after: String, $workflowId: ID, $status: [RunStatus!], $createdAfter: DateTimeISO, $createdBefore: DateTimeISO) {
    runs(first: $first, after: $after, workflowId: $workflowId, status: $status, createdAfter: $createdAfter, createdBefore: $createdBefore) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { cursor node { id status workflowId workflowName } }
    }
  }
`);

export const RunEvents = graphql(`
  subscription RunEvents($runId: ID!, $afterSeq: Int!) {
    runEvents(runId: $runId, afterSeq: $afterSeq) { runId seq type nodeId output description text attempt error { code message } }
  }
`);

export const RunStatusChanged = graphql(`
  subscription RunStatusChanged($workflowId: ID) {
    runStatusChanged(workflowId: $workflowId) { runId workflowId version draft status }
  }
`);

export const AddNode = graphql(`
  mutation AddNode($workflowId: ID!, $input: AddNodeInput!) {
    addNode(workflowId: $workflowId, input: $input) {
      errors { code message }
    }
  }
`);

export const CreateApiKey = graphql(`
  mutation CreateApiKey($input: CreateApiKeyInput!) {
    createApiKey(input: $input) {
      key
      apiKey { id name prefix scopes revokedAt }
      errors { code message path }
    }
  }
`);

export const RevokeApiKey = graphql(`
  mutation RevokeApiKey($id: ID!) {
    revokeApiKey(id: $id) {
      apiKey { id revokedAt }
      errors { code message }
    }
  }
`);

export const ApiKeys = graphql(`
  query ApiKeys($includeRevoked: Boolean!) {
    apiKeys(includeRevoked: $includeRevoked) { id name prefix scopes revokedAt lastUsedAt }
  }
`);

export const ServerInfo = graphql(`
  query ServerInfo {
    serverInfo { version authRequired databaseMode limits { maxQueryDepth maxQueryComplexity maxBodyBytes maxPageSize } }
  }
`);

export const DeepRuns = graphql(`
  query DeepRuns($first: Int) {
    runs(first: $first) { edges { node { id nodeRuns { nodeId error { code } } } } }
  }
`);

export const DeleteRun = graphql(`
  mutation DeleteRun($id: ID!) {
    deleteRun(id: $id) {
      deletedRunId
      errors { code message path }
    }
  }
`);

/** A workflow offered at /mcp (SPEC-V3 §3), and publishing it: the MCP server tests. */
export const SetWorkflowMcp = graphql(`
  mutation McpSetWorkflowMcp($workflowId: ID!, $input: WorkflowMcpInput!) {
    setWorkflowMcp(workflowId: $workflowId, input: $input) { mcp { enabled toolName description } errors { code message path } }
  }
`);

export const McpPublish = graphql(`
  mutation McpPublish($id: ID!) { publishWorkflow(id: $id) { version { number } errors { code message } } }
`);
