// Tools whose answer holds code references or test automation (`waitsForScan` on their
// definition, tool.ts) wait for the first scan of the code sources (the server answers `initialize` before it). While they wait they send
// notifications/progress when the request asked for them (a progressToken); after a bound
// they answer with what is known, marked partial in `_meta`, never silently incomplete.
import type { ServerNotification } from "@modelcontextprotocol/sdk/types.js";
import { nowMs } from "../clock.js";
import type { LiveState } from "../live/state.js";

/** `_meta` key of the note carried by an answer given before the first scan was done. */
export const PARTIAL_META_KEY = "speky-ts/partial";

const DEFAULT_WAIT_MS = 20_000;
/** Fewest milliseconds between two progress notifications of one request. */
const PROGRESS_EVERY_MS = 200;

/** How long a call waits for the first scan: $SPEKY_MCP_SCAN_WAIT_MS (tests), else 20 s. */
export function scanWaitMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SPEKY_MCP_SCAN_WAIT_MS;
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : DEFAULT_WAIT_MS;
}

/** What a handler gets from the SDK that waiting needs. */
export interface WaitContext {
  signal?: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification?: (notification: ServerNotification) => Promise<void>;
}

/**
 * The state to answer from: the first one whose scan is done, or, after `limitMs` (or when
 * the request is cancelled), the one current then, still scanning.
 */
// speky:speky-ts#MCP-BACKGROUND-SCAN
export async function awaitScan(getState: () => LiveState, context: WaitContext, limitMs: number): Promise<LiveState> {
  const first = getState();
  const progress = first.scanning;
  if (!progress) return first;
  const token = context._meta?.progressToken;
  let lastSent = -1;
  let lastAt = 0;
  const send = () => {
    if (token === undefined || !context.sendNotification || progress.done <= lastSent) return;
    if (lastSent >= 0 && nowMs() - lastAt < PROGRESS_EVERY_MS) return;
    lastSent = progress.done;
    lastAt = nowMs();
    const params = {
      progressToken: token,
      progress: progress.done,
      ...(progress.total === null ? {} : { total: progress.total }),
      message: progress.describe(),
    };
    context.sendNotification({ method: "notifications/progress", params }).catch(() => undefined);
  };
  // The first notification goes at once, even at 0 files: the client learns why it waits.
  if (token !== undefined) {
    lastSent = progress.done - 1;
    send();
  }
  progress.on("progress", send);
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    await Promise.race([
      progress.finished,
      new Promise<void>((resolve) => (timer = setTimeout(resolve, limitMs))),
      new Promise<void>((resolve) => {
        onAbort = () => resolve();
        context.signal?.addEventListener("abort", onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    progress.off("progress", send);
    if (onAbort) context.signal?.removeEventListener("abort", onAbort);
  }
  return getState();
}

/** The partial note of a state whose first scan is not done, or null. */
export function partialNote(state: LiveState): string | null {
  return state.scanning ? state.scanning.describe() : null;
}
