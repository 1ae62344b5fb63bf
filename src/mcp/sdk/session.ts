// The MCP lifecycle that the SDK's Server leaves to its user, between a transport (our stdio
// one, or the SDK's Streamable HTTP one: src/mcp/http) and the SDK (a Transport wrapping a
// Transport: the SDK sees an ordinary one; each message's extra information and each answer's
// options, which route it to its HTTP stream, go through unchanged):
// - `initialize` is made lenient (initialize.ts) before the SDK reads it: speky's own test
//   plan (TMCP003) sends no clientInfo, which the SDK's schema refuses;
// - before it, every request but `ping` is refused with -32002 "Server not initialized", as
//   speky answers and as the MCP lifecycle says; requests that come while an `initialize` is
//   being answered wait for that answer (a client may send them in one write), and are
//   refused if it failed;
// - a `tools/call` naming no known tool is a JSON-RPC error (-32602, as the MCP specification
//   shows it), where McpServer would answer an isError result;
// - no error message carries a validator's dump: the SDK sends a ZodError's JSON (30 lines)
//   as the message of -32603; it goes out as -32602 "Invalid params: <field>: <problem>";
// - a `completion/complete` for a prompt or a resource template we do not serve completes
//   nothing (an empty list), where McpServer answers -32602: the official conformance suite's
//   `completion-complete` asks any server to complete `test_prompt_with_arguments` and accepts
//   an empty list ("completion support can be minimal"), and there is nothing to suggest for a
//   name that is not ours. docs/mcp-http.md.
// A session whose `initialize` was answered early (initialize.ts) replays that request into
// the SDK under an id of its own, so that the SDK's state is what it would have been, and
// drops the SDK's answer, which is compared with the one sent.
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";
import { escapeControl } from "../../diagnostics.js";
import { quote } from "../../quote.js";
import { earlyInitializeAnswer, lenientInitialize } from "./initialize.js";

const NOT_INITIALIZED = -32002;
/** The SDK's answer when there is nothing to complete. */
const EMPTY_COMPLETION = { completion: { values: [], hasMore: false } };
const INVALID_PARAMS = -32602;

/** The id of the replayed early `initialize`: a string no client of ours sends. */
const REPLAY_ID = "\u0000speky-ts early initialize";

type Id = string | number;
type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === "object" && v !== null && !Array.isArray(v);

export interface SessionOptions {
  /** The tools a `tools/call` may name. */
  tools: readonly string[];
  /** The prompts' names and the resource templates' URIs a `completion/complete` may name; any other completes nothing. */
  completable?: { prompts: readonly string[]; templates: readonly string[] };
  /** The `initialize` request answered before the SDK was loaded, if one was. */
  earlyRequest?: unknown;
  /** Told when the SDK's answer to the replayed request is not the one sent early. */
  warn?: (message: string) => void;
}

export class McpSession implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  private state: "new" | "initializing" | "ready" = "new";
  /** Ids of the `initialize` requests given to the SDK and not answered yet. */
  private initializing = new Set<Id>();
  /** Messages that came while an `initialize` was being answered, in order. */
  private held: { message: JSONRPCMessage; extra: MessageExtraInfo | undefined }[] = [];
  private readonly tools: ReadonlySet<string>;

  constructor(
    private readonly inner: Transport,
    private readonly options: SessionOptions,
  ) {
    this.tools = new Set(options.tools);
    // Whoever listened to the transport's errors before the SDK was loaded goes on hearing them.
    this.onerror = inner.onerror;
  }

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => this.receive(message, extra);
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => this.onclose?.();
    if (this.options.earlyRequest !== undefined) {
      this.state = "ready";
      const request = lenientInitialize(this.options.earlyRequest) as JSONRPCMessage;
      this.onmessage?.({ ...request, id: REPLAY_ID } as JSONRPCMessage);
    }
    await this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ("id" in message && message.id === REPLAY_ID) {
      this.checkReplay(message);
      return Promise.resolve();
    }
    const id = "id" in message ? message.id : undefined;
    if (id !== undefined && ("result" in message || "error" in message) && this.initializing.delete(id)) {
      this.initialized("result" in message);
    }
    return this.inner.send(readableError(message), options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private receive(raw: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const message = lenientInitialize(raw);
    // Notifications and the client's answers stay in order with the requests held.
    const isRequest = "method" in message && "id" in message;
    const refusal = isRequest ? this.refusal(message) : this.state === "initializing" ? "hold" : null;
    if (refusal === "hold") this.held.push({ message, extra });
    else if (refusal) this.refuse(refusal.id, refusal.code, refusal.message);
    else if (isRequest && this.completesNothing(message)) this.answer(message.id, EMPTY_COMPLETION);
    else this.onmessage?.(message, extra);
  }

  /** Whether a request goes to the SDK (null), waits for an `initialize` being answered, or is refused. */
  private refusal(
    request: JSONRPCMessage & { id: Id; method: string; params?: unknown },
  ): "hold" | { id: Id; code: number; message: string } | null {
    const { id, method } = request;
    if (method === "ping") return null;
    if (method === "initialize") {
      if (this.state !== "ready") {
        this.state = "initializing";
        this.initializing.add(id);
      }
      return null;
    }
    // speky:speky-ts#MCP-BEFORE-INITIALIZE
    if (this.state === "initializing") return "hold";
    if (this.state === "new") return { id, code: NOT_INITIALIZED, message: "Server not initialized" };
    if (method !== "tools/call") return null;
    const name = isPlain(request.params) ? request.params.name : undefined;
    if (typeof name !== "string") return { id, code: INVALID_PARAMS, message: "Invalid params: tools/call needs the tool's name" };
    // speky:speky-ts#MCP-UNKNOWN-TOOL
    return this.tools.has(name) ? null : { id, code: INVALID_PARAMS, message: `Unknown tool: ${quote(name)}` };
  }

  /** An `initialize` was answered: the held messages go on, or are refused if it failed. */
  private initialized(ok: boolean): void {
    if (ok) this.state = "ready";
    else if (this.initializing.size === 0) this.state = "new";
    if (this.state === "initializing") return;
    const held = this.held;
    this.held = [];
    for (const { message, extra } of held) this.receive(message, extra);
  }

  private refuse(id: Id, code: number, message: string): void {
    this.inner.send({ jsonrpc: "2.0", id, error: { code, message } }).catch((error: Error) => this.onerror?.(error));
  }

  private answer(id: Id, result: Plain): void {
    this.inner.send({ jsonrpc: "2.0", id, result }).catch((error: Error) => this.onerror?.(error));
  }

  // speky:speky-ts#MCP-COMPLETION-UNKNOWN
  /** A `completion/complete` whose ref names a prompt or a resource template that is not served. */
  private completesNothing(request: JSONRPCMessage & { method: string; params?: unknown }): boolean {
    const served = this.options.completable;
    if (request.method !== "completion/complete" || served === undefined || this.state !== "ready") return false;
    const ref = isPlain(request.params) ? request.params.ref : undefined;
    if (!isPlain(ref)) return false;
    if (ref.type === "ref/prompt" && typeof ref.name === "string") return !served.prompts.includes(ref.name);
    if (ref.type === "ref/resource" && typeof ref.uri === "string") return !served.templates.includes(ref.uri);
    return false;
  }

  private checkReplay(answer: JSONRPCMessage): void {
    const sent = earlyInitializeAnswer(this.options.earlyRequest) as { result: unknown } | null;
    const result = "result" in answer ? answer.result : undefined;
    if (JSON.stringify(result) !== JSON.stringify(sent?.result)) this.options.warn?.("the early initialize answer differs from the SDK's");
  }
}

