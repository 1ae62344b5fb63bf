// The model the editor sees: the live model (watched, last good model kept), the positions of
// IDs in spec files, and the tags of open, unsaved source buffers laid over the scanned ones.
import { EventEmitter } from "node:events";
import path from "node:path";
import type { Diagnostic } from "../diagnostics.js";
import { holdScanUntil } from "../live/hold-scan.js";
import { LiveModel } from "../live/live-model.js";
import type { ScanProgress } from "../live/state.js";
import { readSpecFile } from "../loader/files.js";
import type { Item } from "../loader/types.js";
import type { Model } from "../model/model.js";
import type { RawTag } from "../scan/engine/index.js";
import { type Definition, indexSpecText, type SpecFileIndex } from "./spec-index.js";

/** A code reference as the editor needs it: where the tag is written. */
export interface TagPlace {
  abs: string;
  /** 0-based line, 1-based code-point column (the scanner's). */
  line: number;
  column: number;
  project: string;
  id: string;
  is_test: boolean;
}

/** Where a spec file stands in the served model. */
export interface SpecFilePlace {
  /** Its index in the load order. */
  index: number;
  display: string;
  project: string | null;
}

export interface OpenText {
  text: string;
  version: number;
}

export interface ProjectEvents {
  /** A new model is served (first load, reload, or the scan finished). */
  changed: [];
  /** The specs failed to load (first load) or to reload (the last good model stays). */
  rejected: [problems: Diagnostic[]];
  warning: [message: string];
  /** Every spec file of the served model is indexed (requests no longer parse any). */
  indexed: [];
}

const SPEC_INDEX_EXTENSIONS = new Set([".yaml", ".yml", ".toml"]);
/** Quiet time after a file change before reloading. */
const DEBOUNCE_MS = 100;

export class Project extends EventEmitter<ProjectEvents> {
  private live: LiveModel | null = null;
  /** Problems of the latest load attempt when no model could be loaded at all. */
  failure: Diagnostic[] = [];
  /** Bumped at every model change: tells a client which model answered. */
  generation = 0;
  private readonly diskIndexes = new Map<string, Promise<SpecFileIndex>>();
  private readonly openIndexes = new Map<string, { version: number; index: Promise<SpecFileIndex> }>();
  /** Tags of open source buffers, by absolute path (loaded projects only). */
  private readonly overlays = new Map<string, RawTag[]>();
  private opening: Promise<void> | null = null;

  constructor(
    readonly paths: string[],
    readonly cwd: string,
    private readonly openText: (abs: string) => OpenText | undefined,
    private readonly watch = true,
    /** `--results` globs (absolute). */
    private readonly results: string[] = [],
  ) {
    super();
  }

  get model(): Model | null {
    return this.live?.current ?? null;
  }

  /** The first scan of the code sources while it runs (the specs are served meanwhile), else null. */
  get scanProgress(): ScanProgress | null {
    return this.live?.snapshot().scanning ?? null;
  }

  /** True while the first scan of the code sources runs. */
  get scanning(): boolean {
    return this.scanProgress !== null;
  }

  get loading(): boolean {
    return this.opening !== null;
  }

  /** The loader's problems of the latest attempt (warnings of the served model, or the errors). */
  get problems(): readonly Diagnostic[] {
    return this.live ? this.live.snapshot().problems : this.failure;
  }

  // speky:speky-ts#LSP-LIVE
  /** Loads in the background: the caller (initialize) never waits for it. */
  open(): Promise<void> {
    this.opening ??= this.load().finally(() => {
      this.opening = null;
    });
    return this.opening;
  }

  private async load(): Promise<void> {
    if (this.live || this.paths.length === 0) return;
    // The specs are served as soon as they load; the code is scanned after, in the background.
    const { live, diagnostics } = await LiveModel.open(
      this.paths,
      { cwd: this.cwd, results: this.results },
      { debounceMs: DEBOUNCE_MS, background: true, afterWalk: holdScanUntil(process.env.SPEKY_LSP_HOLD_SCAN) },
    );
    if (!live) {
      this.failure = diagnostics;
      this.emit("rejected", diagnostics);
      return;
    }
    this.live = live;
    this.failure = [];
    live.on("swapped", () => this.swapped());
    // Same specs, now with their code references.
    live.on("scanned", () => {
      this.generation++;
      this.emit("changed");
    });
    live.on("rejected", (problems) => this.emit("rejected", problems));
    live.on("warning", (message) => this.emit("warning", message));
    if (this.watch) live.startWatching();
    this.swapped();
  }

  /** After a save: a project that never loaded tries again (a loaded one follows its watcher). */
  retry(): void {
    if (!this.live) void this.open();
  }

  close(): void {
    this.live?.stopWatching();
  }

  private swapped(): void {
    this.diskIndexes.clear();
    this.generation++;
    this.emit("changed");
    void this.warm();
  }

