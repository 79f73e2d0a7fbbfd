import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { sendJson } from "./json-http.js";

/** A request as the test server received it. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface HttpTestServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  received: ReceivedRequest[];
  stop(): Promise<void>;
}

/**
 * A plain HTTP server on loopback for the `http` node's tests, with a route per behaviour:
 * `/echo` (the request back as JSON), `/status/<code>`, `/redirect?to=<url>&status=<code>`,
 * `/bytes/<n>` (n bytes, chunked, no Content-Length), `/declared/<n>` (Content-Length n, then n bytes),
 * `/slow` (headers sent, the body never finishes) and `/silent` (no answer at all).
 */
export async function startHttpTestServer(): Promise<HttpTestServer> {
  const received: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer(async (req, res) => {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    const url = new URL(req.url ?? "/", "http://test");
    const request = { method: req.method ?? "GET", path: `${url.pathname}${url.search}`, headers: req.headers, body: Buffer.concat(parts).toString("utf8") };
    received.push(request);
    route(url, request, res);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    received,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function route(url: URL, request: ReceivedRequest, res: ServerResponse): void {
  const [, name, argument] = url.pathname.split("/");
  switch (name) {
    case "echo":
      sendJson(res, 200, request, { "x-echo-authorization": String(request.headers["authorization"] ?? "") });
      return;
    case "status":
      sendJson(res, Number(argument), { status: Number(argument) });
      return;
    case "redirect":
      res.writeHead(Number(url.searchParams.get("status") ?? 302), { location: url.searchParams.get("to") ?? "/echo" });
      res.end();
      return;
    case "bytes":
      res.writeHead(200, { "content-type": "text/plain" });
      for (let sent = 0, size = Number(argument); sent < size; sent += 1024) res.write("x".repeat(Math.min(1024, size - sent)));
      res.end();
      return;
    case "declared":
      res.writeHead(200, { "content-type": "text/plain", "content-length": argument });
      res.end("x".repeat(Number(argument)));
      return;
    case "slow":
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("partial");
      return;
    case "silent":
      return;
    default:
      sendJson(res, 404, { error: "no such route" });
  }
}
