// A stdio transport that answers what the SDK's StdioServerTransport silently drops: a line
// that is not JSON gets a JSON-RPC parse error (-32700, id null), valid JSON that is not a
// JSON-RPC message gets an invalid-request error (-32600), and serving goes on. It also
// reports the end of stdin as a close, so that the server can exit when its client goes away.
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

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

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
  ) {}

  private readonly onData = (chunk: Buffer | string) => this.receive(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  private readonly onEnd = () => void this.close();
  private readonly onStreamError = (error: Error) => this.onerror?.(error);
  // speky:speky-ts#SEC-EPIPE
  /** stdout failing (EPIPE: the client went away) ends the session like stdin's end does. */
  private readonly onOutputError = (error: Error) => {
    this.onerror?.(error);
    void this.close();
  };

  async start(): Promise<void> {
    this.input.on("data", this.onData);
    this.input.on("end", this.onEnd);
    this.input.on("error", this.onStreamError);
    // A client gone away makes stdout fail (EPIPE): report it and close, rather than crash
    // on it or linger until stdin ends (which it may never do).
    this.output.on("error", this.onOutputError);
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
      if (!skipped) this.handleLine(line);
      start = nl + 1;
    }
    if (start < chunk.length && !this.skippingLongLine) {
      this.pending.push(chunk.subarray(start));
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > MAX_LINE_BYTES) {
        this.pending = [];
        this.pendingBytes = 0;
        this.skippingLongLine = true;
        this.reply(null, ErrorCode.ParseError, `Parse error: message longer than ${MAX_LINE_BYTES} bytes`);
      }
    }
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
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      this.reply(requestIdOf(value), ErrorCode.InvalidRequest, "Invalid Request: not a JSON-RPC 2.0 message");
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private reply(id: string | number | null, code: number, message: string): void {
    const response: ErrorReply = { jsonrpc: "2.0", id, error: { code, message } };
    this.write(JSON.stringify(response) + "\n").catch((error: Error) => this.onerror?.(error));
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
    return this.write(JSON.stringify(withoutErrorPrefix(message)) + "\n");
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
    this.onclose?.();
  }
}

function requestIdOf(value: unknown): string | number | null {
  if (typeof value !== "object" || value === null || !("id" in value)) return null;
  const id = (value as { id: unknown }).id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/**
 * The SDK's McpError (thrown for an unknown resource URI, for instance) puts "MCP error <code>: "
 * in its message, and the client's McpError adds it again: stripped here, once, for every error.
 */
// speky:speky-ts#INSTALL-SCHEMA-PORTABLE
function withoutErrorPrefix(message: JSONRPCMessage): JSONRPCMessage {
  if (!("error" in message)) return message;
  const prefix = `MCP error ${message.error.code}: `;
  if (!message.error.message.startsWith(prefix)) return message;
  return { ...message, error: { ...message.error, message: message.error.message.slice(prefix.length) } };
}
