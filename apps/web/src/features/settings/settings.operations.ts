import { graphql } from "@/gql";

export const SettingsQuery = graphql(`
  query Settings {
    serverInfo {
      version
      authRequired
      databaseMode
      limits {
        maxQueryDepth
        maxQueryComplexity
        maxBodyBytes
        maxPageSize
      }
    }
    models {
      id
      label
      models {
        id
        label
        testOnly
      }
    }
  }
`);
