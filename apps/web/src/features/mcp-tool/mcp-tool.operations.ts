import { graphql } from "@/gql";

export const WorkflowMcpFields = graphql(`
  fragment WorkflowMcpFields on WorkflowMcp {
    enabled
    toolName
    description
  }
`);

export const WorkflowMcpToolQuery = graphql(`
  query WorkflowMcpTool($workflowId: ID!) {
    serverInfo { authRequired }
    workflow(id: $workflowId) {
      id
      name
      description
      publishedVersion { number }
      mcp { ...WorkflowMcpFields }
    }
  }
`);

export const SetWorkflowMcpMutation = graphql(`
  mutation SetWorkflowMcp($workflowId: ID!, $input: WorkflowMcpInput!) {
    setWorkflowMcp(workflowId: $workflowId, input: $input) {
      mcp { ...WorkflowMcpFields }
      errors { code message path }
    }
  }
`);
