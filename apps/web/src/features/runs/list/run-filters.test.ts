import { describe, expect, it } from "vitest";
import { EMPTY_FILTERS, filtersFromSearch, filtersToSearch, hasFilters, toQueryFilters } from "./run-filters";

describe("run filters", () => {
  it("sends only the filters that are set", () => {
    expect(toQueryFilters(EMPTY_FILTERS)).toEqual({});
    expect(toQueryFilters({ ...EMPTY_FILTERS, workflowId: "w1", status: "FAILED" })).toEqual({ workflowId: "w1", status: ["FAILED"] });
  });

  it("asks for the runs of the draft, of published versions, or of one version of the chosen workflow", () => {
    expect(toQueryFilters({ ...EMPTY_FILTERS, version: "draft" })).toEqual({ draft: true });
    expect(toQueryFilters({ ...EMPTY_FILTERS, version: "published" })).toEqual({ draft: false });
    expect(toQueryFilters({ ...EMPTY_FILTERS, workflowId: "w1", version: "2" })).toEqual({ workflowId: "w1", version: 2 });
    expect(toQueryFilters({ ...EMPTY_FILTERS, version: "2" })).toEqual({});
    expect(toQueryFilters({ ...EMPTY_FILTERS, triggerId: "t1" })).toEqual({ triggerId: "t1" });
  });

  it("turns local date-times into instants", () => {
    const from = "2026-11-21T09:30";
    expect(toQueryFilters({ ...EMPTY_FILTERS, from }).createdAfter).toBe(new Date(from).toISOString());
    expect(toQueryFilters({ ...EMPTY_FILTERS, to: "garbage" })).toEqual({});
  });

  it("round-trips through the address and ignores unknown statuses", () => {
    const filters = { workflowId: "w1", status: "RUNNING" as const, version: "3" as const, from: "2026-11-21T09:30", to: "", triggerId: "t1" };
    expect(filtersFromSearch(new URLSearchParams(filtersToSearch(filters).slice(1)))).toEqual(filters);
    expect(filtersFromSearch(new URLSearchParams("status=EXPLODED")).status).toBe("");
    expect(filtersFromSearch(new URLSearchParams("version=0")).version).toBe("");
    expect(filtersToSearch(EMPTY_FILTERS)).toBe("");
    expect(hasFilters(EMPTY_FILTERS)).toBe(false);
  });
});
