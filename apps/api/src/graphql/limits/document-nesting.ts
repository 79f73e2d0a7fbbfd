import { GraphQLError, Lexer, Source, TokenKind } from "graphql";

export interface DocumentNestingLimits {
  /** WEFT_MAX_VALUE_DEPTH: lists and objects written as argument values. */
  maxValueDepth: number;
  /** Selection sets inside one another: generous, the real depth limit is checked after parsing. */
  maxSelectionNesting: number;
}

/**
 * How far past WEFT_MAX_QUERY_DEPTH selection sets may nest before the document is refused unparsed.
 * Fragments and introspection are not counted by the depth limit (query-depth.ts), so a legitimate
 * document nests its braces a little deeper than its depth; this leaves room for that.
 */
export const SELECTION_NESTING_SLACK = 64;

const OPENING = new Set<string>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSING = new Set<string>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/**
 * graphql-js parses documents by recursive descent: a literal nested 5,000 levels deep
 * (`importWorkflow(document: [[[…]]])`) or 5,000 nested selection sets overflow its stack. This reads
 * the document's tokens with graphql-js's own lexer (a loop) and refuses it before parsing when values
 * inside an argument list nest deeper than WEFT_MAX_VALUE_DEPTH (VALUE_TOO_DEEP, the limit of JSON
 * arguments) or selection sets nest past `maxSelectionNesting` (QUERY_TOO_DEEP). A document the lexer
 * rejects is left for the parser to report.
 */
export function checkDocumentNesting(query: string, limits: DocumentNestingLimits): GraphQLError | null {
  const lexer = new Lexer(new Source(query));
  const open: Bracket[] = [];
  let values = 0;
  let selections = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (OPENING.has(token.kind)) {
        const parent = open.at(-1);
        const bracket: Bracket = token.kind === TokenKind.PAREN_L ? "arguments" : parent === "arguments" || parent === "value" ? "value" : "selection";
        open.push(bracket);
        if (bracket === "value" && ++values > limits.maxValueDepth) return valueTooDeep(limits.maxValueDepth);
        if (bracket === "selection" && ++selections > limits.maxSelectionNesting) return selectionsTooDeep(limits.maxSelectionNesting);
      } else if (CLOSING.has(token.kind)) {
        const closed = open.pop();
        if (closed === "value") values -= 1;
        else if (closed === "selection") selections -= 1;
      }
    }
  } catch {
    // Not even a sequence of tokens: the parser says why.
    return null;
  }
  return null;
}

/** What an open bracket started: an argument list, a value inside one (list, object), or a selection set. */
type Bracket = "arguments" | "value" | "selection";

function valueTooDeep(maxValueDepth: number): GraphQLError {
  return new GraphQLError(`an argument value in the document is nested deeper than ${maxValueDepth} levels (WEFT_MAX_VALUE_DEPTH)`, {
    extensions: { code: "VALUE_TOO_DEEP", maxValueDepth, http: { status: 400 } },
  });
}

function selectionsTooDeep(maxNesting: number): GraphQLError {
  return new GraphQLError(`selection sets in the document are nested deeper than ${maxNesting} levels`, {
    extensions: { code: "QUERY_TOO_DEEP", maxNesting, http: { status: 400 } },
  });
}
