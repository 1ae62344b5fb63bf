// What a request must show before any of it is read: a Host (and, from a browser, an Origin)
// that names this server, and the bearer token when one is set. docs/mcp-http.md.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { hostName } from "./address.js";

export interface Refusal {
  status: number;
  /** The JSON-RPC error code of the body. */
  code: number;
  message: string;
  headers?: Record<string, string>;
}

export interface HostRule {
  /** The names of allowedHostNames, with the server's port. */
  names: ReadonlySet<string>;
  /** Names given by --allow-host: any port (a reverse proxy in front). */
  anyPort: ReadonlySet<string>;
  port: number;
}

/** `name:port`, `[v6]:port` or `name` (port 80); null when it is none of these. */
function splitHost(text: string, defaultPort: number): { name: string; port: number } | null {
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]/\s]+)(?::(\d{1,5}))?$/i.exec(text);
  if (!m) return null;
  return { name: hostName(m[1].replace(/^\[(.*)\]$/, "$1")), port: m[2] === undefined ? defaultPort : Number(m[2]) };
}

function allowed(rule: HostRule, host: { name: string; port: number } | null): boolean {
  if (host === null) return false;
  if (rule.anyPort.has(host.name)) return true;
  return rule.names.has(host.name) && host.port === rule.port;
}

const forbidden = (message: string): Refusal => ({ status: 403, code: -32000, message });

// speky:speky-ts#MCP-HTTP-REBINDING
/** A refusal when the Host header does not name this server, or the Origin header (sent by browsers) is another site. */
export function hostRefusal(headers: IncomingHttpHeaders, rule: HostRule): Refusal | null {
  const host = headers.host;
  if (!host || !allowed(rule, splitHost(host, 80))) return forbidden("Forbidden: the Host header does not name this server");
  const origin = headers.origin;
  if (origin === undefined) return null;
  let url: URL | null = null;
  try {
    url = new URL(origin);
  } catch {
    url = null;
  }
  const scheme = url?.protocol;
  if (!url || (scheme !== "http:" && scheme !== "https:") || !allowed(rule, splitHost(url.host, scheme === "https:" ? 443 : 80))) {
    return forbidden("Forbidden: the Origin header names another site");
  }
  return null;
}

const digest = (text: string) => createHash("sha256").update(text).digest();

// speky:speky-ts#MCP-HTTP-TOKEN
/** A refusal unless the request carries `Authorization: Bearer <token>`; compared in constant time. */
export function tokenRefusal(headers: IncomingHttpHeaders, token: string): Refusal | null {
  const given = /^Bearer +(\S+) *$/i.exec(headers.authorization ?? "")?.[1];
  if (given !== undefined && timingSafeEqual(digest(given), digest(token))) return null;
  return {
    status: 401,
    code: -32000,
    message: "Unauthorized: this server needs 'Authorization: Bearer <token>'",
    headers: { "WWW-Authenticate": 'Bearer realm="speky-mcp"' },
  };
}
