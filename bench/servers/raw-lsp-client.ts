// A bare LSP client for the latency bench (lsp-latency.ts): Content-Length framed JSON-RPC over
// the server child's pipes, with no client library, so that no client-side work is counted.
import type { ChildProcessWithoutNullStreams } from "node:child_process";

export interface Message {
  id?: number;
  method?: string;
  params?: { uri?: string; version?: number; generation?: number; state?: string; scanned?: boolean; indexed?: boolean } & Record<
    string,
    unknown
  >;
  result?: unknown;
  error?: { code: number; message: string };
}

/** Content-Length framed JSON-RPC: requests by id, notifications to listeners. */
export class RawLspClient {
  private buffer = Buffer.alloc(0);
  private pending = new Map<number, (m: Message) => void>();
  private listeners: ((m: Message) => boolean)[] = [];
  private nextId = 1;

  constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on("data", (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      for (;;) {
        const end = this.buffer.indexOf("\r\n\r\n");
        if (end < 0) return;
        const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, end).toString("ascii"))?.[1]);
        if (this.buffer.length < end + 4 + length) return;
        const message = JSON.parse(this.buffer.subarray(end + 4, end + 4 + length).toString("utf8")) as Message;
        this.buffer = this.buffer.subarray(end + 4 + length);
        this.dispatch(message);
      }
    });
  }

  private dispatch(m: Message): void {
    if (m.method && m.id !== undefined) {
      // A request from the server (codeLens/refresh...): answer null.
      this.write({ jsonrpc: "2.0", id: m.id, result: null });
      return;
    }
    if (m.id !== undefined) {
      this.pending.get(m.id)?.(m);
      this.pending.delete(m.id);
      return;
    }
    this.listeners = this.listeners.filter((l) => !l(m));
  }

  private write(body: object): void {
    const json = Buffer.from(JSON.stringify(body), "utf8");
    this.child.stdin.write(`Content-Length: ${json.length}\r\n\r\n`);
    this.child.stdin.write(json);
  }

  request(method: string, params: object): Promise<Message> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.write({ jsonrpc: "2.0", id, method, params });
    });
  }

  notify(method: string, params: object): void {
    this.write({ jsonrpc: "2.0", method, params });
  }

  /** The next notification passing `test`. */
  next(test: (m: Message) => boolean): Promise<Message> {
    return new Promise((resolve) => {
      this.listeners.push((m) => {
        if (!test(m)) return false;
        resolve(m);
        return true;
      });
    });
  }
}
