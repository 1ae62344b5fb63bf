// Whether every row of a cache file still has its stamp: the check a replay waits for
// (cache.ts replayCheck, scan.ts). A stat per file, in chunks: a server gives the event loop a
// turn between two chunks, so its warm first scan never holds the thread for long (the check
// of the bench tree's 25,402 files took 90-130 ms of one loop before).
import path from "node:path";
import { statStamp } from "../../fs/stamp.js";
import type { Turns } from "../../turns.js";
import type { PathColumn } from "./path-column.js";

/** Rows checked between two turns of the event loop (about 2 ms of stats). */
const CHUNK = 512;

/**
 * A file whose mtime or ctime is this close to (or after) the moment the scan that cached it
 * started may have changed again within the same timestamp tick: its content is checked.
 * Kernel timestamps lag the clock by up to a tick (a few ms); file systems that store whole
 * seconds (FAT, some network ones) get the wide window.
 */
export const RACY_MS = 100;
const RACY_COARSE_MS = 2000;

/** A stamp taken safely before the caching scan started (`started`): an equal stamp then means unchanged. */
export function trustedStamp(started: number, mtimeMs: number, ctimeMs: number): boolean {
  const window = mtimeMs % 1000 === 0 && ctimeMs % 1000 === 0 ? RACY_COARSE_MS : RACY_MS;
  return Math.max(mtimeMs, ctimeMs) < started - window;
}

/** What a check needs of a cache file and of where its keys are. */
export interface RowCheck {
  paths: PathColumn;
  /** size, mtime and ctime of each row. */
  stamps: Float64Array;
  /** Date.now() when the caching scan started. */
  started: number;
  /** Keys are stat'ed by themselves (the base is the working directory), else under `prefix`. */
  keysAsPaths: boolean;
  /** The base and a separator. */
  prefix: string;
}

/** One stamp taken at a time (statStamp writes it here). */
const taken = new Float64Array(3);

/** Whether the file of `row` still has its cached stamp (size, mtime, ctime), taken safely: then its content is the cached one. */
function unchanged(check: RowCheck, row: number): boolean {
  const { stamps } = check;
  const mtimeMs = stamps[3 * row + 1];
  const ctimeMs = stamps[3 * row + 2];
  if (!trustedStamp(check.started, mtimeMs, ctimeMs)) return false;
  const key = check.paths.at(row);
  const statPath = (check.keysAsPaths && key !== "") || path.isAbsolute(key) ? key : check.prefix + key;
  if (statStamp(statPath, taken, 0) !== "file") return false;
  return taken[0] === stamps[3 * row] && taken[1] === mtimeMs && taken[2] === ctimeMs;
}

// speky:speky-ts#SCAN-REPLAY
/** Whether no row changed: stops at the first changed one; a turn of the event loop between chunks when `turns` gives them (a server). */
export async function rowsUnchanged(check: RowCheck, turns: Turns): Promise<boolean> {
  const rows = check.paths.length;
  for (let from = 0; from < rows; from += CHUNK) {
    const to = Math.min(rows, from + CHUNK);
    for (let row = from; row < to; row++) if (!unchanged(check, row)) return false;
    await turns.maybeTake();
  }
  return true;
}
