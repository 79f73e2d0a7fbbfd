import { describe, expect, it } from "vitest";
import { parseMcpServers } from "./mcp-servers-config.js";

describe("parseMcpServers", () => {
  it("takes streamable HTTP servers with headers and stdio servers with args and env; none when the section is absent", () => {
    const parsed = parseMcpServers({
      search: { url: "https://tools.example.com/mcp", headers: { Authorization: "Bearer abc" } },
      files: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/data"], env: { LOG: "1" } },
    });
    expect(parsed.ok && [...parsed.servers.keys()]).toEqual(["search", "files"]);
    expect(parseMcpServers(undefined)).toEqual({ ok: true, servers: new Map() });
  });

  it("reports every problem with its path: a bad URL, a server of neither kind, a bad name, a secret it cannot name or resolve", () => {
    const parsed = parseMcpServers({ a: { url: "ftp://x" }, b: { url: "http://x", command: "y" }, "bad name": { command: "z" } });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.map((problem) => problem.split(":")[0])).toEqual(expect.arrayContaining(["mcp.a.url", "mcp.b", "mcp.bad name"]));
    const secrets = parseMcpServers({ s: { url: "http://x", headers: { "X-Key": "{secret.1BAD}" } }, p: { command: "tool", env: { TOKEN: "{secret.TOKEN}" } } });
    expect(secrets).toEqual({
      ok: false,
      problems: [expect.stringMatching(/^mcp\.s\.headers\.X-Key: "\{secret\.1BAD\}" does not name a secret/), expect.stringMatching(/^mcp\.p\.env\.TOKEN: \{secret\.NAME\} is not resolved in a stdio server's env/)],
    });
  });

  it("takes {secret.NAME} in an HTTP server's headers", () => {
    const parsed = parseMcpServers({ s: { url: "http://x", headers: { Authorization: "Bearer {secret.TOKEN}" } } });
    expect(parsed.ok).toBe(true);
  });
});
