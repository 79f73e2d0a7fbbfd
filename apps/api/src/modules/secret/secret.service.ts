import { SECRET_NAME, WeftError } from "@weft/engine";
import type { PrismaClient, Secret as SecretRow } from "../../generated/prisma/client.js";
import { failure, success, type Outcome } from "../../errors/outcome.js";
import { userError } from "../../errors/user-error.type.js";
import type { Logger } from "../../logger.js";
import type { SecretBox } from "../../secrets/secret-box.js";
import type { Secret } from "./secret.type.js";

/** A secret's value: an API key or token, not a document. */
export const MAX_SECRET_VALUE_BYTES = 16 * 1024;

function toSecret(row: SecretRow): Secret {
  return { name: row.name, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

/**
 * Secrets (SPEC-V3 §3): stored sealed with the server's secret box (AES-256-GCM under WEFT_SECRET_KEY),
 * listed by name only, read back only by the server for the settings that name them ({secret.NAME}).
 * Without a key nothing is stored (SECRET_KEY_REQUIRED): a secret is never kept in the clear.
 */
export class SecretService {
  constructor(
    private readonly db: PrismaClient,
    private readonly box: SecretBox | null,
    private readonly logger: Logger,
  ) {}

  async list(): Promise<Secret[]> {
    return (await this.db.secret.findMany({ orderBy: { name: "asc" } })).map(toSecret);
  }

  /** Stores the value under the name, replacing the value of a secret of that name (rotation without a gap). */
  async create(name: string, value: string): Promise<Outcome<Secret>> {
    if (!this.box) return failure(userError("SECRET_KEY_REQUIRED", "secrets are stored encrypted with the server's secret key: set WEFT_SECRET_KEY"));
    if (!SECRET_NAME.test(name)) {
      return failure(userError("SECRET_NAME_INVALID", "a secret's name is a letter or _ then up to 63 letters, digits or _ (it is written {secret.NAME})", { path: ["name"] }));
    }
    if (value.length === 0 || Buffer.byteLength(value, "utf8") > MAX_SECRET_VALUE_BYTES) {
      return failure(userError("SECRET_VALUE_INVALID", `a secret's value is 1 to ${MAX_SECRET_VALUE_BYTES} bytes`, { path: ["value"] }));
    }
    const sealed = this.box.seal(value);
    const row = await this.db.secret.upsert({ where: { name }, create: { name, sealed }, update: { sealed } });
    this.logger.info({ secret: name }, "secret stored");
    return success(toSecret(row));
  }

  async delete(name: string): Promise<Outcome<string>> {
    const { count } = await this.db.secret.deleteMany({ where: { name } });
    if (count === 0) return failure(userError("NOT_FOUND", `there is no secret named ${name}`, { path: ["name"] }));
    this.logger.info({ secret: name }, "secret deleted");
    return success(name);
  }

  /** The value of a secret, for the server's own use (a provider's key); null when there is none. */
  readonly read = async (name: string): Promise<string | null> => {
    const row = await this.db.secret.findUnique({ where: { name } });
    if (!row) return null;
    if (!this.box) throw new WeftError("SECRET_KEY_REQUIRED", `the secret ${name} is stored, but the server has no secret key to open it (WEFT_SECRET_KEY)`, { audience: "operational" });
    return this.box.open(row.sealed);
  };
}
