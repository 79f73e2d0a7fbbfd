import { graphql } from "@/gql";

/**
 * Every mutation's refusals, selected the same way everywhere: the code and message to show, the nodes
 * and edges to highlight, the input field at fault, and where in a node the problem is (its config field,
 * a CEL expression's character offset, the body a map or subgraph node holds).
 */
export const UserErrorFields = graphql(`
  fragment UserErrorFields on UserError {
    code
    message
    nodeIds
    edgeIds
    path
    field
    position
    bodyPath
  }
`);
