// The worker of stat-split.ts: stats cached files into shared memory until none is left.
import { parentPort } from "node:worker_threads";
import { type StatJob, statChunks } from "./stat-split.js";

const port = parentPort;
if (!port) throw new Error("stat worker: not started as a worker thread");

port.once("message", (job: StatJob) => {
  const keys = (JSON.parse(job.keysJson) as string).split("\n");
  const rows = new Float64Array(job.rows);
  // Paths other than those the rows were made for: none taken, the main thread stats them all.
  if (keys.length * 3 === rows.length) statChunks(keys, job.prefix, new Int32Array(job.control), rows);
  port.close();
});
