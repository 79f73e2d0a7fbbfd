import { describe, expect, it } from "vitest";
import { renderTemplate, stateReferences, type TemplateValues } from "./node-template.js";

const values = (extra: Partial<TemplateValues> = {}): TemplateValues => ({
  values: ["hello"],
  inputsBySource: { q: "hello" },
  state: { plan: { query: "transformer", rewrites: ["attention", "encoder"] }, count: 2 },
  item: { id: "s1", query: "self-attention" },
  index: 0,
  feedback: "",
  iteration: 1,
  context: null,
  outputFormat: "",
  ...extra,
});

describe("node templates", () => {
  it("fill every placeholder in one pass, leaving other braces as written", () => {
    expect(renderTemplate("{input} / {input.q} / {state.count} / {index} / {iteration} / {x} / {\"a\": 1}", values()).text).toBe('hello / hello / 2 / 0 / 1 / {x} / {"a": 1}');
  });

  it("go into state channels and the item by field name and list index", () => {
    const rendered = renderTemplate("{state.plan.query}: {state.plan.rewrites.1} ({item.query}, {item.id})", values());
    expect(rendered).toEqual({ text: "transformer: encoder (self-attention, s1)", empty: [] });
  });

  it("report a path that leads nowhere as an empty placeholder", () => {
    const rendered = renderTemplate("[{state.plan.missing}] [{state.plan.rewrites.7}] [{state.count.x}] [{item.query.deeper}]", values());
    expect(rendered).toEqual({ text: "[] [] [] []", empty: ["state.plan.missing", "state.plan.rewrites.7", "state.count.x", "item.query.deeper"] });
  });

  it("put field values in as JSON in json mode", () => {
    expect(renderTemplate('{"q": {state.plan.query}, "all": {state.plan.rewrites}}', values(), "json").text).toBe('{"q": "transformer", "all": ["attention","encoder"]}');
  });

  it("fill {args} and {args.<name>} from an http tool's call arguments, and leave them as written elsewhere", () => {
    const args = { city: "Seoul", filters: { days: 3 } };
    expect(renderTemplate("{args.city} {args.filters.days} {args.missing}|{args}", values({ args })).text).toBe('Seoul 3 |{"city":"Seoul","filters":{"days":3}}');
    expect(renderTemplate("{args.city} {input}", values()).text).toBe("{args.city} hello");
  });

  it("name the channel, not the path, as a state reference", () => {
    expect(stateReferences("{state.plan.query} {state.count} {state.plan}")).toEqual(["plan", "count"]);
  });
});
