// The kind of a parsed specification file, read off its top-level `kind`: what the loader
// reads it as (a manifest, items, comments).

import { quote } from "../../quote.js";
import { suggestName } from "../../text/suggest.js";
import type { FileDiagnostics } from "../file-diagnostics.js";
import { KINDS, type Kind } from "./fields.js";
import { describe, entryOf, type SMap, type SNode, stringValue } from "./node.js";

const KIND_LIST = `${KINDS.slice(0, -1).join(", ")} or ${KINDS[KINDS.length - 1]}`;

/** The kind of a parsed file, or undefined (reported) when it has none we know. */
export function fileKind(root: SNode | null, report: FileDiagnostics): { kind: Kind; map: SMap } | undefined {
  if (root === null) {
    report.error(null, `empty file (a specification file starts with 'kind': ${KIND_LIST})`);
    return undefined;
  }
  if (root.type !== "map") {
    report.error(root, `the top level must be a mapping with a 'kind', got ${describe(root)}`);
    return undefined;
  }
  const entry = entryOf(root, "kind");
  if (!entry) {
    report.error(root, `missing 'kind' (expected ${KIND_LIST})`);
    return undefined;
  }
  const kind = stringValue(entry.value);
  if (kind === undefined) {
    report.error(entry.value, `'kind' must be one of ${KIND_LIST}, got ${describe(entry.value)}`);
    return undefined;
  }
  if (!(KINDS as readonly string[]).includes(kind)) {
    // speky:speky-ts#SPEC-DID-YOU-MEAN
    const likely = suggestName(kind, KINDS);
    report.error(entry.value, `unknown kind ${quote(kind)} (expected ${KIND_LIST})${likely ? `; did you mean ${quote(likely)}?` : ""}`);
    return undefined;
  }
  return { kind: kind as Kind, map: root };
}
