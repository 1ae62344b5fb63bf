// A grammar made to trap, for the pool's replacement of a worker whose parser runtime a trap left
// broken: a copy of a real grammar's wasm whose external scanner first moves the runtime's
// stack pointer 1 MB down (a trap leaves it so: the runtime's later calls write below its
// stack) and then executes `unreachable`. Made at test time from the installed wasm; nothing
// binary is committed. Installed in a private copy of the package (dist/, grammars/, bin/ and
// node_modules links), whose languages.json points the language at it.
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { REPO, tempDir } from "./process.js";

class Reader {
  at = 0;
  constructor(readonly bytes: Uint8Array) {}
  u32(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = this.bytes[this.at++];
      result |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result >>> 0;
      shift += 7;
    }
  }
  name(): string {
    const n = this.u32();
    const s = Buffer.from(this.bytes.subarray(this.at, this.at + n)).toString("utf8");
    this.at += n;
    return s;
  }
}

const u32Bytes = (value: number): number[] => {
  const out: number[] = [];
  do {
    let b = value & 0x7f;
    value >>>= 7;
    if (value !== 0) b |= 0x80;
    out.push(b);
  } while (value !== 0);
  return out;
};

const i32Bytes = (value: number): number[] => {
  const out: number[] = [];
  for (;;) {
    const b = value & 0x7f;
    value >>= 7;
    if ((value === 0 && (b & 0x40) === 0) || (value === -1 && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
};

/** The wasm with `exported`'s body replaced (same length): stack pointer down 1 MB, then a trap. */
export function trappingWasm(wasm: Buffer, exported: string): Buffer {
  const bytes = new Uint8Array(wasm);
  const r = new Reader(bytes);
  r.at = 8;
  let importedFunctions = 0;
  let stackPointer = -1;
  let target = -1;
  while (r.at < bytes.length) {
    const id = bytes[r.at++];
    const size = r.u32();
    const end = r.at + size;
    if (id === 2) {
      let globals = 0;
      for (let n = r.u32(); n > 0; n--) {
        r.name();
        const field = r.name();
        const kind = bytes[r.at++];
        if (kind === 0) {
          r.u32();
          importedFunctions++;
        } else if (kind === 1) {
          r.at++;
          const flags = r.u32();
          r.u32();
          if (flags & 1) r.u32();
        } else if (kind === 2) {
          const flags = r.u32();
          r.u32();
          if (flags & 1) r.u32();
        } else {
          r.at += 2;
          if (field === "__stack_pointer") stackPointer = globals;
          globals++;
        }
      }
    } else if (id === 7) {
      for (let n = r.u32(); n > 0; n--) {
        const name = r.name();
        const kind = bytes[r.at++];
        const index = r.u32();
        if (kind === 0 && name === exported) target = index;
      }
    } else if (id === 10) {
      if (target < 0 || stackPointer < 0) throw new Error(`no ${exported} or no __stack_pointer`);
      let body = 0;
      for (let n = r.u32(); n > 0; n--, body++) {
        const bodySize = r.u32();
        const bodyEnd = r.at + bodySize;
        if (body === target - importedFunctions) {
          for (let locals = r.u32(); locals > 0; locals--) {
            r.u32();
            r.at++;
          }
          const sp = u32Bytes(stackPointer);
          const code = [0x23, ...sp, 0x41, ...i32Bytes(1 << 20), 0x6b, 0x24, ...sp, 0x00];
          const room = bodyEnd - r.at;
          if (room < code.length + 1) throw new Error(`${exported} is too short to patch`);
          const patched = [...code, ...new Array(room - code.length - 1).fill(0x01), 0x0b];
          bytes.set(patched, r.at);
          return Buffer.from(bytes);
        }
        r.at = bodyEnd;
      }
    }
    r.at = end;
  }
  throw new Error(`${exported} not found`);
}

/**
 * A private copy of the built package whose `language` grammar traps in its external scanner
 * (`scanner`: the exported function to patch); returns the copy's bin/speky.js.
 */
export function packageWithTrappingGrammar(language: string, scanner: string): string {
  const dir = tempDir("speky-trap-package-");
  for (const part of ["bin", "dist", "grammars", "package.json"]) cpSync(path.join(REPO, part), path.join(dir, part), { recursive: true });
  mkdirSync(path.join(dir, "node_modules"));
  for (const name of readdirSync(path.join(REPO, "node_modules"))) {
    if (name.startsWith(".")) continue;
    symlinkSync(path.join(REPO, "node_modules", name), path.join(dir, "node_modules", name));
  }
  const table = JSON.parse(readFileSync(path.join(dir, "grammars/languages.json"), "utf8")) as {
    languages: Record<string, { grammar: { package: string; version: string; file: string } }>;
  };
  const row = table.languages[language];
  const original = path.join(REPO, "node_modules", row.grammar.package, row.grammar.file);
  const trap = path.join(dir, "node_modules", "speky-trap-grammar");
  mkdirSync(trap);
  writeFileSync(path.join(trap, "package.json"), JSON.stringify({ name: "speky-trap-grammar", version: "0.0.0" }));
  const wasm = trappingWasm(readFileSync(original), scanner);
  writeFileSync(path.join(trap, "trap.wasm"), wasm);
  // What the copy loads: its shipped, gzipped grammar (scripts/grammars.mjs makes the real ones).
  writeFileSync(path.join(dir, "grammars/wasm/trap.wasm.gz"), gzipSync(wasm));
  row.grammar = { package: "speky-trap-grammar", version: "0.0.0", file: "trap.wasm" };
  writeFileSync(path.join(dir, "grammars/languages.json"), JSON.stringify(table, null, 2));
  return path.join(dir, "bin/speky.js");
}
