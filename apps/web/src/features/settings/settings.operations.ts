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
        inputUsdPerMTok
        outputUsdPerMTok
      }
    }
  }
`);

/** Asked apart from the settings: listing a server's tools connects to it, which may take a while. */
export const McpServersQuery = graphql(`
  query McpServers {
    mcpServers {
      name
      transport
      target
      error
      tools {
        name
      }
    }
  }
`);
