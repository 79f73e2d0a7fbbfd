/** Exit codes of the command line; documented in docs/cli.md. */
export const EXIT = {
  OK: 0,
  /** validate: the workflow breaks connection rules. run: the run failed. eval: a scorer is below its minimum. */
  FAILED: 1,
  /** The file is unreadable, malformed or (for run) invalid; the command line or environment is wrong; the API refused (eval). */
  BAD_INPUT: 2,
  /** run: the run waits for a person (a `human` node's task) that neither `--answers` nor the terminal answered. */
  WAITING: 3,
  /** run: cancelled by SIGINT (128 + 2, as shells report it). */
  INTERRUPTED: 130,
  /** An unexpected error: a bug, reported with its stack on stderr (EX_SOFTWARE). */
  INTERNAL: 70,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
