// The engine's surface for the other parts (the language server, the bench, tests): a file's
// text or bytes and its language in; its tags, definitions and spans out. Pure: no cache, no
// threads, no reading of the scanned files (grammars load from the package's own grammars/).
export { type FileResult, MAX_PARSE_BYTES, scanFileBuffer, tooLargeMessage, unparsedMessage } from "./file.js";
export { windowFor } from "./prefix.js";
export { scanText, scanTextPrefix, scanTextWith } from "./scan-text.js";
export type { FileOutline, Span } from "./spans.js";
export { MARKER, MESSAGES, markerIndexes, type RawDiagnostic, type RawTag, type TextScan } from "./tag.js";
