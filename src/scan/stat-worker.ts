// The worker of stat-split.ts: stats cached files into shared memory until none is left.
import { parentPort } from "node:worker_threads";
import { statChunks, type StatJob } from "./stat-split.js";

const port = parentPort;
if (!port) throw new Error("stat worker: not started as a worker thread");

port.once("message", (job: StatJob) => {
  statChunks(job.keys.split("\n"), job.prefix, new Int32Array(job.control), new Float64Array(job.rows), job.walkStamps);
  port.close();
});
