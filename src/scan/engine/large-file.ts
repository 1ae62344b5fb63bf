// The tags of a file too large to parse (or of no grammar, when that large), found in its bytes:
// never decoded whole, so a 250 MB file costs its buffer and little more (decoded, it took
// three times that). Positions as the decoded text gives them (file.ts decode): lines break at
// "\n" and at a lone "\r", columns count code points of the line decoded, a BOM left out.
import { WarningCap } from "./cap.js";
import type { RawTag } from "./tag.js";
import { MARKER, tagAt } from "./tag.js";
import { freeTag } from "./tags.js";

const MARKER_BYTES = Buffer.from(MARKER);
const LF = 10;
const CR = 13;
/** Longer than any tag: the marker, a project and an ID ([A-Za-z0-9_.-] and [A-Za-z0-9_-]). */
const TAG_WINDOW = 4096;

/** The file's start: a BOM there is no character (file.ts decode). */
const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false });
/** Anywhere else a U+FEFF is one. */
const midDecoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
const decodeFrom = (bytes: Buffer, from: number, to: number) => (from === 0 ? decoder : midDecoder).decode(bytes.subarray(from, to));

function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff || i === 0 || text.charCodeAt(i - 1) < 0xd800 || text.charCodeAt(i - 1) > 0xdbff) count++;
  }
  return count;
}

/**
 * Line breaks met in order: every LF and every CR not followed by LF (file.ts decode makes a
 * lone CR a LF). The next of each is remembered, so that counting up to each tag of a file
 * stays linear (a minified file of a million tags).
 */
class Breaks {
  private nextLf: number;
  private nextCr: number;
  line = 1;
  lineStart = 0;

  constructor(private readonly bytes: Buffer) {
    this.nextLf = bytes.indexOf(LF);
    this.nextCr = bytes.indexOf(CR);
  }

  /** Counts the breaks before `to`. */
  upTo(to: number): void {
    const { bytes } = this;
    while (this.nextLf >= 0 && this.nextLf < to) {
      this.line++;
      this.lineStart = Math.max(this.lineStart, this.nextLf + 1);
      this.nextLf = bytes.indexOf(LF, this.nextLf + 1);
    }
    while (this.nextCr >= 0 && this.nextCr < to) {
      if (bytes[this.nextCr + 1] !== LF) {
        this.line++;
        this.lineStart = Math.max(this.lineStart, this.nextCr + 1);
      }
      this.nextCr = bytes.indexOf(CR, this.nextCr + 1);
    }
  }
}

/** The language named by a `#!` first line, from the file's head (languageForShebang reads it). */
export function headText(bytes: Buffer): string {
  return decoder.decode(bytes.subarray(0, TAG_WINDOW));
}

// speky:speky-ts#SCAN-BYTES-IN-FLIGHT
/** Every tag of `bytes` as a free tag with `warning`, capped as the text scan caps them (cap.ts). */
export function largeFileTags(bytes: Buffer, warning: string): RawTag[] {
  const cap = new WarningCap();
  const tags: RawTag[] = [];
  const lines = new Breaks(bytes);
  /** The last tag's place: the next one on its line counts its column from there. */
  let last = { at: -1, column: 0 };
  for (let at = bytes.indexOf(MARKER_BYTES); at >= 0; at = bytes.indexOf(MARKER_BYTES, at + MARKER_BYTES.length)) {
    const after = at + MARKER_BYTES.length;
    // As markerIndexes: not a URI of the scheme (`//`) nor the notation of tags (`<`).
    if ((bytes[after] === 47 && bytes[after + 1] === 47) || bytes[after] === 60) continue;
    const tag = tagAt(bytes.toString("latin1", at, Math.min(bytes.length, at + TAG_WINDOW)), 0);
    if (!tag) continue;
    lines.upTo(at);
    const { line, lineStart } = lines;
    const column =
      last.at >= lineStart ? last.column + codePoints(decodeFrom(bytes, last.at, at)) : codePoints(decodeFrom(bytes, lineStart, at)) + 1;
    last = { at, column };
    const kept = cap.admit(freeTag(tag, { line, column }, false, warning));
    if (kept) tags.push(kept);
  }
  return [...tags, ...cap.summaryTags()];
}
