// File-system watching for the live model: whole trees (a manifest root, a code_sources base)
// and single folders (where a spec file given on the command line lives).
//
// macOS and Windows watch a tree natively (fs.watch recursive: one FSEvents stream or one
// ReadDirectoryChangesW handle). Linux has no recursive inotify, and Node 20's emulation of
// `recursive: true` puts a watch on every file, node_modules included, reads the whole tree
// synchronously and misses edits to a file replaced by rename (the way editors save). So on
// Linux each directory gets its own watcher, and a directory that appears in a watched tree is
// walked and watched as soon as its creation is reported. What is pruned follows the walk rule
// of src/fs/globs.ts: .git never, folders excluded by .gitignore/.ignore rules inside a git
// work tree (unless --no-ignore). The walk yields to the event loop as the scan's does.

import { type FSWatcher, readdirSync, realpathSync, statSync, watch } from "node:fs";
import path from "node:path";
import { GIT_DIR } from "../fs/globs.js";
import { IgnoreStack } from "../fs/ignore-rules.js";
import { Turns } from "../turns.js";

export interface WatchPlan {
  /** Directories watched with everything below them (but .git and ignored folders). */
  trees: readonly string[];
  /** Directories watched for their own entries only. */
  folders: readonly string[];
  /**
   * Directories watched for their own entries whatever ignore rules say (test results, which a
   * .gitignore usually excludes), even inside a tree.
   */
  results?: readonly string[];
}

/** A tree bigger than this is watched partly, with a warning, rather than exhausting inotify. */
const MAX_DIRECTORIES = 20_000;

const NATIVE_RECURSIVE = process.platform === "darwin" || process.platform === "win32";

