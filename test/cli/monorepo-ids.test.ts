// IDs are one namespace across the projects loaded; tags are namespaced by project
// (docs/speky-differences.md, "IDs and tags in a monorepo").
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runSpeky, tempDir } from "../support/process.js";

function write(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
}

const manifest = (name: string) => `kind: project\nname: ${name}\nfiles: [specs/*.yaml]\ncode_sources: ['src/**/*.py']\n`;
const requirement = (id: string) => `kind: requirements\ncategory: f\nrequirements:\n  - id: ${id}\n    long: One.\n`;

describe("IDs and tags in a monorepo", () => {
  // speky:speky-ts#TMONOREPO-NAMESPACES
  it("resolves a project's tag to another project's ID, and refuses an ID defined in two projects", () => {
    const dir = tempDir("speky-ts-monorepo-ids-");
    write(dir, {
      "speky.yaml": "kind: project\nname: all\nfiles: [shop/speky.yaml, cart/speky.yaml]\n",
      "shop/speky.yaml": manifest("shop"),
      "shop/specs/reqs.yaml": requirement("SHOP-1"),
      "shop/src/shop.py": "# speky:shop#SHOP-1\ndef sell():\n    pass\n",
      "cart/speky.yaml": manifest("cart"),
      "cart/specs/reqs.yaml": requirement("CART-1"),
      "cart/src/cart.py": "# speky:cart#SHOP-1\ndef add():\n    pass\n",
    });
    expect(runSpeky(["check"], dir)).toEqual({ status: 0, stdout: "0 errors, 0 warnings in 7 files\n", stderr: "" });
    const references = JSON.parse(runSpeky(["scan"], dir).stdout).references.map((r: { project: string; id: string; file: string }) => [
      r.project,
      r.id,
      r.file,
    ]);
    // cart's tag is cart's reference (its file relative to cart's manifest) to shop's requirement.
    expect(references).toEqual(
      expect.arrayContaining([
        ["cart", "SHOP-1", "src/cart.py"],
        ["shop", "SHOP-1", "src/shop.py"],
      ]),
    );
    write(dir, { "cart/specs/more.yaml": requirement("SHOP-1") });
    const duplicate = runSpeky(["check"], dir);
    expect(duplicate.status).toBe(1);
    expect(duplicate.stdout).toContain(
      "cart/specs/more.yaml:4:5: error: duplicate ID 'SHOP-1' (first defined at shop/specs/reqs.yaml:4:5)\n",
    );
  });
});
