const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids that are not uuids cannot exist; answering early keeps PostgreSQL from seeing them at all. */
export function isUuid(id: string): boolean {
  return UUID_PATTERN.test(id);
}
