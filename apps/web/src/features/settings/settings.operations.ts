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
      retrieval {
        vectorStore
        availableStores
        embedder {
          model
          dimension
        }
        topK {
          low
          medium
          high
        }
        hybridAlpha
        chunkSize
        chunkOverlap
        pgvectorEfSearch
      }
      execution {
        runConcurrency
        processConcurrency
        parseRepair
        providerTimeoutMs
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
