import fs from "node:fs";
import {scanFileBuffer} from "./dist/scan/file.js";
const tree=JSON.parse(fs.readFileSync("/tmp/speky-bench-tree-v1/tree.json"));
const root="/tmp/speky-bench-tree-v1/repo/";
const groups={};
for (const p of tree.planted){ const k=p.file.startsWith("gen")?p.file.split("/")[1]:p.file.split(".").pop(); (groups[k]??=[]).push(root+p.file); }
for (const [k,files] of Object.entries(groups)){ const bufs=files.map(f=>fs.readFileSync(f)); const bytes=bufs.reduce((a,b)=>a+b.length,0);
 let t=performance.now(); await scanFileBuffer(files[0],bufs[0]); const first=performance.now()-t; t=performance.now(); for (let i=1;i<files.length;i++) await scanFileBuffer(files[i],bufs[i]); const rest=performance.now()-t;
 console.log(k.padEnd(6), files.length, (bytes/1e6).toFixed(2)+"MB", "first", first.toFixed(0), "rest", rest.toFixed(0), "MB/s", (bytes/1e3/rest).toFixed(2)); }
