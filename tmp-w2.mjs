import {expandPaths} from "./dist/scan/walk.js";
const T="/tmp/speky-bench-tree-v1/repo";
for (let i=0;i<3;i++){ const t=performance.now(); const c=process.cpuUsage(); const {jobs}=await expandPaths([T], "/", {project:"b", root:"/", patterns:[]}); const cc=process.cpuUsage(c); console.log("expandPaths", jobs.length, (performance.now()-t).toFixed(0), "cpu", ((cc.user+cc.system)/1000).toFixed(0), "sys", (cc.system/1000).toFixed(0)); }
