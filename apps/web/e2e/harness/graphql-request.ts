/** A GraphQL call over HTTP, as another client of the same API would make it; throws when there is no data. */
export async function graphqlRequest<T>(apiUrl: string, query: string, variables: Record<string, unknown>): Promise<T> {
  const response = await fetch(`${apiUrl}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown };
  if (!body.data) throw new Error(`GraphQL failed: ${JSON.stringify(body.errors)}`);
  return body.data;
}
