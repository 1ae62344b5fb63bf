// Writes the static site. The output folder may sit inside a hostile checkout: it is only
// ever emptied when our own marker file says we wrote it, and every file is created afresh
// (O_EXCL), so that a planted symbolic link is never followed out of the folder.
import fs from "node:fs";
import path from "node:path";
import { outputFolderState } from "../fs/output-folder.js";
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

export class OutputError extends Error {}

/** Makes `dir` an empty-of-our-files folder we may write into. */
// speky:speky-ts#REPORT-SAFE
export function prepareOutput(dir: string): void {
  const state = outputFolderState(dir);
  if (state === "link") {
    throw new OutputError(`output folder ${quote(dir)} is a symbolic link; give the real folder`);
  } else if (state === "not-a-folder") {
    throw new OutputError(`output folder ${quote(dir)} exists and is not a folder`);
  } else if (state === "folder" && fs.readdirSync(dir).length > 0) {
    if (!fs.existsSync(path.join(dir, MARKER))) {
      throw new OutputError(
        `output folder ${quote(dir)} is not empty and was not written by speky report; choose another --out or empty it`,
      );
    }
    // rm never follows a symbolic link: a planted one is removed, its target left alone.
    for (const name of OWNED) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  }
  fs.writeFileSync(path.join(dir, MARKER), "This folder was written by `speky report`; it is emptied and rewritten on the next run.\n", {
    flag: "wx",
  });
}

const write = (file: string, content: string) => fs.writeFileSync(file, content, { flag: "wx" });
/** Characters gathered before one write of a page given in pieces. */
const WRITE_CHARS = 256 * 1024;

export interface SiteStats {
  pages: number;
  bytes: number;
}

// speky:speky-ts#REPORT-HTML
export function writeSite(data: ReportData, dir: string): SiteStats {
  prepareOutput(dir);
  let pages = 0;
  let bytes = 0;
  // Piece by piece: a page is never one string (src/report/bounds.ts).
  const put = (file: string, content: string | Iterable<string>) => {
    if (file.endsWith(".html")) pages++;
    if (typeof content === "string") {
      write(path.join(dir, file), content);
      bytes += Buffer.byteLength(content);
      return;
    }
    const fd = fs.openSync(path.join(dir, file), "wx");
    let pending = "";
    const flush = () => {
      const buffer = Buffer.from(pending);
      for (let at = 0; at < buffer.length; ) at += fs.writeSync(fd, buffer, at);
      bytes += buffer.length;
      pending = "";
    };
    try {
      for (const piece of content) {
        pending += piece;
        if (pending.length >= WRITE_CHARS) flush();
      }
      flush();
    } finally {
      fs.closeSync(fd);
    }
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
