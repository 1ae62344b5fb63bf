// `speky report --diff` on the review history (test/support/review-history.ts), with the working
// tree carrying uncommitted changes: a requirement reworded again and a second project added.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../bench/chromium.js";
import { cacheEnv, removeScratch, scratch } from "../support/git-repo.js";
import { runSpeky } from "../support/process.js";
import { type ReviewHistory, reviewHistory } from "../support/review-history.js";

afterAll(removeScratch);

const CART_PROJECT = {
  "cart/speky.yaml": "kind: project\nname: cart\nfiles: [reqs.yaml]\ncode_sources: ['src/*.py']\n",
  "cart/reqs.yaml":
    "kind: requirements\ncategory: cart\nrequirements:\n  - id: CART-1\n    short: Baskets\n    long: A basket holds items.\n",
  "cart/src/basket.py": "# speky:cart#CART-1\ndef add(item):\n    return [item]\n",
};

let h: ReviewHistory;
let env: Record<string, string>;
beforeAll(() => {
  h = reviewHistory();
  env = cacheEnv();
  const reqs = path.join(h.repo.dir, "shop/reqs.yaml");
  h.repo.write({
    "shop/reqs.yaml": readFileSync(reqs, "utf8").replace("A checkout sums the cart, rounded.", "A checkout sums <b>the</b> cart."),
    ...CART_PROJECT,
  });
});

describe("speky report --diff as a reviewer reads it", () => {
  // speky:speky-ts#TDIFF-REPORT-TEXTS
  it("shows each changed text as it was and as it is, a Project column across projects, and a project added", () => {
    const out = path.join(scratch(), "site");
    const run = runSpeky(["report", "shop/speky.yaml", "cart/speky.yaml", "--diff", h.review, "--out", out], h.repo.dir, env);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const page = readFileSync(path.join(out, "changes.html"), "utf8");
    expect(page).toContain(
      `<dl class="text-change"><dt>long, before</dt><dd class="was">A checkout sums the cart, rounded.</dd><dt>long, after</dt><dd class="now">A checkout sums &lt;b&gt;the&lt;/b&gt; cart.</dd></dl>`,
    );
    expect(page).toContain(`<th scope="col">Change</th><th scope="col">Project</th><th scope="col">ID</th>`);
    expect(page).toContain(
      `<td>added</td><td>cart</td><td><a class="id" href="requirements/0001.html#CART-1">CART-1</a></td><td>Baskets</td>`,
    );
    expect(page).toContain(`<td>changed</td><td>shop</td>`);
    expect(page).toContain(">Manifests (1)</h2>");
    expect(page).toContain(`<td>added</td><td>cart</td><td><code>cart/speky.yaml</code></td>`);
  });

  // speky:speky-ts#TREPORT-PROJECTS
  it("gives the index a Project column and filter when the report holds several projects, in Chromium", async () => {
    const out = path.join(scratch(), "site");
    expect(runSpeky(["report", "shop/speky.yaml", "cart/speky.yaml", "--out", out], h.repo.dir, env).status).toBe(0);
    const index = readFileSync(path.join(out, "index.html"), "utf8");
    expect(index).toContain(`<th scope="col" data-sort="id" aria-sort="ascending">ID</th><th scope="col" data-sort="project">Project</th>`);
    expect(index).toContain(
      `<select id="f-project" name="project"><option value="">All</option><option value="cart">cart</option><option value="shop">shop</option></select>`,
    );
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(pathToFileURL(path.join(out, "index.html")).href);
      const rows = () =>
        page
          .locator("#requirements-table tbody tr")
          .evaluateAll((trs) => trs.map((tr) => [...tr.children].slice(0, 2).map((td) => td.textContent)));
      expect(await rows()).toContainEqual(["CART-1", "cart"]);
      await page.getByRole("combobox", { name: "Project" }).selectOption("cart");
      expect(await rows()).toEqual([["CART-1", "cart"]]);
      await page.getByRole("combobox", { name: "Project" }).selectOption("shop");
      expect((await rows()).map((r) => r[1])).toEqual(["shop", "shop", "shop", "shop", "shop", "shop"]);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
    // One project: no such column or filter.
    const single = path.join(scratch(), "site");
    expect(runSpeky(["report", "shop/speky.yaml", "--out", single], h.repo.dir, env).status).toBe(0);
    expect(readFileSync(path.join(single, "index.html"), "utf8")).not.toContain("f-project");
  }, 60_000);

  // speky:speky-ts#TREPORT-UNCOMMITTED
  it("marks a report made from files that differ from HEAD, and not one made from a clean tree", () => {
    const dirty = runSpeky(["report", "shop/speky.yaml", "cart/speky.yaml", "--format", "markdown"], h.repo.dir, env);
    expect(dirty.status).toBe(0);
    // shop/reqs.yaml changed; cart's manifest, specs and tagged file are not in HEAD.
    expect(dirty.stdout).toMatch(
      /^Generated \S+ from commit [0-9a-f]{12}, \*\*with uncommitted changes\*\* \(4 files read differ from it\)\.$/m,
    );
    const out = path.join(scratch(), "site");
    expect(runSpeky(["report", "shop/speky.yaml", "--out", out], h.repo.dir, env).status).toBe(0);
    expect(readFileSync(path.join(out, "index.html"), "utf8")).toContain(
      `, <strong class="uncommitted">with uncommitted changes</strong> (1 file read differs from it).</p>`,
    );
    h.repo.commit("the rest");
    const clean = runSpeky(["report", "shop/speky.yaml", "cart/speky.yaml", "--format", "markdown"], h.repo.dir, env);
    expect(clean.stdout).toMatch(/^Generated \S+ from commit [0-9a-f]{12}\.$/m);
  });
});
