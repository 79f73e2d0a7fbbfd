import { SECRET_REFERENCE, WeftError } from "@weft/engine";

/** Reads a stored secret's value by name (the API's secret store); null when there is no such secret. */
export type SecretReader = (name: string) => Promise<string | null>;

/**
 * The values of the secrets one request names, each read once however often it is named, and each
 * handed to `sent` (the redactor of what comes back); SECRET_NOT_FOUND names one that is not stored.
 * Read at each request, so a replaced secret is sent from the next request on, with no restart.
 */
export async function readSecrets(names: Iterable<string>, readSecret: SecretReader, sent: { add(value: string): void }): Promise<ReadonlyMap<string, string>> {
  const read = async (name: string): Promise<[string, string]> => {
    const value = await readSecret(name);
    if (value === null) throw new WeftError("SECRET_NOT_FOUND", `no secret is named ${name} (createSecret stores one)`, { audience: "operational" });
    sent.add(value);
    return [name, value];
  };
  return new Map(await Promise.all([...new Set(names)].map(read)));
}

/** A text with each `{secret.NAME}` replaced by its value, from readSecrets. */
export function fillSecretReferences(text: string, values: ReadonlyMap<string, string>): string {
  return text.replace(SECRET_REFERENCE, (_match, name: string) => values.get(name)!);
}

/** The secret a setting names when it is one reference and nothing else (`{secret.OPENAI}` → `OPENAI`), else null. */
export function secretReference(text: string): string | null {
  const trimmed = text.trim();
  const [only, ...more] = trimmed.matchAll(SECRET_REFERENCE);
  return only !== undefined && more.length === 0 && only[0] === trimmed ? only[1]! : null;
}
