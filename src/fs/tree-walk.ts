// One walk from a start folder, for a GlobWalker (walker.ts): depth first, each folder's entries in
// name order, descending where met, so that the files come out in Path order (part by part).
// What links lead to is taken afterwards, so that a file or folder reached both directly and
// through a link keeps its own path; each real folder is entered once, each real file listed once.

import type { Dirent } from "node:fs";
import path from "node:path";
import { compareStrings } from "../diagnostics.js";
import { quote } from "../quote.js";
import { allowed, isVirtual } from "./boundary.js";
import { GIT_DIR, type GlobProblem, outsideMessage } from "./glob-pattern.js";
import { IgnoreStack } from "./ignore-rules.js";
import { realOrNull, statThrough } from "./paths.js";
import { type GlobOptions, MISSING_STAMP, type Reached, type Recording, type Rule } from "./walk-types.js";

/** What a walk needs of its walker: the listings (shared by its walks), the stamps, the turns. */
export interface Lister {
  /** A folder's entries, in name order; `why` hears why it cannot be listed (not when it vanished meanwhile). */
  list(dir: string, why?: (code: string) => void): Promise<Dirent[]>;
  /** Starts listing a folder ahead (its stamp taken first). */
  prefetch(dir: string): unknown;
  /** Records a path's stamp while the walk is recorded (an ignore file read). */
  stamp(p: string): void;
  /** The recording of this walk for a filter, if any. */
  readonly recording: Recording | null;
  /** Yields to the event loop when a turn is due. */
  breathe(): Promise<void>;
}

/** Python sorts paths part by part: `a/b` comes before `a-c`, unlike as plain strings. */
function compareParts(pa: readonly string[], pb: readonly string[]): number {
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const c = compareStrings(pa[i], pb[i]);
    if (c !== 0) return c;
  }
  return pa.length - pb.length;
}

const join = (dir: string, name: string) => (dir.endsWith(path.sep) ? dir + name : dir + path.sep + name);

const isSpecial = (e: Dirent) => e.isFIFO() || e.isSocket() || e.isCharacterDevice() || e.isBlockDevice();

interface Frame {
  abs: string;
  real: string;
  /** Location for ignore rules: the start's real path, then the names as walked. */
  loc: string;
  rel: string;
  depth: number;
  ignore: IgnoreStack | null;
}

