import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { WeftError } from "@weft/engine";
import { describe, expect, test } from "vitest";
import { openSecretBox, SecretBox } from "./secret-box.js";

const KEY = "a-secret-key-of-at-least-32-characters!";

describe("the secret box", () => {
  test("opens what it sealed, and seals the same text differently each time", () => {
    const box = SecretBox.fromKeyMaterial(KEY);
    const first = box.seal("whsec_abc");
    expect(first).not.toContain("whsec_abc");
    expect(box.seal("whsec_abc")).not.toBe(first);
    expect(box.open(first)).toBe("whsec_abc");
  });

  test("a value sealed under another key is refused with SECRET_KEY_MISMATCH, a tampered one fails", () => {
    const sealed = SecretBox.fromKeyMaterial(KEY).seal("whsec_abc");
    const other = SecretBox.fromKeyMaterial(`${KEY}-rotated`);
    expect(() => other.open(sealed)).toThrow(expect.objectContaining({ code: "SECRET_KEY_MISMATCH" }) as WeftError);
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith("A") ? "B" : "A"}A`;
    expect(() => SecretBox.fromKeyMaterial(KEY).open(tampered)).toThrow();
  });

  test("a key shorter than 32 characters is refused", () => {
    expect(() => SecretBox.fromKeyMaterial("short")).toThrow(expect.objectContaining({ code: "SECRET_KEY_INVALID" }) as WeftError);
  });

  test("without WEFT_SECRET_KEY an embedded data directory gets a key file once, readable by its owner only", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "weft-secret-"));
    try {
      const first = await openSecretBox({ secretKey: undefined, keyDir: dir });
      const again = await openSecretBox({ secretKey: undefined, keyDir: dir });
      expect(again!.open(first!.seal("x"))).toBe("x");
      expect((await stat(path.join(dir, "secret.key"))).mode & 0o777).toBe(0o600);
      expect((await readFile(path.join(dir, "secret.key"), "utf8")).trim().length).toBeGreaterThanOrEqual(32);
      expect(await openSecretBox({ secretKey: undefined, keyDir: null })).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