  /** Indexes every spec file ahead of the first request, yielding between files. */
  private async warm(): Promise<void> {
    const files = this.model?.specs.files ?? [];
    this.indexed = false;
    for (const file of files) {
      if (this.model?.specs.files !== files) return;
      if (SPEC_INDEX_EXTENSIONS.has(path.extname(file).toLowerCase())) await this.indexOf(file);
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.indexed = true;
    this.emit("indexed");
  }

  /** True once every spec file of the served model is indexed. */
  indexed = false;

  /** Positions of the IDs of a spec file: from its open buffer, else from disk. */
  indexOf(abs: string): Promise<SpecFileIndex> {
    const open = this.openText(abs);
    if (open) {
      const cached = this.openIndexes.get(abs);
      if (cached?.version === open.version) return cached.index;
      const index = indexSpecText(abs, open.text);
      this.openIndexes.set(abs, { version: open.version, index });
      return index;
    }
    this.openIndexes.delete(abs);
    let index = this.diskIndexes.get(abs);
    if (!index) {
      index = readSpecFile(abs).then((file) => ("problem" in file ? indexSpecText(abs, "") : indexSpecText(abs, file.text)));
      this.diskIndexes.set(abs, index);
    }
    return index;
  }

  /** Spec files of the served model that the index covers. */
  specFiles(): string[] {
    return (this.model?.specs.files ?? []).filter((f) => SPEC_INDEX_EXTENSIONS.has(path.extname(f).toLowerCase()));
  }

  rootOf(project: string | null): string {
    if (project === null) return this.cwd;
    const lower = project.toLowerCase();
    return this.model?.manifests.find((m) => m.name.toLowerCase() === lower)?.root ?? this.cwd;
  }

  /** The loaded manifest named `project` (case-insensitive), if any. */
  projectNamed(project: string): string | undefined {
    const lower = project.toLowerCase();
    return this.model?.manifests.find((m) => m.name.toLowerCase() === lower)?.name;
  }

  specFileOf(item: Item): string {
    return path.resolve(this.rootOf(item.project), item.source_file);
  }

  /** Where an item's `id` is written; the item's own location when the file can't tell. */
  async definitionOf(item: Item): Promise<{ abs: string; spot: Pick<Definition, "line" | "start" | "end"> }> {
    const abs = this.specFileOf(item);
    const found = (await this.indexOf(abs)).byId.get(item.id);
    return {
      abs,
      spot: found ?? {
        line: Math.max(0, item.loc.line - 1),
        start: Math.max(0, item.loc.column - 1),
        end: Math.max(0, item.loc.column - 1),
      },
    };
  }

  private order: { generation: number; files: Map<string, SpecFilePlace>; items: { item: Item; file: number }[] } | null = null;

  /**
   * The served model's spec files that hold items (with the place of each in the load order
   * and its displayed path), and its items with the load-order index of their file.
   */
  loadOrder(): { files: Map<string, SpecFilePlace>; items: { item: Item; file: number }[] } {
    if (this.order?.generation === this.generation) return this.order;
    const model = this.model;
    const index = new Map((model?.specs.files ?? []).map((f, i) => [f, i]));
    const files = new Map<string, SpecFilePlace>();
    const items: { item: Item; file: number }[] = [];
    for (const item of [...(model?.specs.requirements ?? []), ...(model?.specs.tests ?? [])]) {
      const abs = this.specFileOf(item);
      let place = files.get(abs);
      if (!place) {
        place = { index: index.get(abs) ?? -1, display: item.source_file, project: item.project };
        files.set(abs, place);
      }
      items.push({ item, file: place.index });
    }
    items.sort((a, b) => a.file - b.file);
    this.order = { generation: this.generation, files, items };
    return this.order;
  }

  private names: { generation: number; list: { item: Item; name: string; lower: string }[] } | null = null;

  /** Requirements then tests as workspace symbols name them ("ID: short title"), lower-cased too. */
  symbolNames(): { item: Item; name: string; lower: string }[] {
    if (this.names?.generation !== this.generation) {
      const list = [...(this.model?.specs.requirements ?? []), ...(this.model?.specs.tests ?? [])].map((item) => {
        const name = item.short ? `${item.id}: ${item.short}` : item.id;
        return { item, name, lower: name.toLowerCase() };
      });
      this.names = { generation: this.generation, list };
    }
    return this.names.list;
  }

  setOverlay(abs: string, tags: RawTag[]): void {
    this.overlays.set(abs, tags);
  }

  dropOverlay(abs: string): void {
    this.overlays.delete(abs);
  }

  /** The code references of an ID, open buffers' tags replacing what the scan found in them. */
  tagsOf(id: string): TagPlace[] {
    const model = this.model;
    if (!model) return [];
    const places: TagPlace[] = [];
    for (const r of model.codeReferencesById.get(id) ?? []) {
      const abs = path.resolve(this.rootOf(r.project), r.file);
      if (this.overlays.has(abs)) continue;
      places.push({ abs, line: r.tag_line - 1, column: r.tag_column, project: r.project, id, is_test: r.is_test });
    }
    for (const [abs, tags] of this.overlays) {
      for (const t of tags) {
        if (t.id === id && t.reference)
          places.push({ abs, line: t.tag_line - 1, column: t.tag_column, project: t.project, id, is_test: t.is_test });
      }
    }
    return places;
  }
}
