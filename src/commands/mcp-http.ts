// `speky-mcp --http [HOST:]PORT`: the options, the token rule and the serving loop of the HTTP
// server (src/mcp/http); mcp.ts loads the model and watches it as for stdio. docs/mcp-http.md.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { listOption, type ParsedArgs, stringOption, UsageError } from "../cli/args.js";
import { heapAfterCollection } from "../heap.js";
import type { LiveModel } from "../live/live-model.js";
import { HttpOptionError, isLoopback, type ListenAddress, parseListen } from "../mcp/http/address.js";
import type { HttpBounds } from "../mcp/http/http-server.js";
import { readToken, TOKEN_ENV } from "../mcp/http/token.js";
import type { Logger } from "../mcp/log.js";
import { quote } from "../quote.js";

export interface HttpInvocation {
  listen: ListenAddress;
  tokenFile?: string;
  allowHosts: string[];
  /** The bounds given on the command line; the others are DEFAULT_BOUNDS'. */
  bounds: Partial<HttpBounds>;
}

export const HTTP_OPTIONS = [
  { name: "http", value: "[HOST:]PORT", help: "serve MCP's Streamable HTTP at http://HOST:PORT/mcp (HOST: 127.0.0.1; PORT 0: any)" },
  { name: "token-file", value: "FILE", help: `with --http: the bearer token every request must carry (or ${TOKEN_ENV})` },
  { name: "allow-host", value: "NAME", repeat: true, help: "with --http: a Host name to accept besides this machine's (a proxy's)" },
  { name: "max-sessions", value: "N", help: "with --http: sessions open at once (default 256; beyond: 503)" },
  { name: "max-requests", value: "N", help: "with --http: requests answered at once (default 256; beyond: 429)" },
];

const HTTP_ONLY = ["token-file", "allow-host", "max-sessions", "max-requests"];

/** A bound given as N: a whole number from 1 to 100,000. */
function bound(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 100_000)
    throw new UsageError(`--${name} takes a whole number from 1 to 100000, not ${quote(text)}`);
  return n;
}

/** What `read` gives; its HttpOptionError as the command line's usage error (exit 2). */
function asUsage<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw error instanceof HttpOptionError ? new UsageError(error.message) : error;
  }
}

/** The --http options, or undefined without --http (a UsageError if one of its options is given alone). */
export function httpInvocation(args: ParsedArgs): HttpInvocation | undefined {
  const listen = stringOption(args, "http");
  if (listen === undefined) {
    const alone = HTTP_ONLY.find((name) => args.options.has(name));
    if (alone) throw new UsageError(`--${alone} goes with --http`);
    return undefined;
  }
  const tokenFile = stringOption(args, "token-file");
  const maxSessions = bound("max-sessions", stringOption(args, "max-sessions"));
  const maxRequests = bound("max-requests", stringOption(args, "max-requests"));
  return {
    listen: asUsage(() => parseListen(listen)),
    allowHosts: listOption(args, "allow-host"),
    ...(tokenFile === undefined ? {} : { tokenFile }),
    bounds: { ...(maxSessions ? { maxSessions } : {}), ...(maxRequests ? { maxRequests } : {}) },
  };
}

// speky:speky-ts#MCP-HTTP-TOKEN
/** The token every request must carry, or null; a UsageError when the server would listen beyond loopback without one. */
export function httpToken(invocation: HttpInvocation, env: NodeJS.ProcessEnv): string | null {
  const token = asUsage(() => readToken(invocation.tokenFile, env));
  const { host } = invocation.listen;
  if (token === null && !isLoopback(host)) {
    throw new UsageError(
      `--http ${host}: listening beyond loopback needs a bearer token (--token-file FILE, or the environment variable ${TOKEN_ENV})`,
    );
  }
  return token;
}

export interface HttpServing {
  invocation: HttpInvocation;
  token: string | null;
  verification: boolean;
  log: Logger;
  /** Called with the getter of the servers of every open session, before listening. */
  follow: (servers: () => McpServer[]) => void;
  startScan: () => void;
}

/** Serves until SIGINT or SIGTERM; 0, or 1 when the address cannot be listened on. */
export async function serveHttp(live: LiveModel, serving: HttpServing): Promise<number> {
  const { log, invocation } = serving;
  const [{ createServer }, { DEFAULT_BOUNDS, McpHttpServer }] = await Promise.all([
    import("../mcp/server.js"),
    import("../mcp/http/http-server.js"),
  ]);
  const server = new McpHttpServer({
    listen: invocation.listen,
    token: serving.token,
    allowHosts: invocation.allowHosts,
    bounds: { ...DEFAULT_BOUNDS, ...invocation.bounds },
    newServer: () =>
      createServer(
        () => live.current,
        () => live.snapshot(),
        { verification: serving.verification },
      ),
    warn: (m) => log.warn(m),
    debug: (m) => log.debug(m),
    onNoSession: () => log.debug(`no session open; heap ${(heapAfterCollection() / 2 ** 20).toFixed(1)} MB after a full collection`),
  });
  serving.follow(() => server.servers());
  let url: URL;
  try {
    url = await server.listen();
  } catch (error) {
    log.error(`cannot listen on ${invocation.listen.host}:${invocation.listen.port}: ${(error as Error).message}`);
    return 1;
  }
  // Always printed, --quiet or not: with port 0 it is the only way to know where to connect.
  process.stderr.write(`speky-mcp: listening on ${url.href}${serving.token === null ? "" : " (bearer token required)"}\n`);
  serving.startScan();
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await server.close();
  live.stopWatching();
  log.debug("stopped by a signal, exiting");
  return 0;
}
