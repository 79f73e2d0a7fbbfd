import { graphql } from "@/gql";

export const ApiKeysQuery = graphql(`
  query ApiKeys($includeRevoked: Boolean!) {
    serverInfo {
      authRequired
    }
    apiKeys(includeRevoked: $includeRevoked) {
      id
      name
      prefix
      scopes
      createdAt
      lastUsedAt
      revokedAt
    }
  }
`);

export const CreateApiKeyMutation = graphql(`
  mutation CreateApiKey($input: CreateApiKeyInput!) {
    createApiKey(input: $input) {
      key
      apiKey {
        id
        name
        prefix
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const RevokeApiKeyMutation = graphql(`
  mutation RevokeApiKey($id: ID!) {
    revokeApiKey(id: $id) {
      apiKey {
        id
        revokedAt
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);
