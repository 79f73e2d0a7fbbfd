import { graphql } from "@/gql";

/**
 * Every mutation's refusals, selected the same way everywhere: the code and message to show, the nodes
 * and edges to highlight, and the input field at fault.
 */
export const UserErrorFields = graphql(`
  fragment UserErrorFields on UserError {
    code
    message
    nodeIds
    edgeIds
    path
  }
`);
