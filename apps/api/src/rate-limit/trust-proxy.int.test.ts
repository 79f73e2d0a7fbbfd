import { createClient, type Client } from "graphql-ws";
import { afterEach, expect, test } from "vitest";
import WebSocket from "ws";
import { describeEachDatabase } from "../testing/database.js";
import { startTestApp, type TestApp } from "../testing/app.js";
import { ServerInfo } from "../testing/operations.js";
import { TOO_MANY_CONNECTIONS_CLOSE_CODE } from "./rate-limits.js";

/*
 * The test client stands in for a reverse proxy on loopback: it sends X-Forwarded-For itself. Trusted
 * (WEFT_TRUST_PROXY=loopback), each forwarded address has its own budget; untrusted (the default),
 * the header is ignored and every caller shares the proxy's (loopback) address.
 */

const FIRST = "203.0.113.10";
const SECOND = "198.51.100.20";

describeEachDatabase(
  "rate limits behind a reverse proxy",
  (suite) => {
    let api: TestApp | undefined;
    const sockets: Client[] = [];
    afterEach(async () => {
      await Promise.all(sockets.splice(0).map((ws) => ws.dispose()));
      await api?.close();
      api = undefined;
    });

    async function statusFrom(forwardedFor: string): Promise<number> {
      const body = JSON.stringify({ query: "query { serverInfo { version } }" });
      return (await api!.anonymous.post(body, { "x-forwarded-for": forwardedFor })).status;
    }

    /** A WebSocket connection without a key whose upgrade request carries X-Forwarded-For; "open" or the close code. */
    async function connectFrom(forwardedFor: string): Promise<number | "open"> {
      class ForwardedWebSocket extends WebSocket {
        constructor(url: string, protocols?: string | string[]) {
          super(url, protocols, { headers: { "x-forwarded-for": forwardedFor } });
        }
      }
      const ws = createClient({
        url: api!.app.wsUrl, webSocketImpl: ForwardedWebSocket, lazy: false, retryAttempts: 0,
        // A refused connection is reported through the "closed" event; do not print it.
        onNonLazyError: () => undefined,
      });
      sockets.push(ws);
      return new Promise<number | "open">((resolve) => {
        ws.on("connected", () => resolve("open"));
        ws.on("closed", (event) => resolve((event as { code: number }).code));
      });
    }

    test("with the proxy trusted, two forwarded client addresses get separate HTTP budgets", async () => {
      api = await startTestApp(suite.db(), { env: { WEFT_TRUST_PROXY: "loopback", WEFT_RATE_LIMIT_REQUESTS_PER_MINUTE: "1" } });
      expect(await statusFrom(FIRST)).toBe(200);
      expect(await statusFrom(FIRST)).toBe(429);
      expect(await statusFrom(SECOND)).toBe(200);
    });

    test("without trust, X-Forwarded-For is ignored and both callers share the proxy's HTTP budget", async () => {
      api = await startTestApp(suite.db(), { env: { WEFT_RATE_LIMIT_REQUESTS_PER_MINUTE: "1" } });
      expect(await statusFrom(FIRST)).toBe(200);
      expect(await statusFrom(SECOND)).toBe(429);
      expect((await api.anonymous.execute(ServerInfo)).status).toBe(429);
    });

    test("with the proxy trusted, WebSocket upgrades count against their forwarded addresses", async () => {
      api = await startTestApp(suite.db(), {
        env: { WEFT_AUTH: "disabled", WEFT_TRUST_PROXY: "loopback", WEFT_MAX_WS_CONNECTIONS_PER_CALLER: "1" },
      });
      expect(await connectFrom(FIRST)).toBe("open");
      expect(await connectFrom(SECOND)).toBe("open");
      expect(await connectFrom(FIRST)).toBe(TOO_MANY_CONNECTIONS_CLOSE_CODE);
    });

    test("without trust, WebSocket upgrades from two forwarded addresses share one connection cap", async () => {
      api = await startTestApp(suite.db(), { env: { WEFT_AUTH: "disabled", WEFT_MAX_WS_CONNECTIONS_PER_CALLER: "1" } });
      expect(await connectFrom(FIRST)).toBe("open");
      expect(await connectFrom(SECOND)).toBe(TOO_MANY_CONNECTIONS_CLOSE_CODE);
    });
  },
  { modes: ["embedded"] },
);
