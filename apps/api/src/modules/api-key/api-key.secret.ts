import { createHash, randomBytes } from "node:crypto";

/**
 * Key format: `weft_` + 43 base64url characters (32 random bytes). Only the SHA-256 of the whole key is
 * stored; the first 12 characters are kept as a prefix so people can tell their keys apart. A fast hash
 * is right here: the key has 256 bits of entropy, so there is nothing to brute-force.
 */
export const API_KEY_PREFIX = "weft_";
const PREFIX_LENGTH = 12;

export function generateApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function displayPrefix(key: string): string {
  return key.slice(0, PREFIX_LENGTH);
}
