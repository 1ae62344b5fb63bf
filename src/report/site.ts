// Writes the static site. The output folder may sit inside a hostile checkout: it is checked by
// the writers' rule (src/fs/write-output.ts: no link leading out on its way, not a link itself),
// only ever emptied when our own marker file says we wrote it, and every file is created afresh
// (O_EXCL), so that a planted symbolic link is never followed out of the folder.
import fs from "node:fs";
import path from "node:path";
import { type OutputOptions, OutputPathError, outputFolder, writeNewFile } from "../fs/write-output.js";
import { quote } from "../quote.js";
import { INDEX_SCRIPT } from "./assets/index-script.js";
import { ITEM_SCRIPT } from "./assets/item-script.js";
import { STYLESHEET } from "./assets/style.js";
import type { ReportData } from "./data.js";
import { changesPage } from "./pages/changes-page.js";
import { indexPage } from "./pages/index-page.js";
import { requirementFiles, testFiles } from "./pages/item-pages.js";
import { matrixPage, problemsPage, testsPage } from "./pages/list-pages.js";

export const MARKER = ".speky-report";
const OWNED = [
  MARKER,
  "index.html",
  "tests.html",
  "matrix.html",
  "problems.html",
  "changes.html",
  "report.md",
  "assets",
  "requirements",
  "tests",
];

/** A refused output folder: one line and exit 2. */
export { OutputPathError as OutputError };

/**
 * Makes `dir` (relative to `place.cwd`) an empty-of-our-files folder we may write into; returns
 * its absolute path.
 */
// speky:speky-ts#REPORT-SAFE
export function prepareOutput(dir: string, place: OutputOptions = {}): string {
  const abs = path.resolve(place.cwd ?? process.cwd(), dir);
  const shown = place.shown ?? dir;
  if (outputFolder(dir, place) === "folder" && fs.readdirSync(abs).length > 0) {
    if (!fs.existsSync(path.join(abs, MARKER))) {
      throw new OutputPathError(
        `output folder ${quote(shown)} is not empty and was not written by speky report; choose another --out or empty it`,
      );
    }
    // rm never follows a symbolic link: a planted one is removed, its target left alone.
    for (const name of OWNED) fs.rmSync(path.join(abs, name), { recursive: true, force: true });
  }
  writeNewFile(path.join(abs, MARKER), "This folder was written by `speky report`; it is emptied and rewritten on the next run.\n");
  return abs;
}

export interface SiteStats {
  pages: number;
  bytes: number;
}

// speky:speky-ts#REPORT-HTML
export function writeSite(data: ReportData, out: string, place: OutputOptions = {}): SiteStats {
  const dir = prepareOutput(out, place);
  let pages = 0;
  let bytes = 0;
  // Piece by piece: a page is never one string (src/report/bounds.ts).
  const put = (file: string, content: string | Iterable<string>) => {
    if (file.endsWith(".html")) pages++;
    bytes += writeNewFile(path.join(dir, file), content);
  };
  for (const sub of ["assets", "requirements", "tests"]) fs.mkdirSync(path.join(dir, sub));
  put("assets/report.css", STYLESHEET);
  put("assets/index.js", INDEX_SCRIPT);
  put("assets/item.js", ITEM_SCRIPT);
  put("index.html", indexPage(data));
  put("tests.html", testsPage(data));
  put("matrix.html", matrixPage(data));
  put("problems.html", problemsPage(data));
  if (data.changes) put("changes.html", changesPage(data, data.changes));
  for (const [file, html] of requirementFiles(data)) put(`requirements/${file}`, html);
  for (const [file, html] of testFiles(data)) put(`tests/${file}`, html);
  return { pages, bytes };
}
