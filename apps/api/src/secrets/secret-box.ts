import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { WeftError } from "@weft/engine";

/**
 * Secrets the server must read back (webhook signing secrets now; SPEC-V3 §3's `createSecret` later) are
 * stored sealed: AES-256-GCM under a key derived from `WEFT_SECRET_KEY`, so a copy of the database alone
 * reveals none of them. A sealed value names the key it was sealed with (`v1.<keyId>.<data>`), so opening
 * it under another key fails with SECRET_KEY_MISMATCH instead of a bare authentication error.
 */

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** What `WEFT_SECRET_KEY` must at least hold (e.g. `openssl rand -base64 32`). */
export const MIN_SECRET_KEY_CHARS = 32;
const KEY_FILE = "secret.key";

export class SecretBox {
  readonly keyId: string;
  readonly #key: Buffer;

  private constructor(key: Buffer) {
    this.#key = key;
    this.keyId = createHash("sha256").update(key).digest("hex").slice(0, 8);
  }

  /** Any text of at least MIN_SECRET_KEY_CHARS characters; the AES key is derived from it (HKDF-SHA256). */
  static fromKeyMaterial(material: string): SecretBox {
    if (material.length < MIN_SECRET_KEY_CHARS) {
      throw new WeftError("SECRET_KEY_INVALID", `the secret key must be at least ${MIN_SECRET_KEY_CHARS} characters`, { audience: "operational" });
    }
    return new SecretBox(Buffer.from(hkdfSync("sha256", material, "weft", "weft secret box v1", 32)));
  }

  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv);
    const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return [VERSION, this.keyId, Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url")].join(".");
  }

  open(sealed: string): string {
    const [version, keyId, data] = sealed.split(".");
    if (version !== VERSION || !keyId || data === undefined) {
      throw new WeftError("SECRET_UNREADABLE", "the stored secret is not a sealed value", { audience: "operational" });
    }
    if (keyId !== this.keyId) {
      throw new WeftError("SECRET_KEY_MISMATCH", `the secret was sealed with key ${keyId}, the server has key ${this.keyId} (WEFT_SECRET_KEY changed?)`, {
        audience: "operational",
      });
    }
    const bytes = Buffer.from(data, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", this.#key, bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString("utf8");
  }
}

/**
 * The server's box: from `WEFT_SECRET_KEY` when set; else, for an embedded database in its data directory,
 * from `<WEFT_DATA_DIR>/secret.key` (made on first start, readable by its owner only, kept out of the
 * database and so out of its dumps). Null otherwise (server mode without a key): sealing is refused.
 */
export async function openSecretBox(options: { secretKey: string | undefined; keyDir: string | null }): Promise<SecretBox | null> {
  if (options.secretKey) return SecretBox.fromKeyMaterial(options.secretKey);
  if (!options.keyDir) return null;
  const file = path.join(options.keyDir, KEY_FILE);
  const existing = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? null : Promise.reject(error)));
  if (existing !== null) return SecretBox.fromKeyMaterial(existing.trim());
  const material = randomBytes(32).toString("base64url");
  await mkdir(options.keyDir, { recursive: true });
  // "wx": two processes starting at once cannot both write a key; the loser reads the winner's.
  try {
    await writeFile(file, `${material}\n`, { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return SecretBox.fromKeyMaterial((await readFile(file, "utf8")).trim());
  }
  await chmod(file, 0o600);
  return SecretBox.fromKeyMaterial(material);
}
