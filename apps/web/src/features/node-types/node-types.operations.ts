import { graphql } from "@/gql";

/** What the UI decides from a node type: how it looks, whether it calls a model, its ports, its config form. */
export const NodeTypeFields = graphql(`
  fragment NodeTypeFields on NodeType {
    type
    label
    description
    component
    profile
    usesModel
    attributes
    ports
    portsField
    router
    composite
    defaultConfig
    fields {
      name
      kind
      description
      required
      default
      enumValues
      minimum
      maximum
      maxLength
      schema
    }
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
