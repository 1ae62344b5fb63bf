// Strings the loaded model keeps are its own. V8 makes a substring of 13 or more characters a
// view into its parent, so a short title sliced out of a spec file kept the whole file's text
// alive for as long as the model lived (61 MB of text for 250,000 requirements), and the same
// tag written 60,000 times was 60,000 strings. Values are copied out of the text once read;
// the ones that repeat (categories, tags and lists of tags, property values, comment dates and
// authors) are shared.

/** Longest string shared through the pool: longer ones are texts, rarely repeated. */
const SHARED_MAX = 64;

// speky:speky-ts#MEM-MODEL
/** A copy of `s` that holds no reference to the text it was cut from. */
export function ownString(s: string): string {
  // Joining two pieces allocates one fresh flat string and copies both in: 3 to 5 times as
  // fast as a JSON round trip (which scans for escapes twice) on spec values, and unlike a
  // concatenation then slice it leaves no view (a sliced string's 32 bytes) on a copy.
  // Shorter strings are copies already.
  return s.length < 13 ? s : [s.slice(0, 1), s.slice(1)].join("");
}

/** One load's pool of repeated strings; dropped with the loader. */
export class StringPool {
  private readonly pool = new Map<string, string>();
  private readonly lists = new Map<string, string[]>();

  /** `s` as an own string, the same one for every equal value. */
  shared(s: string): string {
    if (s.length > SHARED_MAX) return ownString(s);
    let kept = this.pool.get(s);
    if (kept === undefined) this.pool.set((kept = ownString(s)), kept);
    return kept;
  }

  sharedAll(list: readonly string[]): string[] {
    return list.map((s) => this.shared(s));
  }

  /**
   * A list of shared strings, itself shared by every equal list (loaded data is frozen):
   * tags repeat as whole lists ([area:io, priority-1]) across thousands of requirements.
   */
  sharedList(list: readonly string[]): string[] {
    const key = list.join("\0");
    let kept = this.lists.get(key);
    if (kept !== undefined && kept.length === list.length && kept.every((s, i) => s === list[i])) return kept;
    kept = this.sharedAll(list);
    // The pool is dropped with the load, and the key with it.
    if (key.length <= SHARED_MAX) this.lists.set(key, kept);
    return kept;
  }
}
