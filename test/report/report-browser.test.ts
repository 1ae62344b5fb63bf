// The report as a person sees it: Debian's headless Chromium opens the generated site from
// the file system, searches, follows links, and every page's structure is checked in the DOM.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../bench/chromium.js";
import { generateLargeSpec } from "../../bench/generate.js";
import { runSpeky, tempDir } from "../support/process.js";
import { reportFixture } from "../support/report.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

interface Watched {
  page: Page;
  errors: string[];
  requests: string[];
  dialogs: string[];
}

async function open(url: string, options: { width?: number; colorScheme?: "light" | "dark" } = {}): Promise<Watched> {
  const page = await browser.newPage({
    viewport: { width: options.width ?? 1280, height: 900 },
    colorScheme: options.colorScheme ?? "light",
  });
  const watched: Watched = { page, errors: [], requests: [], dialogs: [] };
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") watched.errors.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => watched.errors.push(`pageerror: ${e.message}`));
  page.on("request", (r) => watched.requests.push(r.url()));
  page.on("dialog", (d) => {
    watched.dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(url);
  return watched;
}

function report(fixture: string): { dir: string; out: string; url: (file: string) => string } {
  const dir = reportFixture(fixture);
  const run = runSpeky(["report", "speky.yaml"], dir);
  expect(run.status).toBe(0);
  const out = path.join(dir, "speky-report");
  const url = (file: string) => {
    const [name, fragment] = file.split("#");
    return pathToFileURL(path.join(out, name)).href + (fragment === undefined ? "" : `#${fragment}`);
  };
  return { dir, out, url };
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): { width: number; height: number; bytes: number } {
  const png = readFileSync(file);
  expect(png.subarray(1, 4).toString()).toBe("PNG");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), bytes: png.length };
}

const visibleRowIds = (page: Page) => page.locator("#requirements-table tbody tr td:first-child a").allTextContents();

const noNetwork = (w: Watched) => expect(w.requests.filter((u) => !u.startsWith("file:"))).toEqual([]);

