import { WeftError } from "@weft/engine";
import { AppError } from "./app-error.js";

/**
 * Runs work that reaches a store or an embedder: their failures (WeftErrors) reach clients as GraphQL
 * errors with their own code (operational errors), instead of being masked as internal ones.
 */
export async function operational<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toAppError(error);
  }
}

export function operationalSync<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw toAppError(error);
  }
}

function toAppError(error: unknown): unknown {
  if (!(error instanceof WeftError)) return error;
  return new AppError(error.code, error.message, { audience: error.audience, cause: error });
}
