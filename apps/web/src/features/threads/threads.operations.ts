import { graphql } from "@/gql";

export const WorkflowThreadsQuery = graphql(`
  query WorkflowThreads($workflowId: ID!, $first: Int, $after: String) {
    workflow(id: $workflowId) {
      id
      name
    }
    threads(workflowId: $workflowId, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          busy
          lastSeq
          createdAt
          updatedAt
          # Its first message (the first question) is its title.
          messages(first: 1) {
            edges {
              node {
                content
              }
            }
          }
        }
      }
    }
  }
`);

/** The workflow's input nodes (where a turn's text goes) and its name, for a conversation page. */
export const ConversationWorkflowQuery = graphql(`
  query ConversationWorkflow($workflowId: ID!) {
    workflow(id: $workflowId) {
      id
      name
      nodes {
        id
        type
        content
      }
    }
  }
`);

export const ThreadQuery = graphql(`
  query Thread($id: ID!) {
    thread(id: $id) {
      id
      workflowId
      busy
      lastSeq
      state
      createdAt
      updatedAt
      runs(first: 1) {
        edges {
          node {
            id
            status
          }
        }
      }
      messages(first: 100) {
        totalCount
        edges {
          node {
            seq
            role
            content
            runId
            createdAt
          }
        }
      }
    }
  }
`);

/** One turn: a run of the workflow on the thread (a new thread when none is given), with the turn's text. */
export const SendTurnMutation = graphql(`
  mutation SendTurn($workflowId: ID!, $input: RunWorkflowInput) {
    runWorkflow(workflowId: $workflowId, input: $input) {
      run {
        id
        threadId
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const DeleteThreadMutation = graphql(`
  mutation DeleteThread($id: ID!) {
    deleteThread(id: $id) {
      id
      errors {
        ...UserErrorFields
      }
    }
  }
`);
