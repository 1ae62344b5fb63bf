import { Worker, isMainThread, parentPort } from "node:worker_threads";
function spin(){ let x=0; const t=performance.now(); for (let i=0;i<3e8;i++) x+=i%7; return performance.now()-t; }
if (isMainThread) {
  const n=+process.argv[2]; const t=performance.now();
  const r=await Promise.all(Array.from({length:n},()=>new Promise(res=>{const w=new Worker(new URL(import.meta.url)); w.on("message",m=>{res(m.toFixed(0)); w.terminate();});})));
  console.log(n, "workers each", r, "wall", (performance.now()-t).toFixed(0));
} else parentPort.postMessage(spin());
