import { graphql } from "@/gql";

export const TriggerFields = graphql(`
  fragment TriggerFields on Trigger {
    id
    kind
    enabled
    version
    url
    mode
    timeoutMs
    cron
    timezone
    overlap
    catchUp
    nextTickAt
    lastFiredAt
    inputs { nodeId from }
    firings(first: 10) { id status runId key error firedAt }
  }
`);

export const WorkflowTriggersQuery = graphql(`
  query WorkflowTriggers($workflowId: ID!) {
    workflow(id: $workflowId) { id name nodes { id type } }
    triggers(workflowId: $workflowId) { ...TriggerFields }
  }
`);

export const CreateWebhookTriggerMutation = graphql(`
  mutation CreateWebhookTrigger($workflowId: ID!, $input: CreateWebhookTriggerInput!) {
    createWebhookTrigger(workflowId: $workflowId, input: $input) {
      trigger { ...TriggerFields }
      url
      secret
      errors { code message path field }
    }
  }
`);

export const CreateScheduleTriggerMutation = graphql(`
  mutation CreateScheduleTrigger($workflowId: ID!, $input: CreateScheduleTriggerInput!) {
    createScheduleTrigger(workflowId: $workflowId, input: $input) {
      trigger { ...TriggerFields }
      errors { code message path field }
    }
  }
`);

export const SetTriggerEnabledMutation = graphql(`
  mutation SetTriggerEnabled($id: ID!, $enabled: Boolean!) {
    updateTrigger(id: $id, input: { enabled: $enabled }) { trigger { ...TriggerFields } errors { code message } }
  }
`);

export const SetTriggerInputsMutation = graphql(`
  mutation SetTriggerInputs($id: ID!, $inputs: [TriggerInputMapping!]!) {
    updateTrigger(id: $id, input: { inputs: $inputs }) { trigger { ...TriggerFields } errors { code message path field } }
  }
`);

export const DeleteTriggerMutation = graphql(`
  mutation DeleteTrigger($id: ID!) {
    deleteTrigger(id: $id) { id errors { code message } }
  }
`);
