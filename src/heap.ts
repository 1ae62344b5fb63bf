// A full garbage collection, between spec files, before each MCP request and between a scan's
// stages (its walk, its reads, its cache written), once the heap has
// grown a lot since the last one. Parsing a file of 20,000 items leaves tens of MB of parse
// trees that live long enough to reach V8's old generation, and a large answer tens of MB of
// text; V8 lets that garbage pile up to several times the loaded model before it collects: a
// 250,000-requirement load peaked at 407-510 MB of RSS from run to run, and paging every list
// tool at that size reached 567 MB (issue 12's bound is 500 MB). Collecting after every GROWTH
// bytes keeps the peak near the model plus one step's garbage. A small project never grows
// that much: no collection. A cold scan of 1,000,000 small files that writes the cache peaked
// at 642-736 MB, then 607-624 (paired, 3 rounds each).
// V8 offers the collection only behind --expose-gc, set here at run time, and only once a load
// has grown that much (the measured need: docs/security.md row 9).
import v8 from "node:v8";
import vm from "node:vm";

const GROWTH = 96 * 1024 * 1024;

let collect: (() => void) | null | undefined;
let baseline = 0;

function collector(): (() => void) | null {
  if (collect === undefined) {
    try {
      v8.setFlagsFromString("--expose-gc");
      collect = vm.runInNewContext("gc") as () => void;
    } catch {
      collect = null; // a runtime that refuses: V8's own timing
    }
  }
  return collect;
}

// speky:speky-ts#SPEC-LOAD-HEAP
/** Called between files: a full collection when the heap grew by GROWTH since the last one. */
export function relieveHeap(): void {
  const used = heapUsed();
  if (used - baseline < GROWTH) return;
  collector()?.();
  baseline = heapUsed();
}

/**
 * process.memoryUsage().heapUsed without the resident set size that memoryUsage() also reads
 * from /proc: 1-2 ms a call there, 16-34 ms over the 30 files of a 30,000-item load (0.07 ms
 * this way).
 */
const heapUsed = () => v8.getHeapStatistics().used_heap_size;

/** The heap's used bytes after a full collection (without one where the runtime refuses it). */
export function heapAfterCollection(): number {
  collector()?.();
  return heapUsed();
}
