// `speky-mcp --http`: MCP's Streamable HTTP transport (specification 2025-11-25) on node:http,
// one SDK transport and one server per session, every server built by createServer as the
// stdio one is and connected through the same session rules (sdk/session.ts), all of them
// reading the one live model. Before a request reaches the SDK: its Host and Origin (DNS
// rebinding), its token, the bounds (sessions, requests at once, body size), each refusal a
// JSON-RPC error body with its HTTP status. docs/mcp-http.md.
import { randomUUID } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { lenientInitialize } from "../sdk/initialize.js";
import { connectSession } from "../server.js";
import { allowedHostNames, clientUrl, hostName, type ListenAddress } from "./address.js";
import { type HostRule, hostRefusal, type Refusal, tokenRefusal } from "./guard.js";

export interface HttpBounds {
  /**
   * Sessions open at once: each holds a server and perhaps a stream (200 sessions took the RSS
   * from 104 to 201 MB in test/mcp/mcp-http-load.test.ts, the clients' connections included).
   */
  maxSessions: number;
  /** POST and DELETE requests being answered at once, over all sessions. */
  maxRequests: number;
  /** Bytes of one request's body. */
  maxBodyBytes: number;
  /** A session without any request for this long is closed (a client that left without DELETE). */
  idleMs: number;
}

export const DEFAULT_BOUNDS: HttpBounds = {
  maxSessions: 256,
  maxRequests: 256,
  maxBodyBytes: 1024 * 1024,
  idleMs: 30 * 60 * 1000,
};

/** The path of the MCP endpoint. */
export const MCP_PATH = "/mcp";

export interface HttpServerOptions {
  listen: ListenAddress;
  /** Required of every request when set. */
  token: string | null;
  /** Host names accepted besides this machine's (a reverse proxy's), on any port. */
  allowHosts: readonly string[];
  bounds: HttpBounds;
  /** A new server for a new session (createServer over the live model). */
  newServer: () => McpServer;
  warn: (message: string) => void;
  debug: (message: string) => void;
  /** Told each time the last open session closes. */
  onNoSession?: () => void;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  /** Requests (GET streams included) of this session not finished yet. */
  busy: number;
  idle: NodeJS.Timeout | null;
}

const error = (status: number, message: string, headers?: Record<string, string>): Refusal => ({
  status,
  code: -32000,
  message,
  ...(headers ? { headers } : {}),
});

function reply(res: ServerResponse, refusal: Refusal): void {
  if (res.headersSent) return void res.end();
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code: refusal.code, message: refusal.message }, id: null });
  res.writeHead(refusal.status, { "Content-Type": "application/json", ...refusal.headers });
  res.end(body);
}

/** The body as text, or null when it exceeds `max` bytes (the rest is drained, unread). */
function readBody(req: IncomingMessage, max: number): Promise<string | null> {
  if (Number(req.headers["content-length"]) > max) {
    req.resume();
    return Promise.resolve(null);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) return void chunks.push(chunk);
      req.off("data", onData);
      req.resume();
      resolve(null);
    };
    req.on("data", onData);
    req.on("end", () => resolve(size <= max ? Buffer.concat(chunks).toString("utf8") : null));
    req.on("error", reject);
  });
}

const isInitialize = (message: unknown) =>
  typeof message === "object" && message !== null && (message as { method?: unknown }).method === "initialize";

// speky:speky-ts#MCP-HTTP
export class McpHttpServer {
  private readonly http: http.Server;
  private readonly sessions = new Map<string, Session>();
  /** Sessions being opened (their `initialize` not answered yet): they count against the bound. */
  private opening = 0;
  private inFlight = 0;
  private rule: HostRule | null = null;

  constructor(private readonly options: HttpServerOptions) {
    this.http = http.createServer((req, res) => {
      this.handle(req, res).catch((e: Error) => {
        options.warn(`http: ${e.message}`);
        reply(res, error(500, "Internal error"));
      });
    });
    // A client that sends its request slowly holds a socket: the whole request within a minute.
    // An idle connection is kept 30 s, not Node's 5: a client (undici: the server's hint less
    // 1 s) that reuses it as the server closes it gets ECONNRESET, which 200 sessions on a
    // loaded machine met (test/mcp/mcp-http-load.test.ts at load 19); the headers' bound stays
    // above it, as Node asks.
    this.http.keepAliveTimeout = 30_000;
    this.http.headersTimeout = 35_000;
    this.http.requestTimeout = 60_000;
    const { maxSessions, maxRequests } = options.bounds;
    // Each session may hold a stream and pooled connections; beyond this the OS's descriptors are at stake.
    this.http.maxConnections = 4 * maxSessions + maxRequests;
  }

