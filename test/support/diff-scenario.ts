// The change the `speky diff` suites compare: one base commit and the edits that exercise every
// section of docs/changes.md. What each edit is for:
//   REQ-1  long changed, its tagged Cart.total edited       → changed, impact (head side), not suspect
//   REQ-2  long changed, its tagged Cart.discount untouched → suspect with code
//   REQ-3  removed (with its test TST-9)                    → removed
//   REQ-4  its test's tag removed from test_four            → coverage automated → manual, tag removed
//   REQ-5  long changed, no tagged code                     → suspect without code
//   REQ-6  tags and properties changed; lines inserted above its tag → changed; tag moved, not added/removed
//   REQ-7  the only function of src/old.py, file deleted    → tag removed, impact (base side)
//   REQ-8  a line deleted inside Cart.receipt               → impact (its head counterpart)
//   REQ-9  added with a new tagged file and its test TST-10 → added, tag added, impact
//   REQ-10 src/labels.py renamed unchanged                  → its tag moved (the rename is followed)
//   TST-6  steps changed, its automated test edited         → changed, rerun through its automation
import type { GitRepo } from "./git-repo.js";

export const BASE_FILES: Record<string, string> = {
  "speky.yaml": `kind: project
name: shop
files: [reqs.yaml, tests.yaml]
code_sources: ["src/**/*.py"]
source_links:
  url: https://example.com/acme/shop
  branch: main
`,
  "reqs.yaml": `kind: requirements
category: cart
requirements:
  - id: REQ-1
    short: Total
    long: The cart sums its lines.
  - id: REQ-2
    short: Discount
    long: A discount applies.
  - id: REQ-3
    short: Gift wrap
    long: Gift wrapping is offered.
  - id: REQ-4
    short: Tax
    long: Tax is added.
  - id: REQ-5
    short: Currency
    long: Prices are in euros.
  - id: REQ-6
    short: Rounding
    long: Totals are rounded to cents.
    tags: [money]
  - id: REQ-7
    short: Legacy export
    long: Carts export to CSV.
  - id: REQ-8
    short: Receipt
    long: A receipt is printed.
  - id: REQ-10
    short: Labels
    long: Items carry labels.
`,
  "tests.yaml": `kind: tests
category: cart
tests:
  - id: TST-1
    short: Total test
    long: Checks the total.
    ref: [REQ-1]
    steps:
      - action: Run the unit test
  - id: TST-2
    long: Checks a discount by hand.
    ref: [REQ-2]
    steps:
      - action: Apply a discount
  - id: TST-4
    long: Checks tax.
    ref: [REQ-4]
    steps:
      - action: Run the tax test
  - id: TST-5
    long: Checks euros by hand.
    ref: [REQ-5]
    steps:
      - action: Look at a price
  - id: TST-6
    long: Checks rounding.
    ref: [REQ-6]
    steps:
      - action: Round
  - id: TST-9
    long: Checks gift wrap.
    ref: [REQ-3]
    steps:
      - action: Wrap
`,
  "src/cart.py": `class Cart:
    # speky:shop#REQ-1
    def total(self):
        return sum(self.lines)

    # speky:shop#REQ-2
    def discount(self):
        return 0.1

    # speky:shop#REQ-8
    def receipt(self):
        print("receipt")
        print("thanks")
`,
  "src/moved.py": `# speky:shop#REQ-6
def round_total(x):
    return round(x, 2)
`,
  "src/old.py": `# speky:shop#REQ-7
def export_csv(cart):
    return ",".join(cart)
`,
  "src/labels.py": `# speky:shop#REQ-10
def label(item):
    return str(item)
`,
  "src/test_cart.py": `# speky:shop#TST-1
def test_total():
    assert True


# speky:shop#TST-4
def test_four():
    assert 1


# speky:shop#TST-6
def test_rounding():
    assert round(1.005, 2) == 1.0
`,
};

