import fs from "node:fs";
import fg from "fast-glob";
import path from "node:path";
const root="/tmp/speky-bench-tree-v1/repo";
const M=Buffer.from("speky:");
let t=performance.now();
const files=(await fg("**/*",{cwd:root,absolute:true,dot:false,onlyFiles:true,suppressErrors:true,ignore:["**/.git/**","**/node_modules/**"]}));
console.log("fg", (performance.now()-t).toFixed(0), files.length);
t=performance.now();
function walk(dir,out){ for (const e of fs.readdirSync(dir,{withFileTypes:true})){ if(e.name.startsWith("."))continue; const p=dir+"/"+e.name; if(e.isDirectory()){ if(e.name!=="node_modules") walk(p,out);} else if(e.isFile()) out.push(p);} return out;}
const w=walk(root,[]); console.log("sync walk", (performance.now()-t).toFixed(0), w.length);
t=performance.now();
async function walkA(dir,out){ const es=await fs.promises.readdir(dir,{withFileTypes:true}); const subs=[]; for (const e of es){ if(e.name.startsWith("."))continue; const p=dir+"/"+e.name; if(e.isDirectory()){ if(e.name!=="node_modules") subs.push(walkA(p,out));} else if(e.isFile()) out.push(p);} await Promise.all(subs); return out;}
const wa=await walkA(root,[]); console.log("async walk", (performance.now()-t).toFixed(0), wa.length);
const mode=process.argv[2];
t=performance.now(); let hits=0;
if (mode==="sync") { for (const f of files){ const b=fs.readFileSync(f); if(b.indexOf(M)>=0)hits++; } }
if (mode==="fd") { let buf=Buffer.allocUnsafe(1<<20); for (const f of files){ const fd=fs.openSync(f,"r"); const st=fs.fstatSync(fd); if(st.size>buf.length) buf=Buffer.allocUnsafe(st.size*2); let n=0; while(n<st.size){ const r=fs.readSync(fd,buf,n,st.size-n,n); if(r===0)break; n+=r;} fs.closeSync(fd); if(buf.subarray(0,n).indexOf(M)>=0)hits++; } }
if (mode==="async") { let i=0; const worker=async()=>{ while(i<files.length){ const f=files[i++]; const b=await fs.promises.readFile(f); if(b.indexOf(M)>=0)hits++; } }; await Promise.all(Array.from({length:16},worker)); }
if (mode==="stat") { for (const f of files){ fs.statSync(f); } }
if (mode==="lstatbig") { for (const f of files){ fs.statSync(f, {bigint:false}); } }
console.log(mode, (performance.now()-t).toFixed(0), hits);
