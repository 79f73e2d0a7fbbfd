/**
 * The API refused a request or could not be reached: the user's to fix (a wrong URL or key, a bad
 * scorer, a missing dataset), so `weft` prints `CODE: message` and exits 2.
 */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** Where the problem is (the API's UserError path), when it says. */
    readonly path: readonly string[] = [],
  ) {
    super(message);
  }
}
