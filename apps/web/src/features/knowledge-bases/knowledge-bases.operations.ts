import { graphql } from "@/gql";

export const KnowledgeBasesQuery = graphql(`
  query KnowledgeBases($first: Int, $after: String) {
    knowledgeBases(first: $first, after: $after) {
      edges {
        node {
          id
          name
          description
          embeddingModel
          dimension
          store
          createdAt
          documentCount
          chunkCount
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

export const KnowledgeBaseQuery = graphql(`
  query KnowledgeBase($id: ID!) {
    knowledgeBase(id: $id) {
      id
      name
      description
      embeddingModel
      dimension
      store
      chunkSize
      chunkOverlap
      createdAt
      documentCount
      chunkCount
      documents(first: 100) {
        edges {
          cursor
          node {
            id
            title
            mimeType
            status
            error
            chunkCount
            length
            createdAt
          }
        }
        totalCount
      }
    }
  }
`);

/** One document's chunks by its id, a page at a time. */
export const DocumentChunksQuery = graphql(`
  query DocumentChunks($documentId: ID!, $first: Int, $after: String) {
    documentChunks(documentId: $documentId, first: $first, after: $after) {
      edges {
        node {
          id
          text
          source {
            chunkIndex
            page
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

export const CreateKnowledgeBaseMutation = graphql(`
  mutation CreateKnowledgeBase($input: CreateKnowledgeBaseInput!) {
    createKnowledgeBase(input: $input) {
      knowledgeBase {
        id
        name
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const DeleteKnowledgeBaseMutation = graphql(`
  mutation DeleteKnowledgeBase($id: ID!) {
    deleteKnowledgeBase(id: $id) {
      deletedKnowledgeBaseId
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const AddDocumentsMutation = graphql(`
  mutation AddDocuments($knowledgeBaseId: ID!, $documents: [DocumentInput!]!) {
    addDocuments(knowledgeBaseId: $knowledgeBaseId, documents: $documents) {
      documents {
        id
        title
        status
      }
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const RemoveDocumentMutation = graphql(`
  mutation RemoveDocument($documentId: ID!) {
    removeDocument(documentId: $documentId) {
      errors {
        ...UserErrorFields
      }
    }
  }
`);

export const SearchKnowledgeBaseQuery = graphql(`
  query SearchKnowledgeBase($input: SearchKnowledgeBaseInput!) {
    searchKnowledgeBase(input: $input) {
      store
      topK
      hits {
        chunkId
        text
        score
        label
      }
    }
  }
`);

export const IngestionProgressSubscription = graphql(`
  subscription KnowledgeBaseIngestionProgress($knowledgeBaseId: ID!) {
    ingestionProgress(knowledgeBaseId: $knowledgeBaseId) {
      documentId
      status
      error
      phase
      chunksDone
      chunksTotal
      pagesDone
      pagesTotal
    }
  }
`);
