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

/** Imports a workflow document as another client would (importWorkflow) and answers its id; throws with the refusals. */
export async function importWorkflow(apiUrl: string, document: unknown): Promise<string> {
  const imported = await graphqlRequest<{ importWorkflow: { workflow: { id: string } | null; errors: unknown[] } }>(
    apiUrl,
    "mutation ($document: JSON!) { importWorkflow(document: $document) { workflow { id } errors { code message } } }",
    { document },
  );
  if (!imported.importWorkflow.workflow) throw new Error(`import refused: ${JSON.stringify(imported.importWorkflow.errors)}`);
  return imported.importWorkflow.workflow.id;
}
