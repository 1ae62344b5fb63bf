// Predicates of the grammars' queries that web-tree-sitter leaves to its caller (it applies
// #match?, #eq?, #any-of? and their negations itself): a match stands only when each of ours
// holds. Each is generic (node types and positions, no language); grammars/README.md lists them.
import type { Node, Query, QueryMatch } from "web-tree-sitter";
import type { TreeNav } from "./tree-nav.js";

// The names evaluated here are OWN_PREDICATES (src/scan/grammar/runtime.ts): a query naming
// any other is refused when it loads.

/** Whether a query has any predicate of ours, asked once per compiled query. */
const withPredicates = new WeakMap<Query, boolean>();

// speky:speky-ts#GRAM-OWN-PREDICATES
/**
 * The matches of `query` whose own predicates hold. `(#followed-only-by? @capture type...)`:
 * every named sibling after the captured node is of one of the types (Go's output comment,
 * last in its function's body but for the comments that continue it). Each parent's last
 * sibling of another type is found once, so a run of captures costs one pass.
 */
export function withOwnPredicates(query: Query, nav: TreeNav, matches: QueryMatch[]): QueryMatch[] {
  let any = withPredicates.get(query);
  if (any === undefined) withPredicates.set(query, (any = query.predicates.some((list) => list.length > 0)));
  if (!any) return matches;
  /** By parent and types: where the last named child of another type starts (-1: none). */
  const lastOther = new Map<string, number>();
  const followedOnlyBy = (node: Node, types: string[]): boolean => {
    const parent = nav.parent(node);
    if (!parent) return true;
    const key = `${parent.id} ${types.join(" ")}`;
    let start = lastOther.get(key);
    if (start === undefined) {
      start = -1;
      const children = nav.children(parent);
      for (let i = children.length - 1; i >= 0; i--) {
        if (children[i].isNamed && !types.includes(children[i].type)) {
          start = children[i].startIndex;
          break;
        }
      }
      lastOther.set(key, start);
    }
    return start <= node.startIndex;
  };
  return matches.filter((match) =>
    query.predicates[match.patternIndex].every((predicate) => {
      if (predicate.operator !== "followed-only-by?") return true;
      const [capture, ...rest] = predicate.operands;
      const types = rest.flatMap((step) => (step.type === "string" ? [step.value] : []));
      if (capture?.type !== "capture") return true;
      return match.captures.every((c) => c.name !== capture.name || followedOnlyBy(c.node, types));
    }),
  );
}
