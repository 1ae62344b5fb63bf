// `speky-mcp --http [HOST:]PORT`: the options, the token rule and the serving loop of the HTTP
// server (src/mcp/http); mcp.ts loads the model and watches it as for stdio. docs/mcp-http.md.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { UsageError } from "../cli/args.js";
import { heapAfterCollection } from "../heap.js";
import type { LiveModel } from "../live/live-model.js";
import { isLoopback, type ListenAddress } from "../mcp/http/address.js";
import { readToken, TOKEN_ENV } from "../mcp/http/token.js";
import type { Logger } from "../mcp/log.js";

export interface HttpInvocation {
  listen: ListenAddress;
  tokenFile?: string;
  allowHosts: string[];
}

export const HTTP_OPTIONS = [
  { name: "http", value: "[HOST:]PORT", help: "serve MCP's Streamable HTTP at http://HOST:PORT/mcp (HOST: 127.0.0.1; PORT 0: any)" },
  { name: "token-file", value: "FILE", help: `with --http: the bearer token every request must carry (or ${TOKEN_ENV})` },
  { name: "allow-host", value: "NAME", repeat: true, help: "with --http: a Host name to accept besides this machine's (a proxy's)" },
];

// speky:speky-ts#MCP-HTTP-TOKEN
/** The token every request must carry, or null; a UsageError when the server would listen beyond loopback without one. */
export function httpToken(invocation: HttpInvocation, env: NodeJS.ProcessEnv): string | null {
  const token = readToken(invocation.tokenFile, env);
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
    bounds: DEFAULT_BOUNDS,
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
