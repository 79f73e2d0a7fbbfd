import { gateTextLength } from "../limits/value-gate.js";

/**
 * Keeps a rendering within a node output's limit while it is built: each substitution is counted before
 * the next one is made, so `{input}` written 300 times over a 200 KB input stops after a few, instead
 * of building 60 MB first and refusing it after.
 */
export class RenderBudget {
  #length: number;

  constructor(
    templateLength: number,
    readonly maxLength = Infinity,
  ) {
    this.#length = templateLength;
  }

  /** The substitution for a placeholder of `placeholderLength` characters; OUTPUT_TOO_LARGE once the text would pass the limit. */
  take(substitution: string, placeholderLength: number): string {
    this.#length += substitution.length - placeholderLength;
    gateTextLength(this.#length, { maxNodeOutputBytes: this.maxLength }, "the rendered template");
    return substitution;
  }
}
