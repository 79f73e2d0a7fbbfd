import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runTemplate, sharedProviders, type TemplateRun } from "../testing/template-run.js";

/**
 * examples/seed-004-codeweaver.json (seed 004), offline:
 *
 *  user_question ─► history ─► create_plan ─► route_plan ─[too_many]─► handle_too_many_questions ─────────────┐
 *                                                └─[default]─► run_single_question_worker (map, 1–2 questions)  │
 *  worker: analyze_question ─► route_after_analysis ─[clarification]─► generate_with_history ─────► worker_answer
 *            └─[default]─► check_cache ─[hit]─► return_cached_answer ────────────────────────────► worker_answer
 *                             └─[miss]─► classify_intent ─┬► search_stackoverflow ─┐
 *                                          ▲              ├► search_github ────────┼─► collect_results ─► evaluate_results
 *                                          │              └► search_official_docs ─┘                        │
 *                                          └── search_again ◄─ refine_search ◄─[refine, once]────────────────┤
 *                                                                    search_subgraph ◄─[default]──────────────┘
 *            search_subgraph (rerank ─► map summarize) ─► generate_answer ─► cache_store ─► worker_answer
 *  run_single_question_worker ─► route_after_generate ─[multi]─► combine_answers ─┐
 *                                                      └─[default]─► single_answer ┴─► final ─► final_answer
 */
const TEMPLATE = "seed-004-codeweaver.json";
const SEARCHES = ["search_stackoverflow", "search_github", "search_official_docs"];
const TWO_QUESTIONS = "How do I limit concurrent requests in asyncio? And how should I retry HTTP 429?";

/** Items of the outer map (the summarize maps inside the workers start maps of their own). */
const workers = (run: TemplateRun) => run.of("MAP_STARTED").filter((event) => event.nodeId === "run_single_question_worker").map((event) => event.items);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "weft-seed-004-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the seed 004 template (CodeWeaver)", () => {
  it("runs one question through one worker: a cache miss, three searches in parallel, enough results, a stored answer", async () => {
    const run = await runTemplate(TEMPLATE);
    expect(run.outcome.status).toBe("COMPLETED");
    expect(run.took("route_plan")).toEqual([["default"]]);
    expect(workers(run)).toEqual([1]);
    expect(run.took("check_cache")).toEqual([["miss"]]);
    expect(SEARCHES.map((id) => run.started(id))).toEqual([["run_single_question_worker[0]"], ["run_single_question_worker[0]"], ["run_single_question_worker[0]"]]);
    expect(run.took("evaluate_results")).toEqual([["default"]]);
    expect(run.of("LOOP_ITERATION")).toEqual([]);
    expect(run.started("summarize").length).toBeGreaterThanOrEqual(2);
    expect(run.started("cache_store")).toEqual(["run_single_question_worker[0]"]);
    expect(run.took("route_after_generate")).toEqual([["default"]]);
    expect(run.outcome.result).toContain("asyncio.Semaphore");
  });

  it("fans two questions out to two workers, refines the search once for the one with too few results, and combines the answers", async () => {
    const run = await runTemplate(TEMPLATE, { input: TWO_QUESTIONS });
    expect(run.outcome.state?.plan).toMatchObject({ case: "multiple_questions" });
    expect(workers(run)).toEqual([2]);
    expect(run.of("LOOP_ITERATION").map((event) => [event.loopId, event.iteration, event.invocation])).toEqual([["refine", 2, "run_single_question_worker[1]/refine#2"]]);
    expect(run.started("refine_search")).toEqual(["run_single_question_worker[1]"]);
    expect(run.started("search_github").sort()).toEqual(["run_single_question_worker[0]", "run_single_question_worker[1]", "run_single_question_worker[1]/refine#2"]);
    expect(run.took("route_after_generate")).toEqual([["multi"]]);
    expect(run.outcome.result).toMatch(/^### 1\. How do I limit how many requests asyncio sends at once\?[\s\S]*### 2\. How should I retry when an API answers HTTP 429\?[\s\S]*Retry-After/);
  });

  it("refines a search at most once, then answers from what it found", async () => {
    const run = await runTemplate(TEMPLATE, { input: "How do I center a div in CSS?" });
    expect(run.took("evaluate_results")).toEqual([["refine"], ["default"]]);
    expect(run.of("LOOP_ITERATION")).toHaveLength(1);
    expect(run.value("found", "run_single_question_worker[0]/search_subgraph")).toEqual([[], [], []]);
    expect(run.outcome.result).toMatch(/could not find enough material/);
  });

  it("refuses three or more questions without running a worker", async () => {
    const run = await runTemplate(TEMPLATE, { input: "What is a coroutine? What is a task? What is a future?" });
    expect(run.took("route_plan")).toEqual([["too_many"]]);
    expect(run.started("run_single_question_worker")).toEqual([]);
    expect(run.outcome.result).toMatch(/^I can answer up to two questions/);
  });

  it("answers a repeated question from the cache, without searching", async () => {
    const providers = sharedProviders();
    const first = await runTemplate(TEMPLATE, { providers });
    const again = await runTemplate(TEMPLATE, { providers });
    expect(again.took("check_cache")).toEqual([["hit"]]);
    expect(SEARCHES.flatMap((id) => again.started(id))).toEqual([]);
    expect(again.started("return_cached_answer")).toEqual(["run_single_question_worker[0]"]);
    expect(again.outcome.result).toBe(first.outcome.result);
  });

  it("answers a clarification on a thread from the conversation, without the cache or a search", async () => {
    const threadFile = join(dir, "thread.json");
    await runTemplate(TEMPLATE, { threadFile });
    const run = await runTemplate(TEMPLATE, { threadFile, input: "Can you explain again how the previous answer limits requests?" });
    expect(run.value("history")).toMatch(/^User: How do I limit how many requests asyncio sends at once\?\n\nAssistant: Wrap each request/);
    expect(run.took("route_after_analysis")).toEqual([["clarification"]]);
    expect(["check_cache", ...SEARCHES].flatMap((id) => run.started(id))).toEqual([]);
    expect(run.outcome.result).toMatch(/^In the previous answer/);
  });
});
