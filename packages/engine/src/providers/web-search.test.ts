import { describe, expect, it } from "vitest";
import { hostAllowedByDomains, hostMatchesDomain } from "./web-search.js";

describe("hostMatchesDomain", () => {
  it("matches the domain and its subdomains, never a longer name that merely ends the same", () => {
    expect(hostMatchesDomain("docs.python.org", "python.org")).toBe(true);
    expect(hostMatchesDomain("python.org", "www.python.org")).toBe(true);
    expect(hostMatchesDomain("PYTHON.ORG.", ".python.org")).toBe(true);
    expect(hostMatchesDomain("notpython.org", "python.org")).toBe(false);
    expect(hostMatchesDomain("python.org", "")).toBe(false);
  });
});

describe("hostAllowedByDomains", () => {
  it("keeps only included domains and drops excluded ones", () => {
    expect(hostAllowedByDomains("a.example", {})).toBe(true);
    expect(hostAllowedByDomains("a.example", { includeDomains: ["b.example"] })).toBe(false);
    expect(hostAllowedByDomains("x.a.example", { includeDomains: ["a.example"], excludeDomains: ["x.a.example"] })).toBe(false);
  });
});
