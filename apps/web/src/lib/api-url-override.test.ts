import { describe, expect, it } from "vitest";
import { API_URL_STORAGE_KEY, clearApiUrlOverride, readApiUrlOverride } from "./api-url-override";

describe("API URL override", () => {
  it("takes the endpoint from ?api= and remembers it for later pages", () => {
    const storage = window.localStorage;
    expect(readApiUrlOverride({ search: "?api=http://127.0.0.1:5123/graphql" }, storage)).toBe("http://127.0.0.1:5123/graphql");
    expect(storage.getItem(API_URL_STORAGE_KEY)).toBe("http://127.0.0.1:5123/graphql");
    expect(readApiUrlOverride({ search: "" }, storage)).toBe("http://127.0.0.1:5123/graphql");
  });

  it("ignores values that are not http(s) URLs", () => {
    const storage = window.localStorage;
    expect(readApiUrlOverride({ search: "?api=javascript:alert(1)" }, storage)).toBeUndefined();
    storage.setItem(API_URL_STORAGE_KEY, "not a url");
    expect(readApiUrlOverride({ search: "" }, storage)).toBeUndefined();
  });

  it("falls back to the default once cleared", () => {
    const storage = window.localStorage;
    readApiUrlOverride({ search: "?api=https://weft.example/graphql" }, storage);
    clearApiUrlOverride(storage);
    expect(readApiUrlOverride({ search: "" }, storage)).toBeUndefined();
  });
});
