// Where `speky-mcp --http [HOST:]PORT` listens, and which names a request may give in its Host
// and Origin headers (DNS rebinding: a web page whose name was made to resolve to this machine
// sends its own name, which is not among them). docs/mcp-http.md.
import { isIP } from "node:net";
import { hostname, networkInterfaces } from "node:os";
import { quote } from "../../quote.js";

/** An --http option that can't be used, in one line: the command line makes it a usage error (exit 2). */
export class HttpOptionError extends Error {}

export interface ListenAddress {
  /** A name or an address, without brackets (`::1`, not `[::1]`). */
  host: string;
  /** 0: any free port (the one chosen is printed). */
  port: number;
}

export const DEFAULT_HOST = "127.0.0.1";

/** The names of this machine's loopback interface that every server accepts in Host and Origin. */
const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

// speky:speky-ts#MCP-HTTP-LISTEN
/** `PORT`, `HOST:PORT` or `[IPv6]:PORT`, as given to --http. */
export function parseListen(text: string): ListenAddress {
  const bracketed = /^\[([0-9A-Fa-f:.]+)\]:(\d+)$/.exec(text);
  const plain = /^(?:([^:[\]\s]+):)?(\d+)$/.exec(text);
  const match = bracketed ?? plain;
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || !Number.isSafeInteger(port) || port > 65535) {
    throw new HttpOptionError(`--http takes [HOST:]PORT (e.g. 8080, 127.0.0.1:8080, [::1]:0), not ${quote(text)}`);
  }
  return { host: match[1] ?? DEFAULT_HOST, port };
}

/** Whether only this machine can reach `host`: a loopback address or `localhost`. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase();
  if (h === "localhost" || h === "::1") return true;
  return isIP(h) === 4 && h.startsWith("127.");
}

const WILDCARDS = new Set(["0.0.0.0", "::", "0:0:0:0:0:0:0:0"]);

/** `host` as it is written in a Host header: an IPv6 address in brackets, lower case. */
export function hostName(host: string): string {
  const h = host.toLowerCase();
  return isIP(h) === 6 ? `[${h}]` : h;
}

/**
 * The host names (no port) a request may name: the loopback names, the listening host, the
 * names given with --allow-host, and, when listening on every interface, this machine's name and
 * the addresses of its interfaces.
 */
export function allowedHostNames(listen: string, extra: readonly string[]): Set<string> {
  const names = new Set([...LOOPBACK_NAMES, ...extra.map(hostName)]);
  if (!WILDCARDS.has(listen.toLowerCase())) names.add(hostName(listen));
  else {
    names.add(hostname().toLowerCase());
    for (const list of Object.values(networkInterfaces())) {
      for (const info of list ?? []) names.add(hostName(info.address.replace(/%.*$/, "")));
    }
  }
  return names;
}

/** The URL a client on this machine reaches the server at (a wildcard: the loopback address). */
export function clientUrl(host: string, port: number): URL {
  const reachable = WILDCARDS.has(host.toLowerCase()) ? (host.includes(":") ? "::1" : DEFAULT_HOST) : host;
  return new URL(`http://${hostName(reachable)}:${port}/mcp`);
}
