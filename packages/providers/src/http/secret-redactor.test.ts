import { ProviderError, WeftError } from "@weft/engine";
import { describe, expect, it } from "vitest";
import { SecretRedactor } from "./secret-redactor.js";

const KEY = "sk-live/key+0123";

function redactorOf(...values: string[]): SecretRedactor {
  const redactor = new SecretRedactor();
  for (const value of values) redactor.add(value);
  return redactor;
}

describe("SecretRedactor", () => {
  it("replaces a value and its URL-encoded form, the longer of two overlapping values whole", () => {
    const redactor = redactorOf(KEY, "sk-live");
    expect(redactor.text(`a ${KEY} b ${encodeURIComponent(KEY)} c sk-live`)).toBe("a [secret] b [secret] c [secret]");
  });

  it("cleans every string of a JSON value, keys included, and leaves other values as they are", () => {
    const value = { [KEY]: [KEY, 1, null, true, { deep: `Bearer ${KEY}` }] };
    expect(redactorOf(KEY).value(value)).toEqual({ "[secret]": ["[secret]", 1, null, true, { deep: "Bearer [secret]" }] });
  });

  it("cleans an error in place: its message, stack and details, keeping its class and fields; its cause keeps only a cleaned name and message", () => {
    const cause = Object.assign(new Error(`401 Incorrect API key provided: ${KEY}`), { name: "AuthenticationError", headers: { authorization: KEY } });
    const error = new ProviderError("PROVIDER_AUTH_FAILED", `refused: ${KEY}`, { retryable: false, cause });
    Object.assign(error, { details: { sent: KEY } });
    const cleaned = redactorOf(KEY).error(error);
    expect(cleaned).toBe(error);
    expect(cleaned).toBeInstanceOf(ProviderError);
    expect(cleaned).toMatchObject({ code: "PROVIDER_AUTH_FAILED", retryable: false, message: "refused: [secret]", details: { sent: "[secret]" } });
    expect(cleaned.stack).not.toContain(KEY);
    expect(cleaned.cause).toEqual(expect.objectContaining({ name: "AuthenticationError", message: "401 Incorrect API key provided: [secret]" }));
    expect(JSON.stringify(cleaned.cause)).not.toContain(KEY);
  });

  it("hands back an AbortError (whose message is read-only) as it is", () => {
    const abort = new DOMException("This operation was aborted", "AbortError");
    expect(redactorOf(KEY).error(abort)).toBe(abort);
    expect(abort.message).toBe("This operation was aborted");
  });

  it("changes nothing without values, or for values too short to be secrets", () => {
    const error = new WeftError("X", "ab and more");
    expect(redactorOf().error(error)).toBe(error);
    expect(redactorOf("ab").text("ab and more")).toBe("ab and more");
  });
});
