import { describe, expect, it } from "vitest";
import { mcpClientConfig, mcpEndpointUrl } from "./mcp-client-config";

describe("the MCP endpoint and client configuration", () => {
  it("puts /mcp beside the GraphQL endpoint, keeping a proxy's path prefix and dropping the query", () => {
    expect(mcpEndpointUrl("http://127.0.0.1:4000/graphql")).toBe("http://127.0.0.1:4000/mcp");
    expect(mcpEndpointUrl("https://weft.example.com/api/graphql?x=1#y")).toBe("https://weft.example.com/api/mcp");
    expect(mcpEndpointUrl("http://[::1]:4100/graphql")).toBe("http://[::1]:4100/mcp");
  });

  it("gives the mcp.json shape with a key placeholder when the server requires keys", () => {
    expect(JSON.parse(mcpClientConfig("https://weft.example.com/mcp", true))).toEqual({
      mcpServers: { weft: { url: "https://weft.example.com/mcp", headers: { Authorization: "Bearer weft_…" } } },
    });
  });

  it("leaves the header out in local mode, where loopback callers need no key", () => {
    expect(JSON.parse(mcpClientConfig("http://127.0.0.1:4000/mcp", false))).toEqual({ mcpServers: { weft: { url: "http://127.0.0.1:4000/mcp" } } });
  });
});
