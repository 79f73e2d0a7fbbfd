import { createHmac, timingSafeEqual } from "node:crypto";
import { parseJsonWithin, WeftError, type JsonValue, type TriggerVariables } from "@weft/engine";

/**
 * The pure parts of a webhook call: its signature, its Idempotency-Key, and the `body`, `headers` and
 * `query` its CEL mappings read. No I/O; webhook-handler.ts does that.
 */

export const SIGNATURE_HEADER = "x-weft-signature";
export const IDEMPOTENCY_HEADER = "idempotency-key";
const MAX_IDEMPOTENCY_KEY = 255;

/** Whether `header` is the body's signature; compared in constant time over the digest's bytes. */
export function signatureMatches(secret: string, body: Buffer, header: string | undefined): boolean {
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header?.trim() ?? "");
  if (!match) return false;
  const expected = createHmac("sha256", secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(match[1]!, "hex"));
}

export type ParsedKey = { ok: true; key: string | null } | { ok: false; message: string };

/** The Idempotency-Key, if any: 1..255 visible ASCII characters. */
export function readIdempotencyKey(header: string | undefined): ParsedKey {
  if (header === undefined) return { ok: true, key: null };
  if (header.length === 0 || header.length > MAX_IDEMPOTENCY_KEY || !/^[\x21-\x7e]+$/.test(header)) {
    return { ok: false, message: `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY} visible ASCII characters` };
  }
  return { ok: true, key: header };
}

export type ParsedRequest = { ok: true; variables: TriggerVariables } | { ok: false; code: "BAD_REQUEST" | "VALUE_TOO_DEEP"; message: string };

/**
 * `body`: JSON for a JSON content type (refused when malformed or nested deeper than `maxDepth`, read from the
 * text before it is parsed: WEFT_MAX_VALUE_DEPTH), an
 * object of strings for a form, else the text. `headers`: lower-case names, repeated ones joined by ", ".
 * `query`: the URL's parameters (the last of a repeated one).
 */
export function readWebhookRequest(
  raw: Buffer,
  contentType: string | undefined,
  headers: Record<string, string | string[] | undefined>,
  search: string,
  maxDepth: number,
): ParsedRequest {
  const text = raw.toString("utf8");
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  let body: JsonValue = text;
  if (type === "application/json" || type.endsWith("+json")) {
    try {
      body = text.trim() === "" ? null : (parseJsonWithin(text, maxDepth, "the body") as JsonValue);
    } catch (error) {
      if (error instanceof WeftError) return { ok: false, code: "VALUE_TOO_DEEP", message: error.message };
      return { ok: false, code: "BAD_REQUEST", message: `the body is not JSON: ${(error as Error).message}` };
    }
  } else if (type === "application/x-www-form-urlencoded") {
    body = Object.fromEntries(new URLSearchParams(text));
  }
  const names: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) names[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return { ok: true, variables: { body, headers: names, query: Object.fromEntries(new URLSearchParams(search)) } };
}