/** The files one walk from `start` reaches by `rule`, in Path order; each also to `onFile` as it is reached. */
export async function filesReached(
  lister: Lister,
  start: string,
  startReal: string,
  rule: Rule,
  options: GlobOptions,
  pattern: string,
  problems: GlobProblem[],
  onFile?: (file: Reached) => void,
): Promise<Reached[]> {
  /** The start as the pattern spells it, to name a refused link. */
  const display = rule.display;
  const out: Reached[] = [];
  const seenFiles = new Set<string>();
  const enteredDirs = new Set<string>([startReal]);
  const onRuleFile = (file: string) => lister.stamp(file);
  const rootIgnore = options.ignore ? IgnoreStack.at(startReal, onRuleFile) : null;
  const refuse = (rel: string) => {
    const message = outsideMessage(pattern, rel);
    if (!problems.some((p) => p.message === message)) problems.push({ severity: "error", message });
  };
  /** `link`: reached through a symbolic link, taken after every path without one. */
  type Item = ({ file: Reached } | { dir: Frame }) & { link: boolean };
  /** What a folder holds for the rule, in name order; its subfolders' listings started. */
  const itemsOf = (frame: Frame, entries: Dirent[]): Item[] => {
    const ignore = frame.ignore?.enter(frame.loc, frame.real, onRuleFile) ?? null;
    const items: Item[] = [];
    for (const entry of entries) {
      const name = entry.name;
      if (name === GIT_DIR || isSpecial(entry)) continue;
      const abs = join(frame.abs, name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      const link = entry.isSymbolicLink();
      // Built only where used: a tree of 25,000 files made 100,000 strings here.
      const rel = isDir || link || !rule.absOnly ? (frame.rel ? `${frame.rel}/${name}` : name) : "";
      let real = frame.real === frame.abs ? abs : join(frame.real, name);
      if (link) {
        // A link is remembered with the walk: retargeting it changes its folder's stamp, what
        // it leads to has stamps of its own (its folders, its files), and a dangling one is
        // stamped missing, so that its target appearing shows.
        const st = statThrough(abs);
        if (st === undefined) {
          lister.recording?.dirs.set(abs, MISSING_STAMP);
          continue;
        }
        if (st === null) {
          // A loop of links may come undone without a stamp telling: never remembered.
          if (lister.recording) lister.recording.stampsTell = false;
          // A loop of links: listed if the pattern wants it, its read says why it fails.
          isFile = true;
          isDir = false;
        } else {
          const target = realOrNull(abs);
          if (target === null) continue;
          if (!allowed(options.boundary, target) || isVirtual(target)) {
            // Refused where the pattern would have gone: a folder within reach, or a name it matches.
            if (st.isDirectory() ? frame.depth < rule.maxDepth : frame.depth <= rule.maxDepth && rule.keep(abs, rel)) {
              refuse(display ? `${display}/${rel}` : rel);
            }
            continue;
          }
          real = target;
          isDir = st.isDirectory();
          isFile = st.isFile();
          lister.recording?.links.push([abs, target]);
        }
      }
      if (isFile) {
        if (frame.depth > rule.maxDepth || !rule.keep(abs, rel)) continue;
        if (ignore?.ignores(join(frame.loc, name), false)) continue;
        items.push({ file: { abs, real }, link });
      } else if (isDir) {
        if (frame.depth >= rule.maxDepth || enteredDirs.has(real)) continue;
        const loc = join(frame.loc, name);
        if (ignore?.ignores(loc, true)) continue;
        // Listed ahead, in parallel (the thread pool reads while this thread matches).
        lister.prefetch(abs);
        items.push({ dir: { abs, real, loc, rel, depth: frame.depth + 1, ignore }, link });
      }
    }
    return items;
  };
  // Depth first, each folder's entries in name order, descending where met: the files come
  // out in Path order (part by part). What links lead to is taken afterwards, so a file or
  // folder reached both directly and through a link keeps its own path.
  const deferred: Item[] = [];
  /** Past the direct paths: what links lead to is checked against every file met. */
  let linked = false;
  // Without links, each real folder is entered once, so each real file is met once: the
  // set of files met is needed (and built) only for what links lead to.
  const take = async (item: Item): Promise<void> => {
    if ("file" in item) {
      if (seenFiles.has(item.file.real)) return;
      seenFiles.add(item.file.real);
      out.push(item.file);
      onFile?.(item.file);
    } else {
      if (enteredDirs.has(item.dir.real)) return;
      enteredDirs.add(item.dir.real);
      await visit(item.dir);
    }
  };
  // speky:speky-ts#SEC-PATH-TOO-LONG
  // A folder that cannot be listed (a path past PATH_MAX: ENAMETOOLONG; EACCES) is a warning
  // of the pattern naming it, and the walk goes on: it was an internal error, or silence.
  const unlistable = (frame: Frame) => (code: string) => {
    const where = display ? `${display}/${frame.rel}` : frame.rel;
    problems.push({
      severity: "warning",
      message: `${quote(pattern)}: cannot list the folder ${quote(where || ".")} (${code}${code === "ENAMETOOLONG" ? ": its path is too long" : ""}); nothing under it is reached`,
    });
  };
  const visit = async (frame: Frame): Promise<void> => {
    const items = itemsOf(frame, await lister.list(frame.abs, unlistable(frame)));
    await lister.breathe();
    for (const item of items) {
      if (item.link) deferred.push(item);
      else if (linked) await take(item);
      else if ("file" in item) {
        out.push(item.file);
        onFile?.(item.file);
      } else if (!enteredDirs.has(item.dir.real)) {
        enteredDirs.add(item.dir.real);
        await visit(item.dir);
      }
    }
  };
  await visit({ abs: start, real: startReal, loc: startReal, rel: "", depth: 1, ignore: rootIgnore });
  const direct = out.length;
  linked = true;
  if (deferred.length > 0) for (const file of out) seenFiles.add(file.real);
  for (let i = 0; i < deferred.length; i++) {
    const item = deferred[i];
    deferred[i] = undefined as unknown as Item; // let it go: a big tree defers many
    await take(item);
  }
  if (out.length === direct) return out;
  const keyed = out.map((file) => ({ file, parts: file.abs.split(path.sep) }));
  keyed.sort((a, b) => compareParts(a.parts, b.parts));
  return keyed.map((k) => k.file);
}
