// The other half of a warm scan's stats (stat-split.ts): paths in, their stamps out.
import { parentPort } from "node:worker_threads";
import { statInto } from "./stat-rows.js";

const port = parentPort;
if (!port) throw new Error("stat worker: not started as a worker thread");

port.on("message", (joined: string) => {
  const paths = joined.split("\0");
  const rows = new Float64Array(paths.length * 3);
  statInto(paths, rows, 0);
  port.postMessage(rows, [rows.buffer]);
});
