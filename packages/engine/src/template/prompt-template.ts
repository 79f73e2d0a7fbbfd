import { RenderBudget } from "./render-budget.js";

/** The placeholders a model node's prompt may hold (seed 000, node execution 2-3 to 2-5). */
export const PROMPT_PLACEHOLDERS = ["input_data", "context", "output_format"] as const;
export type PromptPlaceholder = (typeof PROMPT_PLACEHOLDERS)[number];

export type PlaceholderValues = Record<PromptPlaceholder, string | null>;

export interface RenderedPrompt {
  text: string;
  /** Placeholders present in the template that had nothing to put in them, in order of first use. */
  emptyPlaceholders: PromptPlaceholder[];
}

const PLACEHOLDER_PATTERN = /\{(input_data|context|output_format)\}/g;

/**
 * Substitutes every placeholder in ONE pass over the template. Substituted text is never scanned
 * again, so an input that happens to contain `{output_format}` or `{context}` stays literal — the
 * seed's sequential replaces would have expanded it.
 */
export function renderPrompt(template: string, values: PlaceholderValues, maxLength = Infinity): RenderedPrompt {
  const empty = new Set<PromptPlaceholder>();
  const budget = new RenderBudget(template.length, maxLength);
  const text = template.replace(PLACEHOLDER_PATTERN, (match, name: PromptPlaceholder) => {
    const value = values[name];
    if (value === null || value === "") empty.add(name);
    return budget.take(value ?? "", match.length);
  });
  return { text, emptyPlaceholders: [...empty] };
}
