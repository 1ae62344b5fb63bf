// Parent, sibling and descendant look-ups that stay cheap on huge trees. web-tree-sitter
// answers node.parent, nextSibling, previousSibling and descendantForIndex by walking down from
// the root through the siblings at each level: O(depth × siblings) per call. A file with
// 100,000 tags (a long run of comments, each a child of the root) or nested 10,000 levels
// deep then took hours. Here each node's children are listed once, and every later look-up
// is a map read or a binary search.
import type { Node } from "web-tree-sitter";

export class TreeNav {
  private readonly childLists = new Map<number, Node[]>();
  private readonly parents = new Map<number, Node | null>();
  /** Index of a node among its parent's children. */
  private readonly slots = new Map<number, number>();

  constructor(private readonly root: Node) {
    this.parents.set(root.id, null);
  }

  children(node: Node): Node[] {
    let list = this.childLists.get(node.id);
    if (!list) {
      list = node.children.filter((c): c is Node => c !== null);
      this.childLists.set(node.id, list);
      list.forEach((child, i) => {
        this.parents.set(child.id, node);
        this.slots.set(child.id, i);
      });
    }
    return list;
  }

  parent(node: Node): Node | null {
    const known = this.parents.get(node.id);
    if (known !== undefined) return known;
    // Reached without a walk from the root (a query capture): asked once, then remembered.
    const parent = node.parent;
    if (parent) this.children(parent);
    else this.parents.set(node.id, null);
    return parent;
  }

  private sibling(node: Node, step: 1 | -1): Node | null {
    const parent = this.parent(node);
    if (!parent) return null;
    const list = this.children(parent);
    return list[this.slots.get(node.id)! + step] ?? null;
  }

  nextSibling(node: Node): Node | null {
    return this.sibling(node, 1);
  }

  previousSibling(node: Node): Node | null {
    return this.sibling(node, -1);
  }

  /** The deepest node holding the character at `index`: root.descendantForIndex(index, index + 1). */
  descendantAt(index: number): Node {
    let node = this.root;
    for (;;) {
      const list = this.children(node);
      // The first child ending after `index` (siblings' ends never decrease).
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (list[mid].endIndex <= index) lo = mid + 1;
        else hi = mid;
      }
      const child = list[lo];
      if (!child || child.startIndex > index) return node;
      node = child;
    }
  }
}
