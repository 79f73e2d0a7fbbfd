import { graphql } from "@/gql";

export const WorkflowListQuery = graphql(`
  query WorkflowList($first: Int, $after: String, $search: String) {
    workflows(first: $first, after: $after, search: $search) {
      edges {
        cursor
        node {
          id
          name
          description
          updatedAt
          activeRunId
          publishedVersion {
            number
          }
          mcp {
            enabled
            toolName
          }
          nodes {
            id
          }
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

export const CreateWorkflowMutation = graphql(`
  mutation CreateWorkflow($input: CreateWorkflowInput!) {
    createWorkflow(input: $input) {
      workflow {
        id
        name
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const RenameWorkflowMutation = graphql(`
  mutation RenameWorkflow($id: ID!, $name: String!) {
    updateWorkflow(id: $id, input: { name: $name }) {
      workflow {
        id
        name
        updatedAt
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const DuplicateWorkflowMutation = graphql(`
  mutation DuplicateWorkflow($id: ID!) {
    duplicateWorkflow(id: $id) {
      workflow {
        id
        name
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const DeleteWorkflowMutation = graphql(`
  mutation DeleteWorkflow($id: ID!) {
    deleteWorkflow(id: $id) {
      deletedWorkflowId
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const ImportWorkflowMutation = graphql(`
  mutation ImportWorkflow($document: JSON!) {
    importWorkflow(document: $document) {
      workflow {
        id
        name
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const ExportWorkflowQuery = graphql(`
  query ExportWorkflow($id: ID!, $version: Int) {
    exportWorkflow(id: $id, version: $version)
  }
`);

export const WorkflowTemplatesQuery = graphql(`
  query WorkflowTemplates {
    workflowTemplates {
      id
      name
      description
      format
      nodeCount
      knowledgeBases
    }
  }
`);

export const CreateFromTemplateMutation = graphql(`
  mutation CreateWorkflowFromTemplate($templateId: ID!) {
    createWorkflowFromTemplate(templateId: $templateId) {
      workflow {
        id
        name
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);
