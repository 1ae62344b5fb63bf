import fs from "node:fs";
import {expandPaths} from "./dist/scan/walk.js";
const T="/tmp/speky-bench-tree-v1/repo";
const {jobs}=await expandPaths([T], "/", {project:"b", root:"/", patterns:[]});
const files=jobs.map(j=>j.absPath);
const mode=process.argv[2];
const t=performance.now(); const c0=process.cpuUsage();
if (mode==="sync") { for (const f of files) fs.statSync(f, {throwIfNoEntry:false}); }
if (mode==="cb") { await new Promise(res=>{ let i=0, done=0; const next=()=>{ if (i>=files.length) return; const f=files[i++]; fs.stat(f,(e,st)=>{ done++; if (done===files.length) res(); else next(); }); }; for (let k=0;k<128;k++) next(); }); }
if (mode==="promises") { let i=0; const w=async()=>{ while(i<files.length){ await fs.promises.stat(files[i++]); } }; await Promise.all(Array.from({length:64},w)); }
if (mode==="lstat") { for (const f of files) fs.lstatSync(f); }
const c=process.cpuUsage(c0);
console.log(mode, (performance.now()-t).toFixed(0), "ms cpu", ((c.user+c.system)/1000).toFixed(0));
