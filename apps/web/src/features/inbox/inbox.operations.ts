import { graphql } from "@/gql";

export const HumanTasksQuery = graphql(`
  query HumanTasks($status: [HumanTaskStatus!], $assignee: String, $after: String) {
    humanTasks(status: $status, assignee: $assignee, first: 50, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          runId
          workflowId
          nodeId
          invocation
          title
          status
          assignee
          createdAt
          expiresAt
          action
          completedBy
        }
      }
    }
  }
`);

export const HumanTaskQuery = graphql(`
  query HumanTask($id: ID!) {
    humanTask(id: $id) {
      id
      runId
      workflowId
      nodeId
      invocation
      title
      instructions
      actions {
        id
        label
      }
      form
      input
      editable
      status
      assignee
      createdAt
      expiresAt
      completedAt
      completedBy
      action
      data
      comment
    }
  }
`);

export const CompleteHumanTaskMutation = graphql(`
  mutation CompleteHumanTask($id: ID!, $input: CompleteHumanTaskInput!) {
    completeHumanTask(id: $id, input: $input) {
      task {
        id
        status
        action
        data
        comment
        completedBy
        completedAt
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const HumanTasksChangedSubscription = graphql(`
  subscription HumanTasksChanged {
    humanTasksChanged {
      id
      status
    }
  }
`);