describe("speky report in Chromium", () => {
  // speky:speky-ts#TREPORT-BROWSER
  it("lists every requirement, searches, filters, sorts and follows an ID to its tests and code", async () => {
    const { url } = report("shop");
    const shots = tempDir("speky-report-shots-");
    const w = await open(url("index.html"));
    const { page } = w;
    expect(await visibleRowIds(page)).toEqual(["CART-ADD", "CART-REMOVE", "CHECKOUT", "PERF-SEARCH", "RECEIPT"]);
    await page.screenshot({ path: path.join(shots, "index.png"), fullPage: true });

    await page.getByLabel("Search").fill("remove");
    expect(await visibleRowIds(page)).toEqual(["CART-REMOVE"]);
    expect(await page.locator("#status").textContent()).toBe("1 of 5 requirements match");
    await page.getByLabel("Search").fill("card payment"); // every word, in any field (here the long text and a tag)
    expect(await visibleRowIds(page)).toEqual(["CHECKOUT"]);
    await page.getByLabel("Search").fill("");
    await page.getByRole("combobox", { name: "Tag" }).selectOption("payment");
    expect(await visibleRowIds(page)).toEqual(["CHECKOUT", "RECEIPT"]);
    await page.getByRole("combobox", { name: "Tag" }).selectOption("");
    await page.getByRole("combobox", { name: "Coverage" }).selectOption("no_test_plan");
    expect(await visibleRowIds(page)).toEqual(["PERF-SEARCH", "RECEIPT"]);
    await page.getByRole("combobox", { name: "Coverage" }).selectOption("");
    await page.getByRole("combobox", { name: "Category" }).selectOption("performance");
    expect(await visibleRowIds(page)).toEqual(["PERF-SEARCH"]);
    await page.getByRole("combobox", { name: "Category" }).selectOption("");

    await page.getByRole("button", { name: "Tests" }).click(); // ascending, then descending
    await page.getByRole("button", { name: "Tests" }).click();
    expect(await page.locator("th[data-sort=tests]").getAttribute("aria-sort")).toBe("descending");
    expect(await visibleRowIds(page)).toEqual(["CART-ADD", "CHECKOUT", "CART-REMOVE", "PERF-SEARCH", "RECEIPT"]);

    await page.getByRole("link", { name: "CART-ADD", exact: true }).click();
    await page.waitForURL(/requirements\/0001\.html#CART-ADD$/);
    const article = page.locator("article:target");
    expect(await article.locator("h2 .id").textContent()).toBe("CART-ADD");
    expect(await page.locator("article.item:visible").count()).toBe(1);
    expect(await article.locator("h4 a.id").allTextContents()).toEqual(["T-CART-ADD", "T-CART-REMOVE"]);
    expect(await article.locator("h4 .badge").allTextContents()).toEqual(["Automated", "Automated"]);
    expect(await article.locator("table.code tbody tr").allInnerTexts()).toEqual(["src/cart.py:6\tCart.add\tmethod\tno"]);
    expect(await article.locator("table.code a").getAttribute("href")).toBe("https://git.example.org/acme/shop/blob/main/src/cart.py#L6");
    expect(await article.locator(".comments li").allInnerTexts()).toEqual([
      "Alice Martin, 02/03/2026\n\nShould adding an item that is out of stock show a message?",
      "Bob (client), 05/03/2026 external\n\nYes, with the date it is back in stock.",
    ]);
    expect(await page.title()).toBe("CART-ADD — Requirements CART-ADD to RECEIPT — shop");
    await page.screenshot({ path: path.join(shots, "requirement.png"), fullPage: true });

    await article.getByRole("link", { name: "T-CART-REMOVE" }).click();
    await page.waitForURL(/tests\/0001\.html#T-CART-REMOVE$/);
    const test = page.locator("article:target");
    expect(await test.locator("section").filter({ hasText: "Validates" }).locator("a.id").allTextContents()).toEqual([
      "CART-REMOVE",
      "CART-ADD",
    ]);
    expect(await test.locator("table.code tbody tr").allInnerTexts()).toEqual(["tests/test_cart.py:12\ttest_remove\tfunction\tyes"]);

    expect(w.errors).toEqual([]);
    expect(w.dialogs).toEqual([]);
    noNetwork(w);
    for (const [name, minHeight] of [
      ["index.png", 900],
      ["requirement.png", 900],
    ] as const) {
      const size = pngSize(path.join(shots, name));
      expect(size.width).toBe(1280);
      expect(size.height).toBeGreaterThanOrEqual(minHeight);
      expect(size.height).toBeLessThan(20_000);
      expect(size.bytes).toBeGreaterThan(20_000);
      expect(size.bytes).toBeLessThan(5_000_000);
    }
    await page.close();
  });

  // speky:speky-ts#TREPORT-STRUCTURE
  it("has unique element ids, resolving links and references, one h1 and the landmarks on every page", async () => {
    const { out, url } = report("shop");
    const pages = readdirSync(out, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".html"))
      .sort();
    expect(pages).toEqual(["index.html", "matrix.html", "problems.html", "requirements/0001.html", "tests.html", "tests/0001.html"]);
    const idsOf = new Map<string, Set<string>>();
    const links: { from: string; href: string }[] = [];
    for (const file of pages) {
      const w = await open(url(file));
      const facts = await w.page.evaluate(() => {
        const ids = [...document.querySelectorAll("[id]")].map((e) => e.id);
        const refs = [...document.querySelectorAll("[aria-labelledby], label[for]")].flatMap((e) =>
          (e.getAttribute("aria-labelledby") ?? e.getAttribute("for") ?? "").split(/\s+/),
        );
        return {
          ids,
          refs,
          hrefs: [...document.querySelectorAll("a[href]")].map((a) => (a as HTMLAnchorElement).href),
          h1: document.querySelectorAll("h1").length,
          main: document.querySelectorAll("main").length,
          nav: document.querySelectorAll("header nav[aria-label]").length,
          lang: document.documentElement.lang,
          unlabeled: [...document.querySelectorAll("input, select")].filter((e) => (e as HTMLInputElement).labels?.length === 0).length,
          headless: [...document.querySelectorAll("table")].filter((t) => t.querySelector("th") === null).length,
        };
      });
      expect(new Set(facts.ids).size, `duplicate ids in ${file}`).toBe(facts.ids.length);
      expect(
        facts.refs.filter((r) => !facts.ids.includes(r)),
        `dangling references in ${file}`,
      ).toEqual([]);
      expect([facts.h1, facts.main, facts.nav, facts.lang, facts.unlabeled, facts.headless]).toEqual([1, 1, 1, "en", 0, 0]);
      idsOf.set(url(file), new Set(facts.ids));
      for (const href of facts.hrefs) links.push({ from: file, href });
      expect(w.errors).toEqual([]);
      noNetwork(w);
      await w.page.close();
    }
    const unresolved = links.filter(({ href }) => {
      if (href.startsWith("https://git.example.org/acme/shop/blob/main/")) return false; // source_links
      const [file, fragment] = href.split("#");
      const ids = idsOf.get(file);
      if (ids === undefined) return true;
      return fragment !== undefined && !ids.has(decodeURIComponent(fragment));
    });
    expect(unresolved).toEqual([]);
    expect(links.length).toBeGreaterThan(50);
  });

  // speky:speky-ts#TREPORT-A11Y
  it("works from the keyboard with visible focus, fits a phone, follows the dark scheme and prints without navigation", async () => {
    const { url } = report("shop");
    const w = await open(url("index.html"));
    const { page } = w;
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe("solid");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("main");
    // Tab from the start of main reaches the search box, and typing there filters.
    for (let i = 0; i < 30 && (await page.evaluate(() => document.activeElement?.id)) !== "q"; i++) await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("q");
    await page.keyboard.type("receipt");
    expect(await visibleRowIds(page)).toEqual(["RECEIPT"]);
    await page.keyboard.press("Tab"); // category
    await page.keyboard.press("Tab"); // tag
    await page.keyboard.press("Tab"); // coverage
    await page.keyboard.press("Tab"); // the table's scroll region
    await page.keyboard.press("Tab"); // first sort button
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("ID");
    await page.keyboard.press("Enter");
    expect(await page.locator("th[data-sort=id]").getAttribute("aria-sort")).toBe("descending");

    const dark = await open(url("requirements/0001.html#CHECKOUT"), { colorScheme: "dark", width: 390 });
    const background = await dark.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe("rgb(13, 17, 23)");
    // Nothing but the tables' own scroll regions is wider than a phone.
    expect(await dark.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const phoneIndex = await open(url("index.html"), { width: 390 });
    expect(await phoneIndex.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await page.emulateMedia({ media: "print" });
    expect(await page.locator("header.site").isVisible()).toBe(false);
    expect(await page.locator("#filters").isVisible()).toBe(false);
    expect(await page.locator("#requirements-table").isVisible()).toBe(true);
    for (const x of [w, dark, phoneIndex]) {
      expect(x.errors).toEqual([]);
      noNetwork(x);
      await x.page.close();
    }
  });

  it("shows the first 50 of a large table, finds any requirement by search, and shows more on demand", async () => {
    const dir = tempDir();
    const manifest = await generateLargeSpec(dir, { requirements: 260, tests: 20 });
    expect(runSpeky(["report", manifest, "--out", path.join(dir, "out")], dir).status).toBe(0);
    const w = await open(pathToFileURL(path.join(dir, "out/index.html")).href);
    const { page } = w;
    const ids = await visibleRowIds(page);
    expect(ids).toHaveLength(50);
    expect(ids[49]).toBe("REQ-00049");
    expect(await page.locator("#status").textContent()).toBe("260 requirements, the first 50 shown");
    await page.getByLabel("Search").fill("number 259");
    expect(await visibleRowIds(page)).toEqual(["REQ-00259"]);
    expect(await page.locator("#requirements-table tbody tr").first().locator("td").allInnerTexts()).toEqual([
      "REQ-00259",
      "Requirement number 259",
      "functional",
      "area:net priority-1",
      "No test plan",
      "0",
      "0",
    ]);
    await page.getByRole("link", { name: "REQ-00259" }).click();
    await page.waitForURL(/requirements\/0003\.html#REQ-00259$/);
    expect(await page.locator("article:target h2 .id").textContent()).toBe("REQ-00259");
    await page.goBack();
    // Typed key by key (each keystroke narrows the last hits), then widened with Backspace.
    await page.getByLabel("Search").fill("");
    await page.getByLabel("Search").pressSequentially("req-0025");
    expect(await visibleRowIds(page)).toEqual(Array.from({ length: 10 }, (_, i) => `REQ-0025${i}`));
    await page.getByLabel("Search").press("Backspace");
    expect(await page.locator("#status").textContent()).toBe("60 of 260 requirements match, the first 50 shown");
    await page.getByLabel("Search").fill("requirement");
    await page.getByRole("button", { name: "Show all 260" }).click();
    expect(await visibleRowIds(page)).toHaveLength(260);
    expect(await page.locator("#show-more").isHidden()).toBe(true);
    expect(w.errors).toEqual([]);
    noNetwork(w);
    await page.close();
  });

  it("shows a hostile specification as text: no script runs, no request leaves", async () => {
    const { url } = report("hostile");
    const w = await open(url("index.html"));
    const { page } = w;
    expect(await visibleRowIds(page)).toEqual(["../../etc/passwd", "CASE", "Case", "X</script><script>alert(1)</script>", "main"]);
    expect(await page.locator("#requirements-table tbody tr", { hasText: "X</script>" }).locator("td").nth(1).textContent()).toBe(
      "<img src=x onerror=alert('short')>",
    );
    await page.getByLabel("Search").fill("<iframe");
    expect(await visibleRowIds(page)).toEqual(["X</script><script>alert(1)</script>"]);
    await page.getByRole("link", { name: "X</script><script>alert(1)</script>" }).click();
    const article = page.locator("article:target");
    expect(await article.locator("blockquote").textContent()).toBe("<iframe src=https://example.com></iframe>");
    expect(await page.locator("img, iframe, svg[onload], [onclick], [onerror]").count()).toBe(0);
    await page.goto(url("requirements/0001.html#main-2"));
    expect(await page.locator("article:target h2 .id").textContent()).toBe("main");
    expect(await page.locator("article:target table.code a").count()).toBe(0); // javascript: source_links: no link
    expect(await page.locator("article:target table.code code").first().textContent()).toBe("src/evil.py:2");
    expect(w.dialogs).toEqual([]);
    expect(w.errors).toEqual([]);
    noNetwork(w);
    await page.close();
  });
});
