import { Worker } from "node:worker_threads";
const t=performance.now(); const c0=process.cpuUsage();
const ws=[0,1].map(()=>new Worker("./dist/scan/worker.js"));
await Promise.all(ws.map(w=>new Promise(r=>{ w.once("message", r); w.postMessage({id:1,tasks:[]}); })));
const c=process.cpuUsage(c0);
console.log("2 workers ready", (performance.now()-t).toFixed(0), "ms cpu", ((c.user+c.system)/1000).toFixed(0));
ws.forEach(w=>w.terminate());
