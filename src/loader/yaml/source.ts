// YAML text to a positioned tree: the fast reader when it can, else the `yaml` package (loaded
// only then: most files never need it).

import type { FileDiagnostics } from "../file-diagnostics.js";
import type { SNode } from "../format/node.js";
import { parseSimpleYaml } from "./fast.js";

/**
 * The tree of a YAML file; null when the file has no content; undefined when it cannot be
 * read (the reasons are reported).
 */
export async function readYaml(raw: string, report: FileDiagnostics): Promise<SNode | null | undefined> {
  // A lone carriage return ends a line in YAML (and in PyYAML), not in the `yaml` package:
  // made a line feed, same length, so that offsets, lines and columns stay right.
  const text = raw.includes("\r") ? raw.replace(/\r(?!\n)/g, "\n") : raw;
  const simple = parseSimpleYaml(text);
  if (simple !== undefined) return simple;
  const { readYamlFully } = await import("./full.js");
  return readYamlFully(text, report);
}
