import { graphql } from "@/gql";

/** One version as the version list shows it. */
export const VersionRowFields = graphql(`
  fragment VersionRowFields on WorkflowVersion {
    id
    number
    note
    contentHash
    editVersion
    publishedBy
    publishedAt
  }
`);

export const WorkflowVersionsQuery = graphql(`
  query WorkflowVersions($id: ID!, $first: Int, $after: String) {
    workflow(id: $id) {
      id
      name
      version
      publishedVersion {
        number
      }
      versions(first: $first, after: $after) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        edges {
          node {
            ...VersionRowFields
          }
        }
      }
    }
  }
`);

export const PublishWorkflowMutation = graphql(`
  mutation PublishWorkflow($id: ID!, $note: String) {
    publishWorkflow(id: $id, note: $note) {
      version {
        ...VersionRowFields
      }
      errors {
        ...UserErrorFields
        experimentIds
      }
    }
  }
`);

/** A run of one published version with the version's own settings and input contents. */
export const RunVersionMutation = graphql(`
  mutation RunVersion($workflowId: ID!, $version: Int!) {
    runWorkflow(workflowId: $workflowId, input: { version: $version }) {
      run {
        id
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);

/** A graph as the comparison canvas draws it (a version's or the draft's). */
export const DiffGraphNodeFields = graphql(`
  fragment DiffGraphNode on WorkflowNode {
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
`);

/** A published version's graph, for one side of a comparison. */
export const DiffVersionGraphFields = graphql(`
  fragment DiffVersionGraph on WorkflowVersion {
    number
    nodes {
      ...DiffGraphNode
    }
    edges {
      id
      source
      target
      sourcePort
      loop
    }
  }
`);

export const CompareVersionsQuery = graphql(`
  query CompareVersions($workflowId: ID!, $from: Int!, $to: Int, $toVersion: Int!, $withVersion: Boolean!) {
    compareWorkflowVersions(workflowId: $workflowId, from: $from, to: $to) {
      from
      to
      identical
      nodes {
        ...ItemChangesFields
      }
      edges {
        ...ItemChangesFields
      }
      settings {
        added {
          field
          from
          to
        }
        removed {
          field
          from
          to
        }
        changed {
          field
          from
          to
        }
      }
    }
    fromVersion: workflowVersion(workflowId: $workflowId, number: $from) {
      ...DiffVersionGraph
    }
    toVersion: workflowVersion(workflowId: $workflowId, number: $toVersion) @include(if: $withVersion) {
      ...DiffVersionGraph
    }
    workflow(id: $workflowId) {
      id
      name
      version
      nodes @skip(if: $withVersion) {
        ...DiffGraphNode
      }
      edges @skip(if: $withVersion) {
        id
        source
        target
        sourcePort
        loop
      }
    }
  }
`);

export const ItemChangesFields = graphql(`
  fragment ItemChangesFields on ItemChanges {
    added
    removed
    changed {
      id
      fields {
        field
        from
        to
      }
    }
  }
`);

/** Whether the draft still is the latest published version (the editor's "draft differs" note). */
export const DraftComparisonQuery = graphql(`
  query DraftComparison($workflowId: ID!, $from: Int!) {
    compareWorkflowVersions(workflowId: $workflowId, from: $from) {
      identical
    }
  }
`);
