import { graphql } from "@/gql";

/** Names and dates only: the API never returns a secret's value. */
export const SecretsQuery = graphql(`
  query Secrets {
    secrets {
      name
      createdAt
      updatedAt
    }
  }
`);

/** Creates a secret, or replaces the value of the secret of that name. */
export const CreateSecretMutation = graphql(`
  mutation CreateSecret($name: String!, $value: String!) {
    createSecret(name: $name, value: $value) {
      secret {
        name
        updatedAt
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const DeleteSecretMutation = graphql(`
  mutation DeleteSecret($name: String!) {
    deleteSecret(name: $name) {
      name
      errors {
        ...UserErrorFields
      }
    }
  }
`);
