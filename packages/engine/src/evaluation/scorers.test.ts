import { describe, expect, it } from "vitest";
import { OfflineLlmProvider } from "../providers/offline-llm-provider.js";
import { ProviderError } from "../model/errors.js";
import type { JsonValue } from "../model/json-value.js";
import type { Embedder } from "../providers/retrieval.js";
import { FakeLlmProvider } from "../testing/fake-llm-provider.js";
import { readScorers, type ScorerSpec } from "./scorer-spec.js";
import { scoreCase } from "./score-case.js";
import type { ScoringContext } from "./scorers/scorer.js";

/** A deterministic embedder: letter counts, so texts with the same letters are identical and disjoint ones orthogonal. */
const letters: Embedder = {
  model: "letters",
  dimension: 26,
  async embed(texts) {
    return texts.map((text) => {
      const vector = new Array<number>(26).fill(0);
      for (const char of text.toLowerCase()) {
        const code = char.charCodeAt(0) - 97;
        if (code >= 0 && code < 26) vector[code] = (vector[code] ?? 0) + 1;
      }
      return vector;
    });
  },
};

function context(overrides: Partial<ScoringContext> = {}): ScoringContext {
  return {
    llm: new Map([["offline", new OfflineLlmProvider()]]),
    embedder: letters,
    signal: new AbortController().signal,
    maxValueDepth: 64,
    parseRepair: true,
    retry: { attempts: 3, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0 },
    sleep: async () => undefined,
    ...overrides,
  };
}

function scorers(value: unknown): ScorerSpec[] {
  const read = readScorers(value);
  if (!read.ok) throw new Error(JSON.stringify(read.issues));
  return read.scorers;
}

async function score(spec: Record<string, unknown>, output: string | null, expected: JsonValue, ctx = context()) {
  const [result] = (await scoreCase(scorers([{ id: "s", ...spec }]), { output, expected, inputs: [{ nodeId: "q", content: "What is the capital of France?" }] }, ctx)).scores;
  return result!;
}

describe("the exact scorer", () => {
  it("compares text as text, trimmed, case kept unless told", async () => {
    expect(await score({ type: "exact" }, " Paris\n", "Paris")).toMatchObject({ score: 1, pass: true, reason: "" });
    expect(await score({ type: "exact" }, "paris", "Paris")).toMatchObject({ score: 0, pass: false, reason: 'expected "Paris", got "paris"' });
    expect(await score({ type: "exact", ignoreCase: true }, "paris", "Paris")).toMatchObject({ score: 1, pass: true });
    expect(await score({ type: "exact", trim: false }, "Paris ", "Paris")).toMatchObject({ score: 0 });
  });

  it("compares JSON as JSON, keys in any order", async () => {
    expect(await score({ type: "exact" }, '{"b": [1, 2], "a": "x"}', { a: "x", b: [1, 2] })).toMatchObject({ score: 1, pass: true });
    expect(await score({ type: "exact" }, '{"a": "x", "b": [2, 1]}', { a: "x", b: [1, 2] })).toMatchObject({ score: 0 });
    expect(await score({ type: "exact" }, "42", 42)).toMatchObject({ score: 1 });
    expect(await score({ type: "exact" }, "forty-two", 42)).toMatchObject({ score: 0, reason: "the output is not JSON, and the expected value is JSON" });
  });

  it("fails a row that has no expected value, and a run that did not complete", async () => {
    expect(await score({ type: "exact" }, "Paris", null)).toMatchObject({ score: 0, reason: "the row has no expected value" });
    const [failed] = (await scoreCase(scorers([{ id: "s", type: "exact" }]), { output: null, expected: "Paris", inputs: [] }, context(), { code: "NODE_FAILED", message: "boom" })).scores;
    expect(failed).toEqual({ scorer: "s", score: 0, pass: false, reason: "the run did not complete (NODE_FAILED): boom" });
  });
});

