import { afterAll } from "vitest";
import { startWeaviateServer, type WeaviateServer } from "./weaviate-server.js";

/**
 * One real Weaviate server for a test file: started by the first test that asks for it, stopped after
 * the file's tests. The binary must exist: the tests fail, never skip, without it.
 */
export function weaviateServerPerFile(): () => Promise<WeaviateServer> {
  let starting: Promise<WeaviateServer> | undefined;
  afterAll(async () => {
    await (await starting?.catch(() => undefined))?.stop();
  }, 60_000);
  return () => (starting ??= startWeaviateServer());
}
