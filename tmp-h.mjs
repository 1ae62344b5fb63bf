import crypto from "node:crypto"; import fs from "node:fs";
const f=fs.readdirSync("/tmp/speky-cache-dev")[0]; const buf=fs.readFileSync("/tmp/speky-cache-dev/"+f);
for (const alg of ["sha256","sha1","md5","sha512"]) { let t=performance.now(); for(let i=0;i<5;i++) crypto.createHash(alg).update(buf).digest("base64"); console.log(alg, ((performance.now()-t)/5).toFixed(1)); }
let t=performance.now(); const s=fs.readFileSync("/tmp/speky-cache-dev/"+f,"utf8"); console.log("read utf8", (performance.now()-t).toFixed(1));
t=performance.now(); const s2=fs.readFileSync("/tmp/speky-cache-dev/"+f,"latin1"); console.log("read latin1", (performance.now()-t).toFixed(1));
t=performance.now(); const nl=s.indexOf("\n"); const b=JSON.parse(s.slice(nl+1)); console.log("parse", (performance.now()-t).toFixed(1));
t=performance.now(); const p=b.paths.split("\n"); console.log("split", (performance.now()-t).toFixed(1), p.length);
t=performance.now(); const m=new Map(); for (let i=0;i<p.length;i++) m.set(p[i], i); console.log("map", (performance.now()-t).toFixed(1));
console.log(process.memoryUsage().rss/1e6);