describe("the contains scorer", () => {
  it("finds the expected text, or the scorer's own value, in the output", async () => {
    expect(await score({ type: "contains" }, "The capital is Paris.", "Paris")).toMatchObject({ score: 1, pass: true });
    expect(await score({ type: "contains" }, "The capital is Lyon.", "Paris")).toMatchObject({ score: 0, reason: '"Paris" is not in the output' });
    expect(await score({ type: "contains", ignoreCase: true }, "PARIS!", "paris")).toMatchObject({ score: 1 });
    expect(await score({ type: "contains", value: "capital" }, "The capital is Lyon.", "Paris")).toMatchObject({ score: 1 });
  });

  it("finds expected JSON inside the output's JSON", async () => {
    const output = JSON.stringify({ city: "Paris", facts: [{ river: "Seine", bridges: 37 }, { area: 105 }], extra: true });
    expect(await score({ type: "contains" }, output, { city: "Paris", facts: [{ river: "Seine" }] })).toMatchObject({ score: 1 });
    expect(await score({ type: "contains" }, output, { facts: [{ river: "Rhône" }] })).toMatchObject({ score: 0 });
  });

  it("stops after its comparison budget on a list of lists searched in another, with a score of 0 that says why", async () => {
    // Each of 2,000 expected items is found only near the end of 2,000: millions of comparisons.
    const output = JSON.stringify(Array.from({ length: 2_000 }, (_, k) => [k]));
    const expected = Array.from({ length: 2_000 }, (_, k) => [1_999 - k]).reverse().map(([k]) => [1_999 - k!]);
    expect(await score({ type: "contains" }, output, expected)).toMatchObject({ score: 0, reason: expect.stringContaining("too large to search") });
  });
});

describe("the regex scorer", () => {
  it("matches with the linear-time engine", async () => {
    expect(await score({ type: "regex", pattern: "^Paris\\b" }, "Paris, France", null)).toMatchObject({ score: 1, pass: true });
    expect(await score({ type: "regex", pattern: "^paris", ignoreCase: true }, "Paris", null)).toMatchObject({ score: 1 });
    expect(await score({ type: "regex", pattern: "^\\d+$" }, "12a", null)).toMatchObject({ score: 0, reason: "the output does not match /^\\d+$/" });
  });

  it("answers at once on a pattern V8's backtracking would need years for", async () => {
    expect(await score({ type: "regex", pattern: "^(a+)+$" }, `${"a".repeat(50_000)}!`, null)).toMatchObject({ score: 0 });
  });

  it("refuses what RE2 cannot take with PATTERN_INVALID and the field", () => {
    expect(readScorers([{ id: "r", type: "regex", pattern: "(?=x)" }])).toMatchObject({ ok: false, issues: [{ code: "PATTERN_INVALID", path: [0, "pattern"] }] });
  });
});

describe("the json_schema scorer", () => {
  const schema = { type: "object", properties: { city: { type: "string", pattern: "^[A-Z]" } }, required: ["city"] };

  it("passes JSON matching the schema and says what does not match", async () => {
    expect(await score({ type: "json_schema", schema }, '{"city": "Paris"}', null)).toMatchObject({ score: 1, pass: true });
    expect(await score({ type: "json_schema", schema }, '{"town": "Paris"}', null)).toMatchObject({ score: 0, reason: expect.stringContaining("city") });
    expect(await score({ type: "json_schema", schema }, "Paris", null)).toMatchObject({ score: 0, reason: "the output is not JSON" });
  });

  it("refuses a schema the validator cannot use, or with a pattern RE2 cannot take", () => {
    expect(readScorers([{ id: "j", type: "json_schema", schema: { type: "string", pattern: "(?<=a)b" } }])).toMatchObject({
      ok: false,
      issues: [{ code: "PATTERN_INVALID", path: [0, "schema.pattern"] }],
    });
    expect(readScorers([{ id: "j", type: "json_schema", schema: "string" }])).toMatchObject({ ok: false, issues: [{ code: "VALIDATION_FAILED", path: [0, "schema"] }] });
  });
});

describe("the similarity scorer", () => {
  it("scores the cosine of the configured embedder's vectors", async () => {
    expect(await score({ type: "similarity" }, "Paris", "sirap")).toMatchObject({ score: 1, pass: true });
    expect(await score({ type: "similarity", threshold: 0.5 }, "abc", "xyz")).toMatchObject({ score: 0, pass: false });
    const partial = await score({ type: "similarity", threshold: 0.5 }, "aab", "ab");
    expect(partial.score).toBeCloseTo(3 / Math.sqrt(10), 5);
    expect(partial.pass).toBe(true);
  });

  it("fails the score, not the experiment, without an embedder", async () => {
    expect(await score({ type: "similarity" }, "Paris", "Paris", context({ embedder: null }))).toMatchObject({ score: 0, reason: expect.stringContaining("EMBEDDER_UNAVAILABLE") });
  });
});

