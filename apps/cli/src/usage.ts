/** A wrong command line; main prints the message and the usage text and exits with 2. */
export class UsageError extends Error {
  readonly code = "USAGE";
}

export const USAGE = `Usage:
  weft validate FILE                      check a weft.workflow/v1 file against every connection rule
  weft run FILE [--input TEXT] [--json] [--thread FILE] [--knowledge-base NAME=DIR]... [--answers FILE]
                                          run a workflow file headless

Options of run:
  --input TEXT                content for every input node of the workflow (replaces the content in the file)
  --json                      print every run event as one JSON object per line on stdout
  --thread FILE               continue the conversation kept in FILE (created if missing): history nodes
                              read it, thread state channels persist, a completed run adds its turn
  --knowledge-base NAME=DIR   the knowledge base NAME is the Markdown and text files in DIR
                              (default: knowledge-bases/NAME/ beside the workflow file)
  --answers FILE              answers for the tasks of human nodes, in order: a JSON list of
                              {"nodeId", "action", "data"?, "comment"?} (without it, and when stdin is a
                              terminal, each task is asked there)

Exit codes: 0 valid / completed, 1 rule violations / run failed, 2 unreadable, malformed or invalid
file (or a wrong command line), 3 the run waits for a person nobody answered, 130 run cancelled by
Ctrl-C. See docs/cli.md.`;
