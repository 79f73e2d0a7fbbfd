import { describe, expect, it } from "vitest";
import { resolveApiEndpoint, toWebSocketUrl } from "./api-endpoint";

describe("resolveApiEndpoint", () => {
  it("defaults to port 4000 on the host that served the page", () => {
    expect(resolveApiEndpoint(undefined, { protocol: "http:", hostname: "10.0.0.5" })).toEqual({
      httpUrl: "http://10.0.0.5:4000/graphql",
      wsUrl: "ws://10.0.0.5:4000/graphql",
    });
  });

  it("uses the configured URL and derives a secure WebSocket URL from https", () => {
    expect(resolveApiEndpoint("https://weft.example.com/api/graphql", { protocol: "http:", hostname: "x" })).toEqual({
      httpUrl: "https://weft.example.com/api/graphql",
      wsUrl: "wss://weft.example.com/api/graphql",
    });
  });

  it("brackets an IPv6 host", () => {
    expect(resolveApiEndpoint(undefined, { protocol: "http:", hostname: "::1" }).httpUrl).toBe("http://[::1]:4000/graphql");
  });

  it("keeps the port and query of a configured URL in the WebSocket URL", () => {
    expect(toWebSocketUrl("http://127.0.0.1:4100/graphql?x=1")).toBe("ws://127.0.0.1:4100/graphql?x=1");
  });
});
