// The URI of an item's resource, in a module of its own: the resources (resources.ts) and the
// links to them (resource-links.ts) are built from it, and neither imports the other.

/** `speky://requirement/REQ-1`, `speky://test/TST-1`: the ID percent-encoded. */
export function resourceUri(kind: "requirement" | "test", id: string): string {
  return `speky://${kind}/${encodeURIComponent(id)}`;
}
