// What goes back to a client never echoes its input whole. The SDK's own errors quote what they
// refuse as it came: `Resource <uri> not found`, `Resource template <uri> not found`, `Tool
// <name> not found`, a cursor: a 1 MB argument came back as a 1 MB message (issue 25; 10 MB
// overflowed the SDK client's buffer, issue 11). Our messages quote input through quote(); this
// bounds every error on its way out the same way, whoever made it.
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { QUOTE_MAX, quote } from "../../quote.js";

// speky:speky-ts#SEC-ERROR-ECHO
/** Characters of an error message (or of a string in its data) at most: a sentence and a quoted input. */
export const MAX_ERROR_CHARS = 2 * QUOTE_MAX + 200;

/** A message within MAX_ERROR_CHARS, its control and bidi characters escaped (quote()'s rules, without the quotes). */
function bounded(text: string): string {
  const q = quote(text, MAX_ERROR_CHARS);
  return q === `'${text}'` ? text : q.replace(/^'|'$/g, "").replace(/^(.*)' \(/s, "$1 (");
}

function boundedData(data: unknown, depth = 0): unknown {
  if (typeof data === "string") return bounded(data);
  if (depth > 2 || data === null || typeof data !== "object") return data;
  if (Array.isArray(data)) return data.slice(0, 20).map((d) => boundedData(d, depth + 1));
  return Object.fromEntries(Object.entries(data as Record<string, unknown>).map(([k, v]) => [k, boundedData(v, depth + 1)]));
}

/** The message with its error (or a tool error result's text) bounded; any other message as it is. */
export function boundedEcho(message: JSONRPCMessage): JSONRPCMessage {
  if ("error" in message) {
    const { code, message: text, data } = message.error;
    const shorter = bounded(text);
    if (shorter === text && data === undefined) return message;
    return { ...message, error: { code, message: shorter, ...(data === undefined ? {} : { data: boundedData(data) }) } };
  }
  if (!("result" in message) || message.result.isError !== true || !Array.isArray(message.result.content)) return message;
  const content = message.result.content as { type: string; text?: string }[];
  if (!content.some((c) => c.type === "text" && (c.text?.length ?? 0) > MAX_ERROR_CHARS && !c.text!.startsWith("{"))) return message;
  // The SDK's own texts (ours are JSON {error}, whose message went through quote()).
  const cut = content.map((c) => (c.type === "text" && c.text && !c.text.startsWith("{") ? { ...c, text: bounded(c.text) } : c));
  return { ...message, result: { ...message.result, content: cut } };
}
