// Byte-level mutations of real files, shared by the fuzz suites: each suite picks which
// kinds it draws and with what weights; applying them is one function.
export type Mutation =
  | { kind: "flip"; at: number; bit: number }
  | { kind: "insert"; at: number; bytes: Uint8Array }
  /** Insert text: a token that breaks syntax, or a tag to plant. */
  | { kind: "text"; at: number; text: string }
  | { kind: "delete"; at: number; length: number }
  | { kind: "truncate"; at: number }
  | { kind: "swapLines"; a: number; b: number }
  | { kind: "duplicateLine"; a: number }
  | { kind: "lineEnds"; ending: "\r\n" | "\r" };

/** Lines with their "\n", so that joining them gives the bytes back. */
function lineSplit(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let nl = bytes.indexOf(10); nl >= 0; nl = bytes.indexOf(10, start)) {
    lines.push(bytes.subarray(start, nl + 1));
    start = nl + 1;
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

export function mutate(bytes: Buffer, m: Mutation): Buffer {
  const at = bytes.length === 0 ? 0 : ("at" in m ? m.at : 0) % (bytes.length + 1);
  switch (m.kind) {
    case "flip": {
      if (bytes.length === 0) return bytes;
      const copy = Buffer.from(bytes);
      copy[at % bytes.length] ^= 1 << m.bit;
      return copy;
    }
    case "insert":
      return Buffer.concat([bytes.subarray(0, at), m.bytes, bytes.subarray(at)]);
    case "text":
      return Buffer.concat([bytes.subarray(0, at), Buffer.from(m.text), bytes.subarray(at)]);
    case "delete":
      return Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + m.length)]);
    case "truncate":
      return bytes.subarray(0, at);
    case "swapLines": {
      const lines = lineSplit(bytes);
      if (lines.length < 2) return bytes;
      const a = m.a % lines.length;
      const b = m.b % lines.length;
      [lines[a], lines[b]] = [lines[b], lines[a]];
      return Buffer.concat(lines);
    }
    case "duplicateLine": {
      const lines = lineSplit(bytes);
      if (lines.length === 0) return bytes;
      const a = m.a % lines.length;
      lines.splice(a, 0, lines[a]);
      return Buffer.concat(lines);
    }
    case "lineEnds":
      return Buffer.from(bytes.toString("latin1").replace(/\r?\n/g, m.ending), "latin1");
  }
}
