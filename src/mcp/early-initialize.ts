// The answer to a plain `initialize`, given before the MCP SDK is loaded. Loading the SDK (zod
// 3 and 4, ajv, the SDK's own schemas) and our tools costs about a third of the time from
// spawn to the answer on a large project; none of it is needed to say who we are. So main.ts
// loads the specs, answers a first `initialize` it recognises here, starts the scan, and only
// then loads the SDK, which takes over the session with the client's request replayed into it
// (so its state is what it would have been).
// "Plain" is a subset of what the SDK accepts, checked field by field; anything else (an
// unknown shape, `_meta`, a capability the SDK reshapes) gets no early answer: the SDK answers
// it once loaded, as before. test/mcp-early-initialize.test.ts compares both answers byte for
// byte on plain and random requests.
import { ANNOUNCED_CAPABILITIES, INSTRUCTIONS, LATEST_PROTOCOL_VERSION, SERVER_INFO, SUPPORTED_PROTOCOL_VERSIONS } from "./identity.js";

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

// speky:speky-ts#MCP-BACKGROUND-SCAN
/** The SDK's answer to a plain `initialize` (the same keys in the same order); null for any other message. */
export function earlyInitializeAnswer(message: unknown): object | null {
  if (!isPlainInitialize(message)) return null;
  const requested = message.params.protocolVersion;
  const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
  return {
    result: { protocolVersion, capabilities: ANNOUNCED_CAPABILITIES, serverInfo: SERVER_INFO, instructions: INSTRUCTIONS },
    jsonrpc: "2.0",
    id: message.id,
  };
}
