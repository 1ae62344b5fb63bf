// Every file speky's specification_to_myst writes, as paths relative to the output folder and
// their text, in the order speky writes them (a later page of the same name replaces an
// earlier one there, as here): css/speky.css, index.md, coverage.md, requirements/index.md,
// tests/index.md, each category's page followed by its items' pages, by_tag.md.
// speky:speky-ts#MYST-PAGES
import type { Model } from "../model/model.js";
import { requirementPage, testPage, writeLinks } from "./item-pages.js";
import { MystWriter } from "./myst-writer.js";
import { compareCodePoints, pyPercent, pyTitle } from "./python-text.js";
import { SPEKY_CSS } from "./speky-css.js";
import { byId, type SpekyIndex, spekyIndex } from "./speky-index.js";

const BUCKETS: [label: string, color: string, icon: string][] = [
  ["Automated", "success", "check-circle-fill"],
  ["Partially Manual", "primary", "gear"],
  ["Manual", "warning", "pencil"],
  ["No Test Plan", "danger", "x-circle-fill"],
];

function page(write: (out: MystWriter) => void): string {
  const out = new MystWriter();
  write(out);
  return out.text();
}

function coveragePage(index: SpekyIndex): string {
  return page((out) => {
    out.heading("Test Coverage", 0);
    for (const [manifest, categories] of index.coverage) {
      out.heading(pyTitle(manifest.name.replaceAll("_", " ")), 1);
      for (const [category, buckets] of categories) {
        const total = buckets.reduce((n, b) => n + b.length, 0);
        if (total === 0) continue;
        out.heading(`${pyTitle(category)} (${total} requirements)`, 2);
        buckets.forEach((items, i) => {
          const [label, color, icon] = BUCKETS[i];
          const heading = `${label} (${items.length} — ${pyPercent(items.length, total)})`;
          out.dropdown(heading, items.length > 0 ? color : "secondary", false, icon, () => writeLinks(out, items));
        });
      }
      out.empty();
    }
  });
}

function tagsPage(index: SpekyIndex): string {
  return page((out) => {
    out.heading("Tags", 0);
    let last: string | undefined;
    for (const tag of [...index.tags.keys()].sort(compareCodePoints)) {
      out.line(`(${tag})=`);
      const colon = tag.indexOf(":");
      if (colon >= 0) {
        const group = tag.slice(0, colon);
        if (last !== group) out.heading(pyTitle(group), 1);
        out.heading(pyTitle(tag.slice(colon + 1)), 2);
        last = group;
      } else {
        out.heading(pyTitle(tag), 1);
        last = tag;
      }
      writeLinks(out, index.tags.get(tag)!);
    }
  });
}

const categoryPage = (category: string, ids: readonly string[]) =>
  page((out) => {
    out.heading(pyTitle(category), 0);
    out.toctree(1, ids);
  });

/** The pages of the model, as speky writes them; `sort` is speky's --sort / --no-sort. */
export function mystPages(model: Model, sort: boolean, css = SPEKY_CSS): Map<string, string> {
  const index = spekyIndex(model);
  const files = new Map<string, string>();
  files.set("css/speky.css", css);
  const hasCoverage = index.coverage.size > 0;
  files.set(
    "index.md",
    page((out) => {
      out.heading("{{project}} Specification", 0);
      out.toctree(3, ["requirements/index", "tests/index", "by_tag", ...(hasCoverage ? ["coverage"] : [])]);
    }),
  );
  if (hasCoverage) files.set("coverage.md", coveragePage(index));
  const sortedKeys = (map: Map<string, unknown>) => [...map.keys()].sort(compareCodePoints);
  files.set(
    "requirements/index.md",
    page((out) => {
      out.heading("Requirements", 0);
      out.toctree(2, sortedKeys(index.requirementsByCategory));
    }),
  );
  files.set(
    "tests/index.md",
    page((out) => {
      out.heading("Tests", 0);
      out.toctree(2, sortedKeys(index.testsByCategory));
    }),
  );
  for (const [category, requirements] of index.requirementsByCategory) {
    files.set(
      `requirements/${category}.md`,
      categoryPage(
        category,
        (sort ? byId(requirements) : requirements).map((r) => r.id),
      ),
    );
    for (const r of requirements)
      files.set(
        `requirements/${r.id}.md`,
        page((out) => requirementPage(r, index, out)),
      );
  }
  // speky sorts the tests of a category whatever --sort says.
  for (const [category, tests] of index.testsByCategory) {
    files.set(
      `tests/${category}.md`,
      categoryPage(
        category,
        byId(tests).map((t) => t.id),
      ),
    );
    for (const t of tests)
      files.set(
        `tests/${t.id}.md`,
        page((out) => testPage(t, index, out)),
      );
  }
  files.set("by_tag.md", tagsPage(index));
  return files;
}
