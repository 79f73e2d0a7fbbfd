import { describe, expect, it } from "vitest";
import { withoutKey } from "./openai-client.js";

describe("an error that repeats the key it was sent", () => {
  it("loses the key in its message, its stack and the SDK error it wraps, which loggers print as its cause", () => {
    const key = "sk-test-0123456789";
    const sdkError = Object.assign(new Error(`401 Incorrect API key provided: ${key}`), { name: "AuthenticationError", error: { message: key } });
    const error = new Error(`the provider refused the key: Incorrect API key provided: ${key}`, { cause: sdkError });
    const cleaned = withoutKey(error, key);
    expect(cleaned.message).toBe("the provider refused the key: Incorrect API key provided: [secret]");
    expect(JSON.stringify({ message: cleaned.message, stack: cleaned.stack, cause: { ...(cleaned.cause as object), message: (cleaned.cause as Error).message, stack: (cleaned.cause as Error).stack } })).not.toContain(key);
    expect(cleaned.cause).toMatchObject({ name: "AuthenticationError", message: "401 Incorrect API key provided: [secret]" });
  });

  it("is left as it is without a key", () => {
    const error = new Error("no key here");
    expect(withoutKey(error, null)).toBe(error);
  });
});

describe("an error that repeats the key URL-encoded, or a cancellation", () => {
  it("loses the encoded key too", () => {
    const key = "sk-with/slash+plus";
    const cleaned = withoutKey(new Error(`GET /v1/models?key=${encodeURIComponent(key)} failed`), key);
    expect(cleaned.message).toBe("GET /v1/models?key=[secret] failed");
  });

  it("hands back an AbortError as it is: its message cannot be set", () => {
    const abort = new DOMException("This operation was aborted", "AbortError");
    expect(withoutKey(abort, "sk-test-0123456789")).toBe(abort);
  });
});
