import type { UserError } from "./user-error.type.js";
import { failure, success, type Outcome } from "./outcome.js";

/** Thrown inside a transaction to roll it back and hand the user errors to the caller (withRefusals). */
class Refusal extends Error {
  constructor(readonly errors: UserError[]) {
    super("refused");
  }
}

/**
 * Stops the work of withRefusals (a transaction, usually): nothing it wrote is kept, and the caller gets
 * these errors as its Outcome. For refusals decided deep inside a transaction; elsewhere return failure(...).
 */
export function refuse(...errors: UserError[]): never {
  throw new Refusal(errors);
}

/** Runs work (a transaction) that may `refuse(...)`: its value, or the refusal's errors (and nothing written). */
export async function withRefusals<T>(work: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return success(await work());
  } catch (error) {
    if (error instanceof Refusal) return failure(...error.errors);
    throw error;
  }
}
