import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import fs from "node:fs";
const tree=JSON.parse(fs.readFileSync("/tmp/speky-bench-tree-v1/tree.json"));
const tasks=tree.planted.map(p=>({absPath:"/tmp/speky-bench-tree-v1/repo/"+p.file, cached:null})).sort((a,b)=>a.absPath<b.absPath?-1:1);
async function work(part){ const {runTask}=await import("./dist/scan/worker-task.js"); const t=performance.now(); const c0=process.cpuUsage(); for (const x of part) await runTask(x); return [(performance.now()-t).toFixed(0), ((process.cpuUsage(c0).user)/1000).toFixed(0)]; }
if (isMainThread) {
  const mode=process.argv[2];
  const t=performance.now();
  if (mode==="main") console.log("main", await work(tasks));
  else { const n=+mode; const ps=[]; for (let k=0;k<n;k++){ const part=tasks.filter((_,i)=>i%n===k); ps.push(new Promise(r=>{ const w=new Worker(new URL(import.meta.url), {workerData: k}); w.on("message", m=>{ r(m); w.terminate(); }); w.postMessage(part); })); } console.log("workers", n, await Promise.all(ps)); }
  console.log("wall", (performance.now()-t).toFixed(0));
} else {
  parentPort.once("message", async (part)=>{ parentPort.postMessage(await work(part)); });
}