function isDirectory(p: string): boolean {
  return statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

const inside = (child: string, parent: string) => child === parent || child.startsWith(parent + path.sep);

/** The plan without redundancy: no tree inside another tree, no folder inside a tree, sorted. */
export function normalisePlan(plan: WatchPlan): WatchPlan {
  const trees = [...new Set(plan.trees.map((t) => path.resolve(t)))].sort();
  const keptTrees = trees.filter((t) => !trees.some((o) => o !== t && inside(t, o)));
  const folders = [...new Set(plan.folders.map((f) => path.resolve(f)))].filter((f) => !keptTrees.some((t) => inside(f, t))).sort();
  const results = [...new Set((plan.results ?? []).map((f) => path.resolve(f)))].sort();
  return results.length > 0 ? { trees: keptTrees, folders, results } : { trees: keptTrees, folders };
}

interface Entry {
  watcher: FSWatcher;
  /** Reports changes below it too (a tree root, or a directory of a tree on Linux). */
  recursive: boolean;
}

export class TreeWatcher {
  private readonly entries = new Map<string, Entry>();
  private plan: WatchPlan = { trees: [], folders: [] };
  private full = false;
  private closed = false;
  /** Tree walks under way: settled() waits for them. */
  private walking = new Set<Promise<void>>();

  /**
   * @param onChange called with the absolute path of every entry reported changed, created or
   *   removed (never one under a pruned or ignored directory)
   * @param ignored absolute directories whose changes are never reported (the scan cache)
   */
  constructor(
    private readonly onChange: (absPath: string) => void,
    private readonly onWarning: (message: string) => void = () => {},
    private readonly ignored: readonly string[] = [],
    /** Apply .gitignore/.ignore rules inside git work trees (false: --no-ignore). */
    private readonly gitIgnore = true,
  ) {}

  /** Resolves once every tree walk started so far is done (all its folders watched). */
  async settled(): Promise<void> {
    while (this.walking.size > 0) await Promise.all([...this.walking]);
  }

  /** Watches what the plan names and stops watching what it no longer names. */
  update(next: WatchPlan): void {
    if (this.closed) return;
    const plan = normalisePlan(next);
    if (JSON.stringify(plan) === JSON.stringify(this.plan)) return;
    this.plan = plan;
    const results = plan.results ?? [];
    for (const [dir, entry] of [...this.entries]) {
      const inTree = plan.trees.some((t) => inside(dir, t));
      if (!inTree && !plan.folders.includes(dir) && !results.includes(dir)) this.unwatch(dir);
      // Re-added below with the right reach (a results folder a tree's walk pruned keeps its own).
      else if (entry.recursive !== inTree && !(results.includes(dir) && !entry.recursive)) this.unwatch(dir);
    }
    for (const tree of plan.trees) this.addTree(tree);
    for (const folder of [...plan.folders, ...results]) this.add(folder, false);
  }

  /** Directories currently watched (each with its own watcher on Linux), sorted. */
  watchedDirectories(): string[] {
    return [...this.entries.keys()].sort();
  }

  close(): void {
    this.closed = true;
    for (const dir of [...this.entries.keys()]) this.unwatch(dir);
  }

  private isIgnored(abs: string, base: string): boolean {
    const rel = path.relative(base, abs);
    if (rel.split(path.sep).includes(GIT_DIR)) return true;
    return this.ignored.some((i) => inside(abs, i));
  }

  /** Ignore rules in force in `dir` (its own files not read yet); null outside git or with --no-ignore. */
  private rulesAt(dir: string): IgnoreStack | null {
    if (!this.gitIgnore) return null;
    try {
      return IgnoreStack.at(realpathSync(dir));
    } catch {
      return null;
    }
  }

  private addTree(root: string): void {
    if (NATIVE_RECURSIVE) {
      this.add(root, true);
      return;
    }
    const walk = this.walkTree(root).finally(() => this.walking.delete(walk));
    this.walking.add(walk);
  }

  /** Depth first; directories only, links not followed (no cycle); yields every few ms. */
  private async walkTree(root: string): Promise<void> {
    const rootRules = this.rulesAt(root);
    // Rules locate paths from the real root: the tree's own path may go through a link.
    let realRoot = root;
    try {
      realRoot = realpathSync(root);
    } catch {
      // gone: the walk below finds nothing
    }
    const loc = (dir: string) => realRoot + dir.slice(root.length);
    const stack: { dir: string; rules: IgnoreStack | null }[] = [{ dir: root, rules: rootRules }];
    const turns = new Turns(true);
    while (stack.length > 0 && !this.closed) {
      const { dir, rules: outer } = stack.pop()!;
      // The plan may have changed while this walk yielded.
      if (!this.plan.trees.some((t) => inside(dir, t))) break;
      if (!this.add(dir, true)) continue;
      const rules = outer?.enter(loc(dir), dir) ?? null;
      let names: string[];
      try {
        names = readdirSync(dir, { withFileTypes: true })
          .filter((e) => e.isDirectory() && e.name !== GIT_DIR)
          .map((e) => e.name);
      } catch {
        continue;
      }
      for (const name of names) {
        const child = path.join(dir, name);
        if (this.isIgnored(child, root) || rules?.ignores(loc(child), true)) continue;
        stack.push({ dir: child, rules });
      }
      await turns.maybeTake();
    }
  }

  /** Watches one directory; false when it cannot be (gone, or the watch budget is spent). */
  private add(dir: string, recursive: boolean): boolean {
    const existing = this.entries.get(dir);
    if (existing) {
      if (existing.recursive || !recursive) return true;
      this.unwatch(dir);
    }
    if (this.entries.size >= MAX_DIRECTORIES) {
      this.warnFull(`more than ${MAX_DIRECTORIES} directories to watch`);
      return false;
    }
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { recursive: recursive && NATIVE_RECURSIVE, persistent: true }, (_event, name) => {
        try {
          this.report(dir, recursive, name === null ? null : String(name));
        } catch (error) {
          // A watcher must never bring the server down: say so, and count it as a change.
          this.onWarning(`watching ${dir}: ${error instanceof Error ? error.message : String(error)}`);
          this.onChange(dir);
        }
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOSPC" || code === "EMFILE") this.warnFull(`the system refused more watches (${code})`);
      return false;
    }
    // The directory went away (or became unreadable): forget it; its parent reports the removal.
    watcher.on("error", () => this.unwatch(dir));
    this.entries.set(dir, { watcher, recursive });
    return true;
  }

  private unwatch(dir: string): void {
    const entry = this.entries.get(dir);
    if (!entry) return;
    this.entries.delete(dir);
    entry.watcher.close();
  }

  private warnFull(reason: string): void {
    if (this.full) return;
    this.full = true;
    this.onWarning(`watching only part of the files: ${reason}; later changes elsewhere need a restart`);
  }

  private report(dir: string, recursive: boolean, name: string | null): void {
    if (this.closed) return;
    if (name === null) {
      // The platform did not say which entry changed: report the directory itself.
      this.onChange(dir);
      return;
    }
    const abs = path.join(dir, name);
    const root = recursive ? (this.plan.trees.find((t) => inside(dir, t)) ?? dir) : dir;
    if (this.isIgnored(abs, root)) return;
    if (recursive && !NATIVE_RECURSIVE) {
      if (isDirectory(abs)) {
        // A new (or renamed) directory of a tree: watch it and what it already holds.
        if (!this.entries.has(abs)) this.addTree(abs);
      } else {
        for (const watched of [...this.entries.keys()]) if (inside(watched, abs)) this.unwatch(watched);
      }
    }
    this.onChange(abs);
  }
}
