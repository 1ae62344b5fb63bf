// `initialize`, as speky-mcp reads it and, for a plain one, answers it before the MCP SDK is
// loaded. Loading the SDK (zod 3 and 4, ajv, the SDK's own schemas) and our tools costs most of
// the time from spawn to the answer (the early answer comes at 0.49x on a small project, 0.88x
// on 30,000 items: pin.ts); none of it is needed to say who we are.
// So main.ts loads the specs, answers a first `initialize` it recognises here, starts the scan,
// and only then loads the SDK, which takes over the session with the client's request replayed
// into it (session.ts), so that its state is what it would have been.
// "Plain" is a subset of what the SDK accepts, checked field by field; anything else (an
// unknown shape, `_meta`, a capability the SDK reshapes) gets no early answer: the SDK answers
// it once loaded. test/mcp/mcp-early-initialize.test.ts compares both answers byte for byte on
// plain and random requests.
// Lenient as speky is. A missing clientInfo (speky's own test plan TMCP003 sends none), a
// clientInfo without name or version, missing capabilities or protocolVersion are filled in
// before anything reads the request; a field of the wrong type is still refused, in words.
import { INSTRUCTIONS, SERVER_INFO } from "../identity.js";
import { ANNOUNCED_CAPABILITIES, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "./pin.js";

type Plain = Record<string, unknown>;

const isPlain = (v: unknown): v is Plain =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** Every key of `v` is among `allowed`, and none is the prototype's name. */
const keysIn = (v: Plain, allowed: readonly string[]) => Object.keys(v).every((k) => allowed.includes(k));

const optional = (v: unknown, test: (x: unknown) => boolean) => v === undefined || test(v);
const isString = (v: unknown) => typeof v === "string";
const isEmptyObject = (v: unknown) => isPlain(v) && Object.keys(v).length === 0;

/** Client capabilities, as common clients send them: roots, sampling and elicitation in their plain forms. */
function plainCapabilities(v: unknown): boolean {
  if (!isPlain(v) || !keysIn(v, ["roots", "sampling", "elicitation"])) return false;
  const { roots, sampling, elicitation } = v;
  return (
    optional(roots, (r) => isPlain(r) && keysIn(r, ["listChanged"]) && optional(r.listChanged, (x) => typeof x === "boolean")) &&
    optional(
      sampling,
      (s) => isPlain(s) && keysIn(s, ["context", "tools"]) && optional(s.context, isEmptyObject) && optional(s.tools, isEmptyObject),
    ) &&
    // The SDK rewrites an empty elicitation capability to {form: {}}: its state keeps the SDK's own
    // reading (replayed), and the answer does not depend on it.
    optional(
      elicitation,
      (e) => isPlain(e) && keysIn(e, ["form", "url"]) && optional(e.form, isEmptyObject) && optional(e.url, isEmptyObject),
    )
  );
}

function plainClientInfo(v: unknown): boolean {
  return (
    isPlain(v) &&
    keysIn(v, ["name", "version", "title", "websiteUrl", "description"]) &&
    isString(v.name) &&
    isString(v.version) &&
    optional(v.title, isString) &&
    optional(v.websiteUrl, isString) &&
    optional(v.description, isString)
  );
}

/** A JSON-RPC request for `initialize` that the SDK accepts as it is. */
export function isPlainInitialize(message: unknown): message is { id: string | number; params: { protocolVersion: string } } {
  if (!isPlain(message) || !keysIn(message, ["jsonrpc", "id", "method", "params"])) return false;
  const { jsonrpc, id, method, params } = message;
  if (jsonrpc !== "2.0" || method !== "initialize") return false;
  if (!(typeof id === "string" || Number.isSafeInteger(id))) return false;
  if (!isPlain(params) || !keysIn(params, ["protocolVersion", "capabilities", "clientInfo"])) return false;
  return isString(params.protocolVersion) && plainCapabilities(params.capabilities) && plainClientInfo(params.clientInfo);
}

/** What a client that sends no clientInfo (or one without name or version) is known as. */
export const UNNAMED_CLIENT = { name: "unknown", version: "unknown" };

// speky:speky-ts#MCP-LENIENT-INITIALIZE
/**
 * An `initialize` request with its missing fields filled in (clientInfo, its name and version,
 * capabilities, protocolVersion: the latest); any other message, and an `initialize` missing
 * nothing, is returned as it is. Fields present with a wrong type are left for the SDK to refuse.
 */
export function lenientInitialize<T>(message: T): T {
  if (!isPlain(message) || message.method !== "initialize") return message;
  if (message.params !== undefined && !isPlain(message.params)) return message;
  const params: Plain = message.params ?? {};
  const info = params.clientInfo;
  const fillInfo = info === undefined || (isPlain(info) && (info.name === undefined || info.version === undefined));
  if (params.protocolVersion !== undefined && params.capabilities !== undefined && !fillInfo) return message;
  const filled: Plain = {
    ...params,
    protocolVersion: params.protocolVersion ?? LATEST_PROTOCOL_VERSION,
    capabilities: params.capabilities ?? {},
  };
  if (fillInfo) {
    const given: Plain = info ?? {};
    filled.clientInfo = { ...given, name: given.name ?? UNNAMED_CLIENT.name, version: given.version ?? UNNAMED_CLIENT.version };
  }
  return { ...message, params: filled } as T;
}

// speky:speky-ts#MCP-BACKGROUND-SCAN
/**
 * The SDK's answer to a plain `initialize` once made lenient (the same keys in the same order);
 * null for any other message.
 */
export function earlyInitializeAnswer(received: unknown): object | null {
  const message = lenientInitialize(received);
  if (!isPlainInitialize(message)) return null;
  const requested = message.params.protocolVersion;
  const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
  return {
    result: { protocolVersion, capabilities: ANNOUNCED_CAPABILITIES, serverInfo: SERVER_INFO, instructions: INSTRUCTIONS },
    jsonrpc: "2.0",
    id: message.id,
  };
}
