import { describe, expect, test } from "vitest";
import { EnvError, loadEnv } from "./env.js";

describe("loadEnv", () => {
  test("an empty environment gives the documented defaults", () => {
    const env = loadEnv({}, {});
    expect(env).toMatchObject({ PORT: 4000, HOST: "127.0.0.1", WEFT_AUTH: "required", WEFT_DATA_DIR: "./.weft-data", WEFT_SEED_DEMO: true, CORS_ORIGINS: [] });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  test("every invalid variable is named in one error", () => {
    const attempt = () => loadEnv({}, { PORT: "eighty", DATABASE_URL: "mysql://x", WEFT_AUTH: "off" });
    expect(attempt).toThrow(EnvError);
    try {
      attempt();
    } catch (error) {
      expect((error as EnvError).issues.map((issue) => issue.split(":")[0])).toEqual(["PORT", "DATABASE_URL", "WEFT_AUTH"]);
    }
  });

  test("lists are split on commas, empty variables count as unset, overrides win over the source", () => {
    const env = loadEnv({ PORT: "0" }, { PORT: "5000", CORS_ORIGINS: " https://a.example , https://b.example,", DATABASE_URL: "" });
    expect(env.PORT).toBe(0);
    expect(env.CORS_ORIGINS).toEqual(["https://a.example", "https://b.example"]);
    expect(env.DATABASE_URL).toBeUndefined();
  });
});
