import { graphql } from "@/gql";

/** The node fields the canvas draws; shared by the workflow query and the node mutations. */
export const EditorNodeFields = graphql(`
  fragment EditorNodeFields on WorkflowNode {
    id
    type
    content
    provider
    model
    params
    prompt
    config
    ports
    position {
      x
      y
    }
  }
`);

/** An edge as the canvas draws it: its port and, for a loop edge, its loop. */
export const EditorEdgeFields = graphql(`
  fragment EditorEdgeFields on WorkflowEdge {
    id
    source
    target
    sourcePort
    loop
    order
  }
`);

/** The workflow's weft.workflow/v2 settings the rules and the panels read. */
export const EditorPipelineSettingsFields = graphql(`
  fragment EditorPipelineSettings on Workflow {
    loops {
      id
      max
      exit
    }
    state {
      name
      reducer
      key
      scope
    }
    limits {
      maxInvocations
      maxCostUsd
    }
  }
`);

export const EditorWorkflowQuery = graphql(`
  query EditorWorkflow($id: ID!) {
    workflow(id: $id) {
      id
      name
      description
      version
      prompts {
        generation
        ensemble
        validation
      }
      outputFormat
      knowledgeBase
      intensity
      activeRunId
      publishedVersion {
        number
      }
      ...EditorPipelineSettings
      nodes {
        ...EditorNodeFields
      }
      edges {
        ...EditorEdgeFields
      }
    }
  }
`);

export const EditorOptionsQuery = graphql(`
  query EditorOptions {
    models {
      id
      label
      models {
        id
        label
        testOnly
      }
    }
    knowledgeBases(first: 100) {
      edges {
        node {
          id
          name
        }
      }
    }
  }
`);

export const EditorAddNodeMutation = graphql(`
  mutation EditorAddNode($workflowId: ID!, $input: AddNodeInput!) {
    addNode(workflowId: $workflowId, input: $input) {
      workflow {
        id
        version
      }
      node {
        ...EditorNodeFields
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const EditorUpdateNodeMutation = graphql(`
  mutation EditorUpdateNode($workflowId: ID!, $nodeId: ID!, $input: UpdateNodeInput!) {
    updateNode(workflowId: $workflowId, nodeId: $nodeId, input: $input) {
      workflow {
        id
        version
      }
      node {
        ...EditorNodeFields
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const EditorMoveNodesMutation = graphql(`
  mutation EditorMoveNodes($workflowId: ID!, $moves: [NodeMoveInput!]!) {
    moveNodes(workflowId: $workflowId, moves: $moves) {
      workflow {
        id
        version
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const EditorRemoveNodeMutation = graphql(`
  mutation EditorRemoveNode($workflowId: ID!, $nodeId: ID!) {
    removeNode(workflowId: $workflowId, nodeId: $nodeId) {
      workflow {
        id
        version
      }
      removedNodeId
      removedEdgeIds
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const EditorAddEdgeMutation = graphql(`
  mutation EditorAddEdge($workflowId: ID!, $source: ID!, $target: ID!, $sourcePort: String, $loop: String, $declareLoop: LoopInput) {
    addEdge(workflowId: $workflowId, source: $source, target: $target, sourcePort: $sourcePort, loop: $loop, declareLoop: $declareLoop) {
      workflow {
        id
        version
        ...EditorPipelineSettings
      }
      edge {
        ...EditorEdgeFields
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const EditorRemoveEdgeMutation = graphql(`
  mutation EditorRemoveEdge($workflowId: ID!, $edgeId: ID!) {
    removeEdge(workflowId: $workflowId, edgeId: $edgeId) {
      workflow {
        id
        version
      }
      removedEdgeId
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const EditorUpdateWorkflowMutation = graphql(`
  mutation EditorUpdateWorkflow($id: ID!, $input: UpdateWorkflowInput!) {
    updateWorkflow(id: $id, input: $input) {
      workflow {
        id
        version
        updatedAt
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);

/** The workflow's loops, state channels or limits (each replaced as a whole), with what the rules read back. */
export const EditorUpdatePipelineSettingsMutation = graphql(`
  mutation EditorUpdatePipelineSettings($id: ID!, $input: UpdateWorkflowInput!) {
    updateWorkflow(id: $id, input: $input) {
      workflow {
        id
        version
        ...EditorPipelineSettings
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const EditorRunWorkflowMutation = graphql(`
  mutation EditorRunWorkflow($workflowId: ID!, $input: RunWorkflowInput) {
    runWorkflow(workflowId: $workflowId, input: $input) {
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

export const EditorValidateQuery = graphql(`
  query EditorValidate($id: ID!) {
    validateWorkflow(id: $id) {
      valid
      violations {
        ...UserErrorFields
      }
    }
  }
`);

export const EditorWorkflowChangedSubscription = graphql(`
  subscription EditorWorkflowChanged($workflowId: ID!) {
    workflowChanged(workflowId: $workflowId) {
      workflowId
      version
      deleted
    }
  }
`);
