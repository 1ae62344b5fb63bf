// The turns a server's long loops give its event loop (src/turns.ts: a warm scan's stats of every
// cached folder and file, a walk), told by a callback queued before the loop. Each step holds the
// thread for at least a millisecond, so when a turn is due is bounded; nothing is timed.
import { describe, expect, it } from "vitest";
import { nowMs } from "../../src/clock.js";
import { NO_TURNS, Turns } from "../../src/turns.js";

/** A test of every index that holds the thread for at least 1 ms each, recording the indexes seen. */
function slowTest(seen: number[], failAt = -1): (i: number) => boolean {
  return (i) => {
    const until = nowMs() + 1;
    while (nowMs() < until) {
      // hold the thread, as a chunk of stats does
    }
    seen.push(i);
    return i !== failAt;
  };
}

/** How many indexes the loop had seen when a callback queued before it ran (-1: not yet run). */
async function callbackAmidLoop(
  turns: Turns,
  count: number,
  chunk: number,
  failAt = -1,
): Promise<{ ranAt: number; every: boolean; seen: number[] }> {
  const seen: number[] = [];
  let ranAt = -1;
  setImmediate(() => {
    ranAt = seen.length;
  });
  const every = await turns.every(count, slowTest(seen, failAt), chunk);
  return { ranAt, every, seen };
}

describe("a long loop's turns", () => {
  // speky:speky-ts#TWALK-TURNS
  it("let the event loop run between chunks once a slice is spent, a server's only", async () => {
    // 8 ms a slice, 4 indexes a chunk, each at least 1 ms: a turn after the first or second chunk.
    const server = await callbackAmidLoop(new Turns(true), 40, 4);
    expect(server.every).toBe(true);
    expect(server.seen).toHaveLength(40);
    expect([4, 8]).toContain(server.ranAt);
    // The command line's loop never yields: the callback waits for its end.
    const commandLine = await callbackAmidLoop(NO_TURNS, 40, 4);
    expect(commandLine.every).toBe(true);
    expect(commandLine.ranAt).toBe(-1);
  });

  it("stop at the first index that fails", async () => {
    const { every, seen } = await callbackAmidLoop(new Turns(true), 40, 4, 13);
    expect(every).toBe(false);
    expect(seen).toEqual(Array.from({ length: 14 }, (_, i) => i));
  });
});
