import { describe, expect, it } from "vitest";
import { en } from "./en/index";
import { ko } from "./ko/index";
import { translate } from "./translate";

describe("translate", () => {
  it("fills named placeholders", () => {
    expect(translate(en, "common.state.networkError", { url: "http://h:4000/graphql" })).toBe(
      "Cannot reach the Weft API at http://h:4000/graphql. Is it running?",
    );
  });

  it("leaves a placeholder visible when its variable is missing", () => {
    expect(translate(en, "common.state.networkError", {})).toContain("{url}");
  });

  it("has a Korean string for every English key", () => {
    for (const [namespace, table] of Object.entries(en)) {
      const korean = ko[namespace as keyof typeof ko] as Record<string, string>;
      for (const key of Object.keys(table)) expect(korean[key], `${namespace}.${key}`).toBeTruthy();
    }
  });
});
