import { graphql } from "@/gql";

/** What the UI decides from a node type: how it looks, whether it calls a model, which handles it has. */
export const NodeTypeFields = graphql(`
  fragment NodeTypeFields on NodeType {
    type
    label
    component
    profile
    usesModel
    inDegree {
      min
      max
    }
    outDegree {
      min
      max
    }
  }
`);

export const NodeTypesQuery = graphql(`
  query NodeTypes {
    nodeTypes {
      ...NodeTypeFields
    }
  }
`);
