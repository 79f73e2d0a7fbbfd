/**
 * The only place the web app reads its environment. Next inlines `NEXT_PUBLIC_*` at build time, so the
 * variable must be spelled out literally here.
 */
export const env = {
  /** GraphQL endpoint over HTTP; the WebSocket endpoint is derived from it. */
  apiUrl: nonEmpty(process.env.NEXT_PUBLIC_WEFT_API_URL),
};

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
