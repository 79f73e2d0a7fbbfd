/** A wrong command line; main prints the message and the usage text and exits with 2. */
export class UsageError extends Error {
  readonly code = "USAGE";
}

export const USAGE = `Usage:
  weft validate FILE                      check a weft.workflow/v1 file against every connection rule
  weft run FILE [--input TEXT] [--json] [--thread FILE] [--knowledge-base NAME=DIR]... [--answers FILE]
                                          run a workflow file headless
  weft eval WORKFLOW --dataset DATASET (--scorer SPEC)... [--scorers FILE] [--version N | --draft]
            [--min [SCORER=]RATE]... [--concurrency N] [--json] [--keep]
                                          run an experiment on the Weft API at WEFT_API_URL

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

Options of eval (docs/cli.md#evaluations):
  WORKFLOW                    a workflow's id on the server, or a workflow file (imported, its draft run)
  --dataset DATASET           a dataset's id, or a .jsonl / .csv file (imported into a new dataset)
  --scorer SPEC               a scorer type (exact, contains, …) or a scorer's JSON object; repeatable
  --scorers FILE              a JSON list of scorers
  --version N | --draft       which content of a server workflow to run (one of them is required)
  --min [SCORER=]RATE         the share of rows that must pass (0.9 or 90%), for SCORER or every scorer
  --concurrency N             rows running at once, 1..20 (default 4)
  --json                      print the summary as one JSON object
  --keep                      keep the workflow and dataset imported from files (default: deleted)

Exit codes: 0 valid / completed, 1 rule violations / run failed, 2 unreadable, malformed or invalid
file (or a wrong command line), 3 the run waits for a person nobody answered, 130 run cancelled by
Ctrl-C. eval: 0 every minimum met, 1 a scorer below its minimum, 2 a wrong command line, an API refusal
or an experiment that did not complete. See docs/cli.md.`;
