// Latency of `speky lsp` on the 10,000-requirement bench spec with 50,000 code tags: spawn to
// the initialize answer, initialize to a served model, then p50/p99 of hover, definition and
// completion, and keystroke-to-diagnostics times for a source and a spec buffer. Raw
// JSON-RPC over the child's pipes (raw-lsp-client.ts), so that no client-side work is counted.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { generateLargeSpec } from "../generate.js";
import { writeTaggedSources } from "../tagged-sources.js";
import { RawLspClient } from "./raw-lsp-client.js";

const SIZE = { requirements: 10_000, tests: 20_000, codeReferences: 50_000 };
const CALLS = 300;
const KEYSTROKES = 30;
const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../bin/speky.js");
export const LSP_GOALS = { requestP99Ms: 20, diagnosticsMs: 300 };

/** CPU time (user + system) the child has used so far, in ms; null where /proc can't tell. */
function cpuMs(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
      .replace(/^.*\) /, "")
      .split(" ");
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command name; in clock ticks (100 per second).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export interface LspMeasures {
  lines: string[];
  /** p99 of the requests the goal is about (hover, definition, completion), by label (ms). */
  p99: Record<string, number>;
  /** Worst keystroke-to-diagnostics time (ms), source and spec buffers. */
  diagnosticsMs: Record<string, number>;
}

