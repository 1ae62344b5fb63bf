// A progress line on stderr for a scan that takes more than a second, on a terminal only:
// silent in pipes, CI logs, and under an MCP client.

import { nowMs } from "../../clock.js";
import { grouped } from "../../quote.js";

const DELAY_MS = 1000;
const EVERY_MS = 200;

export class Progress {
  private done = 0;
  private shown = false;
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly started = nowMs();

  constructor(
    private readonly total: number,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {
    if (!stream.isTTY || total === 0) return;
    this.timer = setInterval(() => this.draw(), EVERY_MS).unref();
  }

  add(files: number): void {
    this.done += files;
  }

  private drawn = -1;

  private draw(): void {
    if (nowMs() - this.started < DELAY_MS || this.done === this.drawn) return;
    this.shown = true;
    this.drawn = this.done;
    const percent = Math.floor((100 * this.done) / this.total);
    this.stream.write(`\r\x1b[Kspeky: scanning ${grouped(this.done)}/${grouped(this.total)} files (${percent}%)`);
  }

  /** Removes the line, if it was ever drawn. */
  end(): void {
    clearInterval(this.timer);
    if (this.shown) this.stream.write("\r\x1b[K");
  }
}