  /** Listens; resolves with the URL of the endpoint (the port chosen when 0 was asked). */
  async listen(): Promise<URL> {
    const { host, port } = this.options.listen;
    await new Promise<void>((resolve, reject) => {
      this.http.once("error", reject);
      this.http.listen(port, host, () => {
        this.http.off("error", reject);
        resolve();
      });
    });
    const actual = (this.http.address() as AddressInfo).port;
    const extra = this.options.allowHosts;
    this.rule = { names: allowedHostNames(host, extra), anyPort: new Set(extra.map(hostName)), port: actual };
    return clientUrl(host, actual);
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  /** The servers of the open sessions (to tell them the resource list changed). */
  servers(): McpServer[] {
    return [...this.sessions.values()].map((s) => s.server);
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => s.transport.close()));
    const closed = new Promise<void>((resolve) => this.http.close(() => resolve()));
    this.http.closeAllConnections();
    await closed;
  }

  /** Why `req` is refused before its body is read, or null. */
  private refusal(req: IncomingMessage): Refusal | null {
    const rule = this.rule;
    if (rule === null) return error(503, "Service unavailable: starting");
    const host = hostRefusal(req.headers, rule);
    if (host) return host;
    if (this.options.token !== null) {
      const token = tokenRefusal(req.headers, this.options.token);
      if (token) return token;
    }
    const path = (req.url ?? "").replace(/\?.*$/s, "");
    if (path !== MCP_PATH) return error(404, `Not found: the MCP endpoint is ${MCP_PATH}`);
    const method = req.method ?? "";
    if (!["GET", "POST", "DELETE"].includes(method)) return error(405, "Method not allowed", { Allow: "GET, POST, DELETE" });
    return null;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refusal = this.refusal(req);
    if (refusal) {
      req.resume();
      return reply(res, refusal);
    }
    const { bounds } = this.options;
    if (req.method !== "GET") {
      // speky:speky-ts#MCP-HTTP-BOUNDS
      if (this.inFlight >= bounds.maxRequests) {
        req.resume();
        return reply(res, error(429, `Too many requests: at most ${bounds.maxRequests} at once; retry shortly`, { "Retry-After": "1" }));
      }
      this.inFlight++;
      res.once("close", () => this.inFlight--);
    }
    const id = req.headers["mcp-session-id"];
    if (req.method !== "POST") {
      const session = typeof id === "string" ? this.sessions.get(id) : undefined;
      if (!session) return reply(res, typeof id === "string" ? notFound() : missingSession());
      return this.pass(session, req, res);
    }
    const text = await readBody(req, bounds.maxBodyBytes);
    if (text === null) {
      return reply(res, error(413, `Payload too large: a request's body is at most ${bounds.maxBodyBytes} bytes`, { Connection: "close" }));
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return reply(res, { status: 400, code: -32700, message: "Parse error: Invalid JSON" });
    }
    // The same lenient `initialize` as on stdio: the SDK's transport must see it as one.
    const message = Array.isArray(body) ? body.map(lenientInitialize) : lenientInitialize(body);
    if (typeof id === "string") {
      const session = this.sessions.get(id);
      return session ? this.pass(session, req, res, message) : reply(res, notFound());
    }
    if (!isInitialize(message)) return reply(res, missingSession());
    if (this.sessions.size + this.opening >= bounds.maxSessions) {
      return reply(
        res,
        error(503, `Too many sessions: at most ${bounds.maxSessions} open at once; close one or retry later`, { "Retry-After": "5" }),
      );
    }
    return this.open(req, res, message);
  }

  /** A new session for an `initialize`; it is kept once the SDK gave it an id. */
  private async open(req: IncomingMessage, res: ServerResponse, message: unknown): Promise<void> {
    this.opening++;
    const server = this.options.newServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => {
        this.sessions.set(sid, session);
        this.options.debug(`session opened (${this.sessions.size} open)`);
      },
    });
    const session: Session = { transport, server, busy: 0, idle: null };
    server.server.onclose = () => this.dropped(transport.sessionId);
    try {
      await connectSession(server, transport, undefined, this.options.warn);
      await this.pass(session, req, res, message);
    } finally {
      this.opening--;
      // The SDK did not take the request as an `initialize` (no session id given): nothing to keep.
      if (transport.sessionId === undefined) await server.close();
    }
  }

  private async pass(session: Session, req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> {
    session.busy++;
    if (session.idle) clearTimeout(session.idle);
    session.idle = null;
    res.once("close", () => {
      if (--session.busy > 0 || !this.sessions.has(session.transport.sessionId ?? "")) return;
      session.idle = setTimeout(() => void session.transport.close(), this.options.bounds.idleMs);
      session.idle.unref();
    });
    await session.transport.handleRequest(req, res, body);
  }

  private dropped(sid: string | undefined): void {
    const session = sid === undefined ? undefined : this.sessions.get(sid);
    if (!session || sid === undefined) return;
    if (session.idle) clearTimeout(session.idle);
    this.sessions.delete(sid);
    this.options.debug(`session closed (${this.sessions.size} open)`);
    if (this.sessions.size === 0) this.options.onNoSession?.();
  }
}

const notFound = (): Refusal => ({ status: 404, code: -32001, message: "Session not found" });
const missingSession = (): Refusal => error(400, "Bad Request: Mcp-Session-Id header is required");
