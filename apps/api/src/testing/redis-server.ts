import { startRedisServer, type RedisServer } from "@weft/test-services";
import { afterAll, beforeAll } from "vitest";

/** One Redis for the tests of a file: started before them, stopped after them. Call it at the file's top level. */
export function redisForTests(): () => RedisServer {
  let server: RedisServer | undefined;
  beforeAll(async () => {
    server = await startRedisServer();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error("the test Redis starts in beforeAll");
    return server;
  };
}
