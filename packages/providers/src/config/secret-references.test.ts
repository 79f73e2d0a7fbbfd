import { describe, expect, it } from "vitest";
import { SecretRedactor } from "../http/secret-redactor.js";
import { fillSecretReferences, readSecrets, secretReference } from "./secret-references.js";

describe("secret references", () => {
  it("take a setting as a secret only when it is one reference and nothing else", () => {
    expect(secretReference("{secret.OPENAI_KEY}")).toBe("OPENAI_KEY");
    expect(secretReference("  {secret.OPENAI_KEY} ")).toBe("OPENAI_KEY");
    expect(secretReference("sk-{secret.X}")).toBeNull();
    expect(secretReference("{secret.X}{secret.Y}")).toBeNull();
    expect(secretReference("{secret.1X}")).toBeNull();
  });

  it("read each secret a request names once, however often it is named, and hand every value to the redactor", async () => {
    const reads: string[] = [];
    const stored: Record<string, string> = { TOKEN: "token-value-1", USER: "user-value-2" };
    const redactor = new SecretRedactor();
    const values = await readSecrets(["TOKEN", "USER", "TOKEN", "TOKEN"], async (name) => (reads.push(name), stored[name] ?? null), redactor);
    expect(reads.sort()).toEqual(["TOKEN", "USER"]);
    expect(fillSecretReferences("{secret.USER}:{secret.TOKEN} {secret.TOKEN} {secret.1X}", values)).toBe("user-value-2:token-value-1 token-value-1 {secret.1X}");
    expect(redactor.text("token-value-1 user-value-2")).toBe("[secret] [secret]");
  });

  it("name a secret that is not stored (SECRET_NOT_FOUND)", async () => {
    await expect(readSecrets(["MISSING"], async () => null, new SecretRedactor())).rejects.toMatchObject({ code: "SECRET_NOT_FOUND", message: expect.stringContaining("MISSING") });
  });
});
