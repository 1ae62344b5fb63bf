// A stdio transport that answers what the SDK's StdioServerTransport silently drops: a line
// that is not JSON gets a JSON-RPC parse error (-32700, id null), valid JSON that is not a
// JSON-RPC message gets an invalid-request error (-32600), and serving goes on. It also
// reports the end of stdin as a close, so that the server can exit when its client goes away.
// It can listen before the SDK is loaded (`listenEarly`): it then answers a plain first
// `initialize` itself (initialize.ts) and keeps everything else, in order, for the SDK.
// The MCP lifecycle on top of these lines (what may come before `initialize`, unknown tools,
// error texts) is session.ts's.
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { boundedEcho } from "../answers/bounded-errors.js";

// The SDK's ErrorCode values, here so that this module loads without the SDK.
const ErrorCode = { ParseError: -32700, InvalidRequest: -32600 } as const;
type MessageSchema = typeof import("@modelcontextprotocol/sdk/types.js")["JSONRPCMessageSchema"];

const NEWLINE = 0x0a;
/** A line longer than this is answered with a parse error and skipped, not buffered forever. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

type ErrorReply = { jsonrpc: "2.0"; id: string | number | null; error: { code: number; message: string } };

export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skippingLongLine = false;
  private closed = false;
  /** While stdout is full: one wait for its drain, shared by every write meanwhile. */
  private drained: Promise<void> | null = null;
  /** Set by start(): the SDK is loaded, messages go to it. */
  private schema: MessageSchema | null = null;
  /** Until start(): what stdin brought, to be handled in order once started. */
  private backlog: (() => void)[] = [];
  private listening = false;
  private closedBeforeStart = false;
  /** Until start(): answers the first line, or says it cannot (null); see listenEarly. */
  private earlyAnswer: ((message: unknown) => object | null) | null = null;
  private firstLineSeen = false;
  /** The request answered before start(), for the SDK to replay into its state. */
  earlyRequest: unknown = undefined;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
  ) {}

  private readonly onData = (chunk: Buffer | string) => this.receive(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  private readonly onEnd = () => (this.schema ? void this.close() : this.backlog.push(() => void this.close()));
  private readonly onStreamError = (error: Error) => (this.schema ? this.onerror?.(error) : this.backlog.push(() => this.onerror?.(error)));
  // speky:speky-ts#SEC-EPIPE
  /** stdout failing (EPIPE: the client went away) ends the session like stdin's end does. */
  private readonly onOutputError = (error: Error) => {
    this.onerror?.(error);
    void this.close();
  };

  /**
   * Reads stdin before the SDK is loaded: lines are kept for start(). Once `answer` is given
   * (answerEarly), a first line it answers is answered at once instead.
   */
  listenEarly(): void {
    this.listen();
  }

  /** Answers the first line with `answer` if it gives one (now, or when the line comes before start()). */
  answerEarly(answer: (message: unknown) => object | null): void {
    if (this.schema || this.firstLineSeen) return;
    this.earlyAnswer = answer;
    const first = this.backlog[0] as (() => void) & { line?: string };
    if (first?.line !== undefined && this.tryEarly(first.line)) this.backlog.shift();
  }

  /**
   * Ends the early answers (a first line coming later waits for the SDK) and gives the request
   * answered early, if one was: the SDK must replay it before it starts.
   */
  endEarly(): unknown {
    this.earlyAnswer = null;
    return this.earlyRequest;
  }

  /** Answers `line` early if it is the plain request `earlyAnswer` knows; true if answered. */
  private tryEarly(raw: string): boolean {
    this.firstLineSeen = true;
    const answer = this.earlyAnswer;
    this.earlyAnswer = null;
    if (!answer) return false;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return false;
    }
    const reply = answer(value);
    if (reply === null) return false;
    this.earlyRequest = value;
    this.write(`${JSON.stringify(reply)}\n`).catch((error: Error) => this.onerror?.(error));
    return true;
  }

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    this.input.on("data", this.onData);
    this.input.on("end", this.onEnd);
    this.input.on("error", this.onStreamError);
    // A client gone away makes stdout fail (EPIPE): report it and close, rather than crash
    // on it or linger until stdin ends (which it may never do).
    this.output.on("error", this.onOutputError);
  }

  async start(): Promise<void> {
    this.schema = (await import("@modelcontextprotocol/sdk/types.js")).JSONRPCMessageSchema;
    if (!this.closed) this.listen();
    const backlog = this.backlog;
    this.backlog = [];
    for (const handle of backlog) handle();
    if (this.closedBeforeStart) this.onclose?.();
  }

  private receive(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      this.pending.push(chunk.subarray(start, nl));
      const line = Buffer.concat(this.pending).toString("utf8");
      const skipped = this.skippingLongLine;
      this.pending = [];
      this.pendingBytes = 0;
      this.skippingLongLine = false;
      if (!skipped) this.deliver(line);
      start = nl + 1;
    }
    if (start < chunk.length && !this.skippingLongLine) {
      this.pending.push(chunk.subarray(start));
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > MAX_LINE_BYTES) {
        this.pending = [];
        this.pendingBytes = 0;
        this.skippingLongLine = true;
        const tooLong = () => this.reply(null, ErrorCode.ParseError, `Parse error: message longer than ${MAX_LINE_BYTES} bytes`);
        if (this.schema) tooLong();
        else this.backlog.push(tooLong);
      }
    }
  }

  /** A line to the SDK, or before it is loaded: answered early, or kept. */
  private deliver(line: string): void {
    if (this.schema) {
      this.handleLine(line);
      return;
    }
    if (line.trim() === "") return; // as handleLine does
    if (this.earlyAnswer && !this.firstLineSeen && this.backlog.length === 0 && this.tryEarly(line)) return;
    this.backlog.push(Object.assign(() => this.handleLine(line), { line }));
  }

  private handleLine(raw: string): void {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.reply(null, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`);
      return;
    }
    const parsed = this.schema!.safeParse(value);
    if (!parsed.success) {
      this.reply(requestIdOf(value), ErrorCode.InvalidRequest, "Invalid Request: not a JSON-RPC 2.0 message");
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private reply(id: string | number | null, code: number, message: string): void {
    const response: ErrorReply = { jsonrpc: "2.0", id, error: { code, message } };
    this.write(`${JSON.stringify(response)}\n`).catch((error: Error) => this.onerror?.(error));
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.output.write(text, (error) => error && reject(error))) resolve();
      else {
        // One listener however many answers queue up (one each was a listener-leak warning
        // on stderr past ten, with a client that reads slowly).
        this.drained ??= new Promise<void>((drain) =>
          this.output.once("drain", () => {
            this.drained = null;
            drain();
          }),
        );
        void this.drained.then(resolve);
      }
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.resolve();
    return this.write(`${JSON.stringify(boundedEcho(message))}\n`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    this.input.off("error", this.onStreamError);
    this.input.pause();
    this.pending = [];
    // Waiters for a drain that will never come must not keep the session alive.
    this.drained = null;
    // Before start() (stdout failed under an early answer) the SDK is told once it connects.
    if (this.schema) this.onclose?.();
    else this.closedBeforeStart = true;
  }
}

function requestIdOf(value: unknown): string | number | null {
  if (typeof value !== "object" || value === null || !("id" in value)) return null;
  const id = (value as { id: unknown }).id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}
