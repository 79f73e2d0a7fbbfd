import { z } from "zod";
import { SECRET_REFERENCE } from "@weft/engine";

/** Bounds of the operator's MCP section: names, how many servers, header and argument sizes. */
export const MCP_CONFIG_LIMITS = Object.freeze({ maxServers: 64, maxNameLength: 64, maxValueLength: 8_192, maxArgs: 64 });

const value = z.string().max(MCP_CONFIG_LIMITS.maxValueLength);

/** A server reached over streamable HTTP. */
const httpServer = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
  headers: z.record(z.string().min(1).max(256), value).optional(),
});

/** A server the API starts as a child process and speaks to over stdio (operator-configured only). */
const stdioServer = z.strictObject({
  command: z.string().min(1).max(MCP_CONFIG_LIMITS.maxValueLength),
  args: z.array(value).max(MCP_CONFIG_LIMITS.maxArgs).optional(),
  env: z.record(z.string().min(1).max(256), value).optional(),
});

const serverName = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1–64 letters, digits, "_" or "-"');

const mcpSection = z
  .record(serverName, z.union([httpServer, stdioServer]))
  .refine((servers) => Object.keys(servers).length <= MCP_CONFIG_LIMITS.maxServers, { message: `at most ${MCP_CONFIG_LIMITS.maxServers} servers` });

export type McpHttpServerConfig = z.infer<typeof httpServer>;
export type McpStdioServerConfig = z.infer<typeof stdioServer>;
export type McpServerConfig = McpHttpServerConfig | McpStdioServerConfig;

/**
 * The `"mcp"` section of WEFT_PROVIDERS_FILE (`{"name": {"url", "headers"?}}` or `{"name": {"command",
 * "args"?, "env"?}}`), checked at start: every problem with its path, so a mistake stops the server
 * instead of failing a run later. Absent: no servers.
 */
export function parseMcpServers(section: unknown): { ok: true; servers: Map<string, McpServerConfig> } | { ok: false; problems: string[] } {
  if (section === undefined) return { ok: true, servers: new Map() };
  const parsed = mcpSection.safeParse(section);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((issue) => `mcp${issue.path.map((part) => `.${String(part)}`).join("")}: ${issue.message}`) };
  const problems: string[] = [];
  for (const [name, server] of Object.entries(parsed.data)) {
    // Headers of an HTTP server may name secrets (filled at each request); a stdio server's environment may not yet.
    const values = "url" in server ? Object.entries(server.headers ?? {}).map(([key, text]) => [`headers.${key}`, text] as const) : Object.entries(server.env ?? {}).map(([key, text]) => [`env.${key}`, text] as const);
    for (const [field, text] of values) {
      if (!text.includes("{secret.")) continue;
      if (!("url" in server)) problems.push(`mcp.${name}.${field}: {secret.NAME} is not resolved in a stdio server's env; write the value (the file is the operator's)`);
      // What is left once the references are taken out: a `{secret.` there names no secret, and is reported rather than sent as written.
      const left = text.replace(SECRET_REFERENCE, "");
      const at = left.indexOf("{secret.");
      if ("url" in server && at >= 0) {
        const end = left.indexOf("}", at);
        problems.push(`mcp.${name}.${field}: "${left.slice(at, end < 0 ? undefined : end + 1)}" does not name a secret (a letter or _ then up to 63 letters, digits or _)`);
      }
    }
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, servers: new Map(Object.entries(parsed.data)) };
}
