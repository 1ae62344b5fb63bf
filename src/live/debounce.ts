// The live model's debounce: a burst of changes makes one reload, at most `maxDelayMs` after
// the burst's first change however long it lasts.

export class Debounce {
  private timer: NodeJS.Timeout | null = null;
  /** When the first change not yet acted on was seen. */
  private pendingSince: number | null = null;

  constructor(
    readonly quietMs: number,
    private readonly maxDelayMs: number,
  ) {}

  /** A change: `fire` runs after `quietMs` without another one, or `maxDelayMs` after the first. */
  poke(fire: () => void): void {
    const now = Date.now();
    this.pendingSince ??= now;
    if (this.timer) clearTimeout(this.timer);
    const delay = Math.max(0, Math.min(this.quietMs, this.pendingSince + this.maxDelayMs - now));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.pendingSince = null;
      fire();
    }, delay);
  }

  /** A change waits for its `fire`. */
  get pending(): boolean {
    return this.timer !== null;
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pendingSince = null;
  }
}
