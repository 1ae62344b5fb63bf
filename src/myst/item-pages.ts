// One page per requirement and per test, as speky's requirement_to_myst and test_to_myst
// write them: title, tag badges, the client's quote, the text, then the dropdowns (properties,
// tested by, references, source with "Implemented in"), the procedure and the comments.
import path from "node:path";
import type { Comment, Item, Manifest, Requirement, Test } from "../loader/types.js";
import { type MystWriter, md } from "./myst-writer.js";
import { compareCodePoints, compareParts, pyPathString } from "./python-text.js";
import { byId, type SpekyIndex, urlFor } from "./speky-index.js";
import type { SpekyReference } from "./speky-view.js";

export const title = (item: Item) => (item.short ? `\`${item.id}\` ${item.short}` : `\`${item.id}\``);

export const linkTo = (item: Item) => md.link(title(item), `/${item.kind === "requirement" ? "requirements" : "tests"}/${item.id}`);

const LANGUAGE_ICONS: Record<string, string> = {
  python: "{fab}`python`",
  go: "{fab}`golang`",
  rust: "{fab}`rust`",
  bash: "{fas}`terminal`",
};

function codeReference(ref: SpekyReference): string {
  const icon = Object.hasOwn(LANGUAGE_ICONS, ref.language) ? LANGUAGE_ICONS[ref.language] : undefined;
  const location = md.literal(`${ref.file}:${ref.line}`);
  const text = ref.url
    ? md.link(ref.symbol ? md.literal(ref.symbol) : location, ref.url)
    : ref.symbol
      ? `${md.literal(ref.symbol)} at ${location}`
      : location;
  return icon ? `${icon} ${text}` : text;
}

/** speky's CodeReference order (a dataclass with order=True): its fields in turn. */
function compareReferences(a: SpekyReference, b: SpekyReference): number {
  return (
    compareCodePoints(a.project, b.project) ||
    compareParts(a.absFile, b.absFile) ||
    a.line - b.line ||
    compareCodePoints(a.id, b.id) ||
    compareCodePoints(a.language, b.language) ||
    compareCodePoints(a.symbol ?? "", b.symbol ?? "") ||
    Number(a.is_test) - Number(b.is_test) ||
    compareCodePoints(a.url ?? "", b.url ?? "")
  );
}

/** speky's make_list_writer: one item alone on its line, several as a sorted list. */
function writeList<T>(out: MystWriter, items: readonly T[], show: (item: T) => string, sort: (list: readonly T[]) => T[]): void {
  if (items.length === 1) out.line(show(items[0]));
  else for (const item of sort(items)) out.line(`- ${show(item)}`);
}

export const writeLinks = (out: MystWriter, items: readonly Item[]) => writeList(out, items, linkTo, byId);

const writeCodeLinks = (out: MystWriter, refs: readonly SpekyReference[]) =>
  writeList(out, refs, codeReference, (list) => [...list].sort(compareReferences));

/** Items named by a list of IDs, sorted as speky's `sorted(map(by_id.__getitem__, ids))`. */
const named = (index: SpekyIndex, ids: readonly string[]) => byId(ids.map((id) => index.byId.get(id)!));

function manifestOf(index: SpekyIndex, item: Item): Manifest | undefined {
  return item.project === null ? undefined : index.manifestByName.get(item.project);
}

function sourceFileLabel(item: Item, manifest: Manifest | undefined): string {
  if (!manifest) return md.literal(pyPathString(item.source_file));
  const url = urlFor(manifest.source_links, path.resolve(manifest.root, item.source_file));
  return url ? md.link(md.literal(item.source_file), url) : md.literal(item.source_file);
}

function manifestLabel(manifest: Manifest): string {
  const url = urlFor(manifest.source_links, manifest.absFile);
  return url ? md.link(md.literal(manifest.name), url) : md.literal(manifest.name);
}

function sourceHead(out: MystWriter, item: Item, index: SpekyIndex): void {
  const manifest = manifestOf(index, item);
  out.line(`${md.bold("Source file")}: ${sourceFileLabel(item, manifest)}`);
  out.empty();
  if (manifest) {
    out.line(`${md.bold("Loaded from")}: ${manifestLabel(manifest)}`);
    out.empty();
  }
}