describe("the judge scorer (offline scripted model)", () => {
  const judge = (params: Record<string, unknown>) => ({ type: "judge", provider: "offline", model: "scripted", rubric: "Is it the capital, named plainly?", threshold: 0.7, params });

  it("grades with the rubric and the reply's score and reason", async () => {
    const params = {
      replies: [{ score: 0, reason: "not a capital" }],
      match: [{ pattern: "Output to grade:\\nParis", replies: [{ score: 0.9, reason: "names Paris" }] }],
    };
    expect(await score(judge(params), "Paris", "Paris")).toEqual({ scorer: "s", score: 0.9, pass: true, reason: "names Paris" });
    expect(await score(judge(params), "Lyon", "Paris")).toEqual({ scorer: "s", score: 0, pass: false, reason: "not a capital" });
  });

  it("asks once more when the reply is not the grade's JSON, as other schema replies", async () => {
    expect(await score(judge({ replies: ["I think it is fine", { score: 0.8, reason: "repaired" }] }), "Paris", "Paris")).toMatchObject({ score: 0.8, reason: "repaired" });
    expect(await score(judge({ replies: [{ score: 7, reason: "out of range" }, { score: 1, reason: "in range" }] }), "Paris", "Paris")).toMatchObject({ score: 1, reason: "in range" });
    expect(await score(judge({ replies: ["no", "still no"] }), "Paris", "Paris")).toMatchObject({ score: 0, pass: false, reason: expect.stringContaining("RESULT_PARSE_ERROR") });
  });

  it("does not repair when parse repair is off", async () => {
    const result = await score(judge({ replies: ["no", { score: 1, reason: "too late" }] }), "Paris", "Paris", context({ parseRepair: false }));
    expect(result).toMatchObject({ score: 0, reason: expect.stringContaining("RESULT_PARSE_ERROR") });
  });

  it("sends the rubric, the inputs, the reference and the output, and retries transient failures", async () => {
    let failures = 0;
    const provider = new FakeLlmProvider(() => {
      if (failures++ < 2) throw new ProviderError("PROVIDER_UNAVAILABLE", "down", { retryable: true });
      return JSON.stringify({ score: 1, reason: "ok" });
    }, "judge-host");
    const ctx = context({ llm: new Map([["judge-host", provider]]) });
    const outcome = await scoreCase(scorers([{ id: "j", type: "judge", provider: "judge-host", model: "m", rubric: "Be exact." }]), { output: "Paris", expected: "Paris", inputs: [{ nodeId: "q", content: "Capital of France?" }] }, ctx);
    expect(outcome.scores).toEqual([{ scorer: "j", score: 1, pass: true, reason: "ok" }]);
    expect(outcome.usage.totalTokens).toBe(3);
    const prompt = provider.calls.at(-1)!.request.prompt;
    expect(prompt).toContain("Be exact.");
    expect(prompt).toContain("[q]\nCapital of France?");
    expect(prompt).toContain("Reference answer:\nParis");
    expect(prompt).toContain("Output to grade:\nParis");
  });

  it("scores 0 with MODEL_UNAVAILABLE when the provider is not configured", async () => {
    expect(await score({ type: "judge", provider: "nowhere", model: "m", rubric: "r" }, "Paris", "Paris")).toMatchObject({ score: 0, reason: expect.stringContaining("MODEL_UNAVAILABLE") });
  });
});

describe("reading scorers", () => {
  it("reports every problem with its path: shapes, duplicate ids, thresholds, limits", () => {
    const read = readScorers([
      { id: "a", type: "exact" },
      { id: "a", type: "contains" },
      { id: "b", type: "regex" },
      { id: "c", type: "exact", threshold: 2 },
      { id: "d", type: "nope" },
      { id: "e", type: "judge", provider: "offline", model: "scripted", rubric: "r", params: { deep: { a: { b: { c: { d: { e: 1 } } } } } } },
    ]);
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.issues.map((issue) => [issue.code, issue.path.join(".")])).toEqual([
      ["VALIDATION_FAILED", "1.id"],
      ["VALIDATION_FAILED", "2.pattern"],
      ["VALIDATION_FAILED", "3.threshold"],
      ["VALIDATION_FAILED", "4.type"],
      ["LIMIT_EXCEEDED", "5.params.deep.a.b.c.d"],
    ]);
  });

  it("refuses an empty list and more than twenty scorers", () => {
    expect(readScorers([])).toMatchObject({ ok: false });
    expect(readScorers(Array.from({ length: 21 }, (_, index) => ({ id: `s${index}`, type: "exact" })))).toMatchObject({ ok: false, issues: [{ code: "LIMIT_EXCEEDED" }] });
  });
});
