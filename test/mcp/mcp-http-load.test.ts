// 200 sessions open at once on one speky-mcp --http, each answering a call; once they are all
// closed the server holds no session and its heap is back near what it was idle. Counts and
// generous bounds only: the server's own log says how many sessions are open and the heap
// after a full collection when the last one closes (--verbose).
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MCP_FIXTURE } from "../support/mcp.js";
import { connectHttp, type HttpClient, type HttpServerProcess, startHttp } from "../support/mcp-http.js";

const SESSIONS = 200;
const MB = 2 ** 20;

let server: HttpServerProcess;
beforeAll(async () => {
  server = await startHttp(["--http", "127.0.0.1:0", "--no-watch", "--verbose", MCP_FIXTURE]);
});
afterAll(async () => {
  expect(await server?.stop()).toBe(0);
});

const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.child.pid}/status`, "utf8"))?.[1]) * 1024;
const heaps = () => [...server.stderr().matchAll(/no session open; heap ([\d.]+) MB/g)].map((m) => Number(m[1]) * MB);

async function waitForHeaps(count: number): Promise<number[]> {
  await server.waitFor(new RegExp(`(?:no session open; heap [\\d.]+ MB[^]*){${count}}`));
  return heaps();
}

// speky:speky-ts#TMCP-HTTP-LOAD
it(`answers a call in each of ${SESSIONS} sessions open at once, then returns to no session and its idle heap`, async () => {
  // Idle, warmed: one session opened, called and closed (the SDK and the tools loaded, the scan done).
  const first = await connectHttp(server.url);
  await first.client.callTool({ name: "get_requirement", arguments: { id: "REQ-ALL" } });
  await first.close();
  const [idleHeap] = await waitForHeaps(1);
  const idleRss = rss();

  const clients: HttpClient[] = [];
  for (let i = 0; i < SESSIONS; i += 50) {
    clients.push(...(await Promise.all(Array.from({ length: Math.min(50, SESSIONS - i) }, () => connectHttp(server.url)))));
  }
  expect(server.stderr()).toMatch(new RegExp(`session opened \\(${SESSIONS} open\\)`));
  const answers = await Promise.all(clients.map((c) => c.client.callTool({ name: "list_all_ids", arguments: {} })));
  expect(answers.filter((a) => (a.structuredContent as { requirements?: string[] }).requirements?.includes("REQ-ALL"))).toHaveLength(
    SESSIONS,
  );
  const busyRss = rss();
  await Promise.all(clients.map((c) => c.close()));

  const [, afterHeap] = await waitForHeaps(2);
  expect(server.stderr().match(/session closed \(0 open\)/g)).toHaveLength(2);
  // Generous: the heap after a full collection within 16 MB of idle, whatever 200 sessions left.
  expect(afterHeap).toBeLessThan(idleHeap + 16 * MB);
  expect(rss()).toBeLessThan(Math.max(busyRss, idleRss) + 64 * MB);
  console.log(
    `idle heap ${(idleHeap / MB).toFixed(1)} MB, after ${SESSIONS} sessions ${(afterHeap / MB).toFixed(1)} MB; ` +
      `RSS idle ${(idleRss / MB).toFixed(0)} MB, with ${SESSIONS} sessions ${(busyRss / MB).toFixed(0)} MB, after ${(rss() / MB).toFixed(0)} MB`,
  );
  // 401 requests from one client process: 51 s at load 24 on 2 cores, hence room beyond the default minute.
}, 180_000);