export async function benchLsp(): Promise<LspMeasures> {
  const empty: LspMeasures = { lines: [], p99: {}, diagnosticsMs: {} };
  if (!existsSync(path.resolve(path.dirname(BIN), "../dist/commands/lsp.js"))) return { ...empty, lines: ["lsp latency: build first"] };
  const dir = mkdtempSync(path.join(tmpdir(), "speky-lsp-bench-"));
  try {
    await generateLargeSpec(dir, SIZE);
    await writeTaggedSources(dir, SIZE);
    return await measure(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function timed<T>(times: number[], run: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const out = await run();
  times.push(performance.now() - t0);
  return out;
}

async function measure(dir: string): Promise<LspMeasures> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, "lsp", "--stdio"], {
    cwd: dir,
    env: { ...process.env, SPEKY_CACHE_DIR: path.join(dir, ".cache") },
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new RawLspClient(child);
  const uri = (rel: string) => pathToFileURL(path.join(dir, rel)).href;
  const out: LspMeasures = { lines: [], p99: {}, diagnosticsMs: {} };
  const lines = out.lines;
  try {
    const ready = client.next((m) => m.method === "$/speky/status" && m.params?.state === "ready");
    const scanned = client.next((m) => m.method === "$/speky/status" && m.params?.scanned === true && m.params?.indexed === true);
    const init = await client.request("initialize", {
      processId: process.pid,
      rootUri: pathToFileURL(dir).href,
      workspaceFolders: [{ uri: pathToFileURL(dir).href, name: "bench" }],
      capabilities: { textDocument: { publishDiagnostics: { versionSupport: true } } },
    });
    if (init.error) return { ...out, lines: [`lsp latency: ${init.error.message}: ${stderr}`] };
    const initMs = performance.now() - started;
    client.notify("initialized", {});
    await ready;
    const readyMs = performance.now() - started;
    await scanned;
    const scannedMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 500)); // let the start-up garbage be collected
    lines.push(
      `speky lsp on ${SIZE.requirements.toLocaleString("en-US")} requirements, ${SIZE.tests.toLocaleString("en-US")} tests, ` +
        `${SIZE.codeReferences.toLocaleString("en-US")} code tags (zero configuration)`,
      `  load average at start: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")} (${availableParallelism()} cores; other work on the machine shows in the p99s)`,
      `  spawn to initialize answer: ${initMs.toFixed(0)} ms; to specs served: ${readyMs.toFixed(0)} ms; to scan done and specs indexed: ${scannedMs.toFixed(0)} ms`,
      `  ${"request".padEnd(36)} calls   p50 ms   p99 ms   server CPU ms per call (load-independent)`,
    );

    const source = "src/module-00007.ts";
    const sourceText = readFileSync(path.join(dir, source), "utf8");
    const spec = "tests/part-00003.yaml";
    const specText = readFileSync(path.join(dir, spec), "utf8");
    // A comment line to complete in, at the end of the source buffer.
    const sourceLines = sourceText.split("\n");
    const completeLine = sourceLines.length;
    let sourceVersion = 1;
    client.notify("textDocument/didOpen", {
      textDocument: { uri: uri(source), languageId: "typescript", version: 1, text: `${sourceText}\n// speky:bench#REQ-01` },
    });
    client.notify("textDocument/didOpen", { textDocument: { uri: uri(spec), languageId: "yaml", version: 1, text: specText } });
    const tagLines = sourceLines.flatMap((l, i) => (l.startsWith("// speky:") ? [i] : []));
    const specLines = specText.split("\n");
    const refLines = specLines.flatMap((l, i) => (/^ {4}- REQ-/.test(l) ? [i] : []));

    const cases: { label: string; method: string; params: (i: number) => object; before?: (i: number) => void }[] = [
      {
        label: "hover on a tag",
        method: "textDocument/hover",
        params: (i) => ({ textDocument: { uri: uri(source) }, position: { line: tagLines[i % tagLines.length], character: 18 } }),
      },
      {
        label: "definition of a tag",
        method: "textDocument/definition",
        params: (i) => ({ textDocument: { uri: uri(source) }, position: { line: tagLines[i % tagLines.length], character: 18 } }),
      },
      {
        label: "completion of IDs in a comment",
        method: "textDocument/completion",
        params: () => ({ textDocument: { uri: uri(source) }, position: { line: completeLine, character: 21 } }),
      },
      {
        label: "completion right after a keystroke",
        method: "textDocument/completion",
        before: (i) => {
          // Type a character after the partial ID, then delete it: the buffer differs each time.
          const at = { line: completeLine, character: 21 };
          const change =
            i % 2 === 0
              ? { range: { start: at, end: at }, text: "0" }
              : { range: { start: at, end: { line: completeLine, character: 22 } }, text: "" };
          client.notify("textDocument/didChange", {
            textDocument: { uri: uri(source), version: ++sourceVersion },
            contentChanges: [change],
          });
        },
        params: (i) => ({ textDocument: { uri: uri(source) }, position: { line: completeLine, character: i % 2 === 0 ? 22 : 21 } }),
      },
      {
        label: "hover on a ref in a spec",
        method: "textDocument/hover",
        params: (i) => ({ textDocument: { uri: uri(spec) }, position: { line: refLines[i % refLines.length], character: 8 } }),
      },
      {
        label: "definition of a ref in a spec",
        method: "textDocument/definition",
        params: (i) => ({ textDocument: { uri: uri(spec) }, position: { line: refLines[i % refLines.length], character: 8 } }),
      },
      {
        label: "completion of a ref in a spec",
        method: "textDocument/completion",
        params: (i) => ({ textDocument: { uri: uri(spec) }, position: { line: refLines[i % refLines.length], character: 11 } }),
      },
      {
        label: "code lens of a 2,000-test spec",
        method: "textDocument/codeLens",
        params: () => ({ textDocument: { uri: uri("requirements/part-00002.yaml") } }),
      },
      { label: "workspace symbol 'case 12'", method: "workspace/symbol", params: () => ({ query: "case 12" }) },
    ];
    for (const c of cases) {
      const times: number[] = [];
      let cpuBefore: number | null = null;
      for (let i = 0; i < CALLS + 10; i++) {
        if (i === 10) cpuBefore = cpuMs(child.pid);
        c.before?.(i);
        const answer = await timed(times, () => client.request(c.method, c.params(i)));
        if (answer.error) return { ...out, lines: [...lines, `  ${c.label}: ${answer.error.message}`] };
        if (answer.result === null && c.label !== "code lens of a 2,000-test spec")
          return { ...out, lines: [...lines, `  ${c.label}: null answer`] };
      }
      times.splice(0, 10); // the first calls warm the JIT
      times.sort((a, b) => a - b);
      if (/^(hover|definition|completion)/.test(c.label)) out.p99[c.label] = percentile(times, 99);
      const cpuAfter = cpuMs(child.pid);
      const cpu = cpuBefore !== null && cpuAfter !== null ? ((cpuAfter - cpuBefore) / CALLS).toFixed(2) : "?";
      lines.push(
        `  ${c.label.padEnd(36)} ${String(CALLS).padStart(5)} ${percentile(times, 50).toFixed(2).padStart(8)} ${percentile(times, 99).toFixed(2).padStart(8)} ${cpu.padStart(8)}`,
      );
    }

    // Keystrokes: one character typed, then the time until that version's diagnostics arrive.
    const keystrokes = async (label: string, rel: string, text: (k: number) => string, version: { v: number }) => {
      const times: number[] = [];
      const cpuBefore = cpuMs(child.pid);
      for (let k = 0; k < KEYSTROKES; k++) {
        const v = ++version.v;
        const published = client.next(
          (m) => m.method === "textDocument/publishDiagnostics" && m.params?.uri === uri(rel) && (m.params?.version ?? 0) >= v,
        );
        await timed(times, async () => {
          client.notify("textDocument/didChange", { textDocument: { uri: uri(rel), version: v }, contentChanges: [{ text: text(k) }] });
          await published;
        });
      }
      times.sort((a, b) => a - b);
      out.diagnosticsMs[label] = times[times.length - 1];
      const cpuAfter = cpuMs(child.pid);
      const cpu = cpuBefore !== null && cpuAfter !== null ? ((cpuAfter - cpuBefore) / KEYSTROKES).toFixed(1) : "?";
      lines.push(
        `  ${label.padEnd(36)} ${String(KEYSTROKES).padStart(5)} ${percentile(times, 50).toFixed(2).padStart(8)} ${times[times.length - 1].toFixed(2).padStart(8)} ${cpu.padStart(8)}`,
      );
    };
    lines.push(`  ${"keystroke to diagnostics".padEnd(36)} edits   p50 ms   max ms   server CPU ms per edit`);
    const sv = { v: sourceVersion };
    // The keystroke cases send whole texts.
    // Alternately a dangling tag and a good one: the diagnostics change every time.
    await keystrokes("source buffer (500 lines)", source, (k) => `${sourceText}\n// speky:bench#REQ-0001${k % 2 ? "9" : ""}`, sv);
    sourceVersion = sv.v;
    const specVersion = { v: 1 };
    await keystrokes(
      "spec buffer (2,000 tests)",
      spec,
      (k) => specText.replace("    - REQ-", k % 2 ? "    - REQ-X" : "    - REQ-"),
      specVersion,
    );
    return out;
  } finally {
    child.stdin.end();
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.kill();
  }
}

// Runnable on its own: node dist-bench/servers/lsp-latency.js
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of (await benchLsp()).lines) console.log(line);
}