/** The SDK's McpError puts "MCP error <code>: " in its message (the client's adds it again). */
const ERROR_PREFIX = /^MCP error -?\d+: /;

// speky:speky-ts#INSTALL-SCHEMA-PORTABLE
// speky:speky-ts#MCP-READABLE-ERRORS
/**
 * The message as a person reads it: an error without the McpError prefix (once is the
 * client's), a validator's JSON dump turned into "Invalid params: <field>: <problem>" (-32602),
 * and an SDK-made isError result's text without the prefix either.
 */
export function readableError(message: JSONRPCMessage): JSONRPCMessage {
  if ("error" in message) {
    const text = message.error.message.replace(ERROR_PREFIX, "");
    const issues = validatorIssues(text);
    if (issues !== null) return { ...message, error: { code: INVALID_PARAMS, message: issues } };
    return text === message.error.message ? message : { ...message, error: { ...message.error, message: text } };
  }
  if (!("result" in message) || message.result.isError !== true || !Array.isArray(message.result.content)) return message;
  const content = message.result.content as { type: string; text?: string }[];
  if (!content.some((c) => c.type === "text" && ERROR_PREFIX.test(c.text ?? ""))) return message;
  const cleaned = content.map((c) => (c.type === "text" && c.text ? { ...c, text: c.text.replace(ERROR_PREFIX, "") } : c));
  return { ...message, result: { ...message.result, content: cleaned } };
}

const MAX_ISSUES = 3;
const MAX_SEGMENT = 40;

/** "Invalid params: a.b: problem; c: problem" for a ZodError's message (a JSON list of issues); null for any other text. */
function validatorIssues(text: string): string | null {
  if (!text.startsWith("[")) return null;
  let issues: unknown;
  try {
    issues = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(issues) || issues.length === 0) return null;
  if (!issues.every((i) => isPlain(i) && Array.isArray(i.path) && typeof i.message === "string")) return null;
  const described = (issues as { path: unknown[]; message: string }[]).slice(0, MAX_ISSUES).map((i) => `${fieldOf(i.path)}: ${i.message}`);
  const more = issues.length > MAX_ISSUES ? `; and ${issues.length - MAX_ISSUES} more` : "";
  return escapeControl(`Invalid params: ${described.join("; ")}${more}`);
}

/** `capabilities.roots`, `items[2]`: the field an issue is about, each part bounded. */
function fieldOf(path: unknown[]): string {
  const parts = path[0] === "params" ? path.slice(1) : path;
  if (parts.length === 0) return "params";
  return parts
    .slice(0, 8)
    .map((p, i) => {
      if (typeof p === "number") return `[${p}]`;
      const name = String(p);
      const part = name.length > MAX_SEGMENT ? `${name.slice(0, MAX_SEGMENT)}…` : name;
      return i === 0 ? part : `.${part}`;
    })
    .join("");
}
