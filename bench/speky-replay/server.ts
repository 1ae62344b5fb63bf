// One MCP server as a process spoken to in JSON-RPC lines, for the replay against speky. A
// call is one line out and, for a request, the answer with its id back (for a line that is not
// JSON, the next answer with id null). Every wait is bounded; a server that exits answers
// every pending call with its exit.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Answer, ReplayCall } from "./calls.js";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const ANSWER_MS = 60_000;

export class LineServer {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = "";
  private waiting: { id: unknown; resolve: (answer: Answer) => void } | null = null;
  private exited: number | null | undefined = undefined;
  stderr = "";

  constructor(command: string, args: string[], cwd: string, env: Record<string, string>) {
    this.child = spawn(command, args, { cwd, env: { ...process.env, ...env } });
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => this.receive(chunk));
    this.child.stderr.on("data", (chunk: Buffer) => {
      if (this.stderr.length < 100_000) this.stderr += chunk.toString();
    });
    this.child.on("close", (code) => {
      this.exited = code;
      this.waiting?.resolve({ exited: code, stderr: this.stderr.slice(-2000) });
      this.waiting = null;
    });
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    for (let nl = this.buffer.indexOf("\n"); nl !== -1; nl = this.buffer.indexOf("\n")) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      if (line.trim() === "") continue;
      let answer: Answer;
      try {
        answer = JSON.parse(line) as Answer;
      } catch {
        answer = { unparsable: line.slice(0, 2000) };
      }
      if (this.waiting && (answer.id ?? null) === this.waiting.id) {
        this.waiting.resolve(answer);
        this.waiting = null;
      }
    }
  }

  /** Sends the call's line; for a request, waits for its answer (bounded). */
  exchange(call: ReplayCall): Promise<Answer> {
    if (this.exited !== undefined) return Promise.resolve({ exited: this.exited, stderr: this.stderr.slice(-2000) });
    const line = typeof call.message === "string" ? call.message : JSON.stringify(call.message);
    const answered = new Promise<Answer>((resolve) => {
      if (!call.answered) return resolve({ none: true });
      const timer = setTimeout(() => {
        this.waiting = null;
        resolve({ timeout: ANSWER_MS });
      }, ANSWER_MS);
      const id = typeof call.message === "string" ? null : ((call.message as { id?: unknown }).id ?? null);
      this.waiting = {
        id,
        resolve: (answer) => {
          clearTimeout(timer);
          resolve(answer);
        },
      };
    });
    this.child.stdin.write(`${line}\n`);
    return answered;
  }

  async close(): Promise<void> {
    if (this.exited !== undefined) return;
    const done = new Promise((resolve) => this.child.once("close", resolve));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill(), 5000);
    await done;
    clearTimeout(timer);
  }
}