/** Comments in date order; equal dates keep load order (Python's sort is stable). */
function byDate(comments: readonly Comment[]): Comment[] {
  const key = (c: Comment) => {
    const [d, m, y] = c.date.split("/").map(Number);
    return (y * 100 + m) * 100 + d;
  };
  return [...comments].sort((a, b) => key(a) - key(b));
}

function writeComments(out: MystWriter, comments: readonly Comment[]): void {
  for (const comment of byDate(comments)) out.card(comment.from, comment.external, () => out.line(comment.text));
}

export function requirementPage(r: Requirement, index: SpekyIndex, out: MystWriter): void {
  out.heading(title(r), 0);
  for (const tag of r.tags) {
    const colon = tag.indexOf(":");
    if (colon >= 0) out.line(`{bdg-ref-info}\`${tag.slice(0, colon)} | ${tag.slice(colon + 1)} <${tag}>\``);
    else out.line(`{bdg-ref-primary}\`${tag} <${tag}>\``);
  }
  if (r.client_statement) out.quote(r.client_statement.split("\n"));
  out.empty();
  out.line(r.long);
  out.empty();
  const properties = r.properties;
  if (properties && Object.keys(properties).length > 0) {
    out.dropdown("Properties", "primary", false, "note", () => {
      for (const key of Object.keys(properties).sort(compareCodePoints)) {
        const value = String(properties[key]);
        out.line(`${md.bold(key)}: ${value.startsWith("http") ? md.link(value, value) : value}`);
        out.empty();
      }
    });
  }
  const testers = index.testersOf.get(r.id);
  if (testers) {
    out.dropdown("Tested by", "success", true, "check-circle-fill", () => writeLinks(out, testers));
    out.empty();
  }
  const referencedBy = index.references.get(r.id);
  if (referencedBy || r.ref.length > 0) {
    out.dropdown("References", "secondary", false, "link", () => {
      if (r.ref.length > 0) {
        out.line(md.bold("Relates to:"));
        writeLinks(out, named(index, r.ref));
        out.empty();
      }
      if (referencedBy) {
        out.line(md.bold("Referenced by:"));
        writeLinks(out, referencedBy);
        out.empty();
      }
    });
    out.empty();
  }
  out.dropdown("Source", "info", false, "file-code", () => {
    sourceHead(out, r, index);
    const refs = index.codeRefs.get(r.id);
    if (refs) {
      out.line(md.bold("Implemented in:"));
      writeCodeLinks(out, refs);
    }
  });
  out.empty();
  const comments = index.comments.get(r.id);
  if (comments) {
    out.line("-".repeat(10));
    out.line(md.bold("Comments"));
    writeComments(out, comments);
  }
}

export function testPage(t: Test, index: SpekyIndex, out: MystWriter): void {
  out.heading(title(t), 0);
  out.empty();
  out.line(t.long);
  out.empty();
  out.dropdown("Is a test for", "primary", true, "check-circle-fill", () => writeLinks(out, named(index, t.ref)));
  const refs = index.codeRefs.get(t.id) ?? [];
  const automated = refs.filter((r) => r.is_test);
  const others = refs.filter((r) => !r.is_test);
  if (automated.length > 0) {
    out.dropdown("Automated in", "success", true, "check-circle-fill", () => writeCodeLinks(out, automated));
  }
  out.dropdown("Source", "info", false, "file-code", () => {
    sourceHead(out, t, index);
    if (others.length > 0) {
      out.line(md.bold("Code references:"));
      writeCodeLinks(out, others);
    }
  });
  out.empty();
  out.heading("Initial state", 1);
  if (t.initial) {
    out.line(t.initial);
    out.empty();
  }
  if (t.prereq.length > 0) {
    out.line("The expected state is the final state of");
    writeLinks(out, named(index, t.prereq));
  }
  out.heading("Procedure", 1);
  t.steps.forEach((step, i) => {
    out.heading(`Step ${i + 1}`, 2);
    out.line(step.action);
    if (step.run !== undefined) {
      out.codeBlock("console", () => {
        out.line(`$ ${step.run}`);
        if (step.expected !== undefined) out.line(step.expected);
      });
    }
    if (step.sample !== undefined) out.codeBlock(step.sample_lang ?? "text", () => out.line(step.sample!));
  });
  out.empty();
  const comments = index.comments.get(t.id);
  if (comments) {
    out.heading("Comments", 1);
    writeComments(out, comments);
  }
}
