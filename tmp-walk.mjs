import fs from "node:fs";
import fg from "fast-glob";
const root="/tmp/speky-bench-tree-v1/repo";
const mode=process.argv[2];
let t=performance.now(); let n=0;
if (mode==="fg") n=(await fg("**/*",{cwd:root,absolute:true,dot:false,onlyFiles:true,suppressErrors:true,ignore:["**/.git/**","**/node_modules/**"]})).length;
if (mode==="fgsync") n=(fg.sync("**/*",{cwd:root,absolute:true,dot:false,onlyFiles:true,suppressErrors:true,ignore:["**/.git/**","**/node_modules/**"]})).length;
function walk(dir,out){ for (const e of fs.readdirSync(dir,{withFileTypes:true})){ if(e.name.startsWith("."))continue; const p=dir+"/"+e.name; if(e.isDirectory()){ if(e.name!=="node_modules") walk(p,out);} else if(e.isFile()) out.push(p);} return out;}
if (mode==="sync") n=walk(root,[]).length;
async function walkA(dir,out){ const es=await fs.promises.readdir(dir,{withFileTypes:true}); const subs=[]; for (const e of es){ if(e.name.startsWith("."))continue; const p=dir+"/"+e.name; if(e.isDirectory()){ if(e.name!=="node_modules") subs.push(walkA(p,out));} else if(e.isFile()) out.push(p);} await Promise.all(subs); return out;}
if (mode==="async") n=(await walkA(root,[])).length;
console.log(mode, (performance.now()-t).toFixed(0), n);
