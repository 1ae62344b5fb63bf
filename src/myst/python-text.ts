// The few Python string operations speky's page generator applies, computed as CPython computes
// them, so that the pages come out byte for byte: str.title(), '{:.0%}', str() of a property
// value, sorted() on strings and on paths, and str(Path(given)).

/** Python's `<` on str: code point order (JavaScript's `<` compares UTF-16 code units). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** Python's `<` on pathlib paths: part by part (`a/b` before `a.b/c`). */
export function compareParts(a: string, b: string): number {
  const pa = a.split("/");
  const pb = b.split("/");
  const n = Math.min(pa.length, pb.length);
  for (let i = 0; i < n; i++) {
    const c = compareCodePoints(pa[i], pb[i]);
    if (c !== 0) return c;
  }
  return pa.length - pb.length;
}

/**
 * Characters whose titlecase differs from their uppercase (Unicode's SpecialCasing and
 * UnicodeData titlecase columns): what `toUpperCase` cannot give for `str.title()`.
 */
const TITLE_EXCEPTIONS = new Map<number, string>([
  [0xdf, "Ss"],
  [0x1c4, "\u01c5"],
  [0x1c5, "\u01c5"],
  [0x1c6, "\u01c5"],
  [0x1c7, "\u01c8"],
  [0x1c8, "\u01c8"],
  [0x1c9, "\u01c8"],
  [0x1ca, "\u01cb"],
  [0x1cb, "\u01cb"],
  [0x1cc, "\u01cb"],
  [0x1f1, "\u01f2"],
  [0x1f2, "\u01f2"],
  [0x1f3, "\u01f2"],
  [0x587, "\u0535\u0582"],
  [0x1fb2, "\u1fba\u0345"],
  [0x1fb3, "\u1fbc"],
  [0x1fb4, "\u0386\u0345"],
  [0x1fb7, "\u0391\u0342\u0345"],
  [0x1fbc, "\u1fbc"],
  [0x1fc2, "\u1fca\u0345"],
  [0x1fc3, "\u1fcc"],
  [0x1fc4, "\u0389\u0345"],
  [0x1fc7, "\u0397\u0342\u0345"],
  [0x1fcc, "\u1fcc"],
  [0x1ff2, "\u1ffa\u0345"],
  [0x1ff3, "\u1ffc"],
  [0x1ff4, "\u038f\u0345"],
  [0x1ff7, "\u03a9\u0342\u0345"],
  [0x1ffc, "\u1ffc"],
  [0xfb00, "Ff"],
  [0xfb01, "Fi"],
  [0xfb02, "Fl"],
  [0xfb03, "Ffi"],
  [0xfb04, "Ffl"],
  [0xfb05, "St"],
  [0xfb06, "St"],
  [0xfb13, "\u0544\u0576"],
  [0xfb14, "\u0544\u0565"],
  [0xfb15, "\u0544\u056b"],
  [0xfb16, "\u054e\u0576"],
  [0xfb17, "\u0544\u056d"],
]);

function titleOf(cp: number): string {
  const known = TITLE_EXCEPTIONS.get(cp);
  if (known !== undefined) return known;
  // Greek letters with a prosgegrammeni: title case is the capital with it, one character.
  if (cp >= 0x1f80 && cp <= 0x1faf) return String.fromCodePoint(cp | 0x08);
  // Georgian Mkhedruli: title case is the letter itself (uppercase is Mtavruli).
  if ((cp >= 0x10d0 && cp <= 0x10fa) || (cp >= 0x10fd && cp <= 0x10ff)) return String.fromCodePoint(cp);
  return String.fromCodePoint(cp).toUpperCase();
}

const CASED = /^\p{Cased}$/u;
const CASE_IGNORABLE = /^\p{Case_Ignorable}$/u;

/** CPython's final-sigma rule for a capital sigma at index i of the code points. */
function lowerSigma(points: string[], i: number): string {
  let j = i - 1;
  while (j >= 0 && CASE_IGNORABLE.test(points[j])) j--;
  const after = j >= 0 && CASED.test(points[j]);
  let k = i + 1;
  while (k < points.length && CASE_IGNORABLE.test(points[k])) k++;
  const before = k < points.length && CASED.test(points[k]);
  return after && !before ? "\u03c2" : "\u03c3";
}

// speky:speky-ts#MYST-PAGES
/** Python's `str.title()`: each cased run starts in title case and goes on in lower case. */
export function pyTitle(text: string): string {
  const points = Array.from(text);
  let out = "";
  let previousCased = false;
  for (let i = 0; i < points.length; i++) {
    const c = points[i];
    if (previousCased) out += c === "\u03a3" ? lowerSigma(points, i) : c.toLowerCase();
    else out += titleOf(c.codePointAt(0)!);
    previousCased = CASED.test(c);
  }
  return out;
}

/** Python's `f'{count / total:.0%}'` (round half to even on the product's binary value). */
export function pyPercent(count: number, total: number): string {
  const value = (count / total) * 100;
  const floor = Math.floor(value);
  const rest = value - floor;
  const rounded = rest > 0.5 ? floor + 1 : rest < 0.5 ? floor : floor % 2 === 0 ? floor : floor + 1;
  return `${rounded}%`;
}

/** `str(Path(given))` on POSIX: repeated slashes and `.` parts dropped, no trailing slash. */
export function pyPathString(given: string): string {
  if (given === "") return ".";
  const lead = given.startsWith("//") && !given.startsWith("///") ? "//" : given.startsWith("/") ? "/" : "";
  const parts = given.split("/").filter((p) => p !== "" && p !== ".");
  const joined = lead + parts.join("/");
  return joined === "" ? "." : joined;
}
