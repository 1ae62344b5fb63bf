// `speky report --diff` on the review history (test/support/review-history.ts), with the working
// tree carrying uncommitted changes: a requirement reworded again and a second project added.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
