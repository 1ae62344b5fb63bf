// A git history as a team adopting speky makes it, for the suites of `speky diff` as a reviewer
// reads it: a project in a subfolder of the repository (its paths differ from the repository's),
//   c0  before speky (code, no manifest)
//   c1  the adoption: shop/speky.yaml, its specs, tags (one on a definition, one free in a
//       function's body, one in a module docstring as speky's own python/ has them)
//   c2  a review's worth: REQ-5 renamed REQ-6 (nothing else changed); discount moved to
//       another file; Cart.total renamed Cart.grand_total where it stands; the code under the
//       free tags edited with their requirements' text; code_sources and coverage_categories
//       of the manifest changed; a requirement with hostile text and a hostile file name added.
import { GitRepo } from "./git-repo.js";

const T = "speky:shop#";

export const HOSTILE_SHORT = "Pay @everyone via [x](javascript:y) <img src=q> https://evil.example *now* www.x.org a@b.io ~~gone~~ | cell";
/** A file name with a backtick run and an escape sequence: a code span's fence and a terminal's safety. */
export const HOSTILE_FILE = "shop/src/we``ird\u001b[31m.py";

const MANIFEST = `kind: project
name: shop
files: [reqs.yaml, tests.yaml]
code_sources: ["src/*.py"]
`;

const REQS = `kind: requirements
category: cart
requirements:
  - id: REQ-1
    short: Total
    long: The cart sums its lines.
  - id: REQ-2
    short: Discount
    long: A discount applies.
  - id: REQ-3
    short: Helpers
    long: Amounts are floored.
  - id: REQ-4
    short: Checkout
    long: A checkout sums the cart.
  - id: REQ-5
    short: Currency
    long: Prices are in euros.
`;

const TESTS = `kind: tests
category: cart
tests:
  - id: TST-1
    long: Checks the total.
    ref: [REQ-1]
    steps:
      - action: Run it
`;

const CART = `class Cart:
    # ${T}REQ-1
    def total(self):
        return sum(self.lines)


# ${T}REQ-2
def discount(cart):
    return 0.1


def checkout(cart):
    # ${T}REQ-4
    return sum(cart)
`;

const UTIL = `"""Helpers for amounts.

${T}REQ-3
"""
import math


def floor(x):
    return math.floor(x)
`;

export interface ReviewHistory {
  repo: GitRepo;
  before: string;
  adoption: string;
  review: string;
}

export function reviewHistory(): ReviewHistory {
  const repo = GitRepo.init({ "README.md": "A shop.\n", "shop/src/cart.py": CART.replaceAll(`# ${T}`, "# ") });
  const before = repo.commit("before speky");
  repo.write({
    "shop/speky.yaml": MANIFEST,
    "shop/reqs.yaml": REQS,
    "shop/tests.yaml": TESTS,
    "shop/src/cart.py": CART,
    "shop/src/util.py": UTIL,
  });
  const adoption = repo.commit("adopt speky");
  repo.write({
    "shop/speky.yaml": MANIFEST.replace('["src/*.py"]', '["src/*.py", "lib/*.py"]').concat("coverage_categories: [cart]\n"),
    "shop/reqs.yaml": REQS.replace("id: REQ-5", "id: REQ-6")
      .replace("A checkout sums the cart.", "A checkout sums the cart, rounded.")
      .replace("Amounts are floored.", "Amounts are floored to cents.")
      .concat(`  - id: REQ-9\n    short: ${JSON.stringify(HOSTILE_SHORT)}\n    long: Hostile.\n`),
    "shop/src/cart.py": CART.replace("def total(self):", "def grand_total(self):")
      .replace(`# ${T}REQ-2\ndef discount(cart):\n    return 0.1\n\n\n`, "")
      .replace("return sum(cart)", "return round(sum(cart), 2)"),
    "shop/src/pricing.py": `# ${T}REQ-2\ndef discount(cart):\n    return 0.1\n`,
    "shop/src/util.py": UTIL.replace("math.floor(x)", "math.floor(x * 100) / 100"),
    [HOSTILE_FILE]: `# ${T}REQ-9\ndef pay():\n    pass\n`,
  });
  const review = repo.commit("a review's worth");
  return { repo, before, adoption, review };
}