/** The head: the scenario's edits, made in the repository's working tree (not committed). */
export function applyHeadChanges(repo: GitRepo): void {
  const text = (name: string) => BASE_FILES[name];
  repo.write({
    "reqs.yaml": text("reqs.yaml")
      .replace("The cart sums its lines.", "The cart sums its lines, rounded.")
      .replace("A discount applies.", "A discount of 10% applies.")
      .replace("  - id: REQ-3\n    short: Gift wrap\n    long: Gift wrapping is offered.\n", "")
      .replace("Prices are in euros.", "Prices are in euros or dollars.")
      .replace("    tags: [money]\n", "    tags: [money, rounding]\n    properties:\n      owner: finance\n")
      .concat("  - id: REQ-9\n    short: Coupons\n    long: Coupons apply.\n"),
    "tests.yaml": text("tests.yaml")
      .replace("      - action: Round\n", "      - action: Round\n        expected: Cents\n")
      .replace("  - id: TST-9\n    long: Checks gift wrap.\n    ref: [REQ-3]\n    steps:\n      - action: Wrap\n", "")
      .concat("  - id: TST-10\n    long: Checks a coupon.\n    ref: [REQ-9]\n    steps:\n      - action: Apply a coupon\n"),
    "src/cart.py": text("src/cart.py")
      .replace("return sum(self.lines)", "return round(sum(self.lines), 2)")
      .replace('        print("thanks")\n', ""),
    "src/moved.py": `import math\n\n\n${text("src/moved.py")}`,
    "src/old.py": null,
    "src/test_cart.py": text("src/test_cart.py").replace("# speky:shop#TST-4\n", "").replace("round(1.005, 2) == 1.0", "round(2.5) == 2"),
    "src/new.py": "# speky:shop#REQ-9\ndef coupon(code):\n    return code.upper()\n",
  });
  repo.move("src/labels.py", "src/tags/labels.py");
}

const LINK = "https://example.com/acme/shop/blob";

const ref = (id: string, file: string, line: number, symbol: string | null, is_test = false) => ({
  id,
  project: "shop",
  file,
  line,
  symbol,
  is_test,
});

/** What `speky diff --format json` answers for the scenario (links are not part of it). */
export function expectedChanges(base: string, baseCommit: string, head: string, headCommit?: string): object {
  return {
    base,
    base_commit: baseCommit,
    head,
    ...(headCommit === undefined ? {} : { head_commit: headCommit }),
    manifests: [],
    requirements: {
      added: [{ id: "REQ-9", category: "cart", short: "Coupons", project: "shop" }],
      removed: [{ id: "REQ-3", category: "cart", short: "Gift wrap", project: "shop" }],
      changed: [
        { id: "REQ-1", project: "shop", fields: ["long"] },
        { id: "REQ-2", project: "shop", fields: ["long"] },
        { id: "REQ-5", project: "shop", fields: ["long"] },
        { id: "REQ-6", project: "shop", fields: ["properties", "tags"] },
      ],
      renamed: [],
    },
    tests: {
      added: [{ id: "TST-10", category: "cart", project: "shop" }],
      removed: [{ id: "TST-9", category: "cart", project: "shop" }],
      changed: [{ id: "TST-6", project: "shop", fields: ["steps"] }],
      renamed: [],
    },
    code_references: {
      added: [ref("REQ-9", "src/new.py", 2, "coupon")],
      removed: [ref("REQ-7", "src/old.py", 2, "export_csv"), ref("TST-4", "src/test_cart.py", 7, "test_four", true)],
      // src/labels.py renamed: its tag went with it.
      moved: [
        {
          id: "REQ-10",
          project: "shop",
          from: ref("REQ-10", "src/labels.py", 2, "label"),
          to: ref("REQ-10", "src/tags/labels.py", 2, "label"),
        },
      ],
    },
    coverage: [{ id: "REQ-4", project: "shop", from: "automated_test_plan", to: "manual_test_plan" }],
    impact: [
      { project: "shop", file: "src/cart.py", symbol: "Cart.total", start_line: 3, end_line: 4, ids: ["REQ-1"] },
      { project: "shop", file: "src/cart.py", symbol: "Cart.receipt", start_line: 11, end_line: 12, ids: ["REQ-8"] },
      { project: "shop", file: "src/new.py", symbol: "coupon", start_line: 2, end_line: 3, ids: ["REQ-9"] },
      { project: "shop", file: "src/old.py", symbol: "export_csv", start_line: 2, end_line: 3, ids: ["REQ-7"] },
      { project: "shop", file: "src/test_cart.py", symbol: "test_rounding", start_line: 11, end_line: 12, ids: ["TST-6"] },
    ],
    suspect: [
      { id: "REQ-2", project: "shop", code: [ref("REQ-2", "src/cart.py", 7, "Cart.discount")] },
      { id: "REQ-5", project: "shop", code: [] },
    ],
    rerun: ["TST-1", "TST-10", "TST-2", "TST-5", "TST-6"],
  };
}

/** The scenario's sections with their entry counts, as the Markdown and the report title them. */
export const SECTION_HEADINGS = [
  "Manifests (0)",
  "Requirements (6)",
  "Tests (3)",
  "Code references (4)",
  "Coverage (1)",
  "Impact (5)",
  "Suspect (2)",
  "Tests to rerun (5)",
];

/** The links the Markdown and the report give: the head's at its branch, a removed line's at the base commit. */
export const links = {
  headTotal: `${LINK}/main/src/cart.py#L3`,
  baseOld: (commit: string) => `${LINK}/${commit}/src/old.py#L2`,
};
