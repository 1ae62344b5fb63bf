// What a tool module provides (schemas and a pure `run` over the model), and the one place
// that turns a run into an MCP result: structuredContent plus the same JSON as one compact
// text block, or a domain error as an isError result carrying {error}. Paging of list answers
// (paging.ts) and the stale-model note in `_meta` are added here too, for every tool alike.

import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult, ResourceLink } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { relieveHeap } from "../heap.js";
import { type LiveState, staleNote } from "../live/state.js";
import type { Model } from "../model/model.js";
import { cachedAnswer, cachedListing } from "./answers/answer-cache.js";
import { boundedResult } from "./answers/fit.js";
import { CursorError, Listing, materialize, pageOf, pagingInput, pagingOutput, splitPaging } from "./answers/paging.js";
import { withLinks } from "./resource-links.js";
import { awaitScan, PARTIAL_META_KEY, partialNote, scanWaitMs, type WaitContext } from "./scan-wait.js";

/**
 * A domain error (unknown ID, tag or category, wrong kind): answered, never thrown to the
 * protocol; `didYouMean`, when one is close, goes beside the exact text as `did_you_mean`.
 */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly didYouMean: string | null = null,
  ) {
    super(message);
  }
}

export interface ToolSpec<I extends z.ZodRawShape = z.ZodRawShape, O extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  /**
   * The output's list fields, in order, when the tool pages: it then also takes `limit` and
   * `cursor` and may answer `nextCursor` (paging.ts).
   */
  pages?: readonly (keyof O & string)[];
  /** Page size when the call gives no `limit`; undefined: the whole list. */
  defaultLimit?: number;
  /** The answer depends on more than the model (reload problems): never memoized. */
  live?: boolean;
  /**
   * The answer holds code references or test automation: the call waits for the first scan,
   * with progress, and answers marked partial after the bound (scan-wait.ts; docs/mcp-tools.md).
   */
  waitsForScan?: true;
  /** `resource_link` blocks to put after a successful answer's JSON (resource-links.ts). */
  links?(model: Model, args: Record<string, unknown>): ResourceLink[];
  /** Work done before `run`, yielding to the event loop (search_text's ranking); `run` uses it. */
  prepare?(model: Model, args: Record<string, unknown>): Promise<void> | undefined;
  // Method syntax on purpose: tools with different argument types fit one list.
  run(model: Model, args: z.objectOutputType<I, z.ZodTypeAny>, state: LiveState): z.objectOutputType<O, z.ZodTypeAny>;
  /** A tool whose answer needs more than the model (git, a revision's files): answered by this instead of run, never memoized. */
  runAsync?(args: z.objectOutputType<I, z.ZodTypeAny>, state: LiveState): Promise<z.objectOutputType<O, z.ZodTypeAny>>;
}

export function defineTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(spec: ToolSpec<I, O>): ToolSpec<I, O> {
  return spec;
}

/** The arguments a client may pass: the tool's own, and the paging ones when it pages. */
export function inputShape(spec: ToolSpec): z.ZodRawShape {
  return spec.pages ? { ...spec.input, ...pagingInput } : spec.input;
}

export function outputShape(spec: ToolSpec): z.ZodRawShape {
  return spec.pages ? { ...spec.output, ...pagingOutput } : spec.output;
}

// Every tool only reads the loaded model: clients may call them freely and retry them.
export const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/** `_meta` key of the note carried by every result while the last good model is served. */
export const STALE_META_KEY = "speky-ts/stale";

export function success(content: object): CallToolResult {
  // Under MAX_ANSWER_CHARS, cut to fit with a note in `_meta` when larger (fit.ts).
  return boundedResult(content);
}

// speky:speky-ts#MCP-DID-YOU-MEAN
export function failure(message: string, didYouMean: string | null = null): CallToolResult {
  const content = didYouMean === null ? { error: message } : { error: message, did_you_mean: didYouMean };
  return { ...success(content), isError: true };
}

function compute(spec: ToolSpec, state: LiveState, args: Record<string, unknown>): CallToolResult {
  try {
    return success(spec.run(state.model, args, state));
  } catch (error) {
    if (error instanceof ToolError) return failure(error.message, error.didYouMean);
    throw error;
  }
}

/** A state for a model served as it is, without watching. */
export function fixedState(model: Model, loadedAt = new Date()): LiveState {
  return { model, loadedAt, problems: [], stale: false, scanning: null };
}

/** A paged tool's whole answer (its lists lazy), or its domain error. */
function computeListing(spec: ToolSpec, state: LiveState, args: Record<string, unknown>): Listing | CallToolResult {
  try {
    return new Listing(spec.run(state.model, args, state) as Record<string, unknown>);
  } catch (error) {
    if (error instanceof ToolError) return failure(error.message, error.didYouMean);
    throw error;
  }
}

/**
 * Whether this call's answer is computed afresh rather than memoized with the model: a live tool,
 * or a waiting tool answered before the first scan ended (verification_status then says it is
 * loading; a scan that fails keeps the same model, which must not keep that answer).
 */
function unmemoized(spec: ToolSpec, state: LiveState): boolean {
  return spec.live === true || (state.scanning !== null && spec.waitsForScan === true);
}

/** Answers a paged tool's call: the whole answer when it is small, else the page asked for. */
function runPaged(spec: ToolSpec, state: LiveState, args: Record<string, unknown>): CallToolResult {
  const { query, page } = splitPaging(args);
  const key = `${spec.name}\0${JSON.stringify(query)}`;
  const fresh = unmemoized(spec, state);
  const full = fresh ? computeListing(spec, state, query) : cachedListing(state.model, key, () => computeListing(spec, state, query));
  if (!(full instanceof Listing)) return full;
  try {
    const cut = pageOf(spec.name, query, full, spec.pages!, page, spec.defaultLimit);
    if ("structured" in cut) return success(cut.structured);
    const whole = () => success(materialize(full.structured));
    return fresh ? whole() : cachedAnswer(state.model, key, whole);
  } catch (error) {
    if (!(error instanceof CursorError)) throw error;
    return failure(error.message);
  }
}

/** Answers one call against one state: the caller reads the state once, so one model serves the whole call. */
export function runTool(spec: ToolSpec, state: LiveState, args: Record<string, unknown>): CallToolResult {
  const answer = spec.pages
    ? runPaged(spec, state, args)
    : unmemoized(spec, state)
      ? compute(spec, state, args)
      : cachedAnswer(state.model, `${spec.name}\0${JSON.stringify(args)}`, () => compute(spec, state, args));
  return withNotes(spec, state, spec.links ? withLinks(answer, spec.links(state.model, args)) : answer);
}

/** Answers a call of a tool with runAsync. */
export async function runAsyncTool(spec: ToolSpec, state: LiveState, args: Record<string, unknown>): Promise<CallToolResult> {
  let result: CallToolResult;
  try {
    result = success(await spec.runAsync!(args, state));
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    result = failure(error.message);
  }
  return withNotes(spec, state, result);
}

function withNotes(spec: ToolSpec, state: LiveState, result: CallToolResult): CallToolResult {
  const notes: Record<string, string> = {};
  const stale = staleNote(state);
  if (stale !== null) notes[STALE_META_KEY] = stale;
  const partial = spec.waitsForScan === true ? partialNote(state) : null;
  if (partial !== null) notes[PARTIAL_META_KEY] = partial;
  // A copy: `result` may be the memoized answer shared by later calls.
  return Object.keys(notes).length === 0 ? result : { ...result, _meta: { ...result._meta, ...notes } };
}

// The outputSchema is published by our own tools/list (sdk/tool-list.ts), not given to McpServer:
// McpServer would re-check every result with zod, which costs as much as a repeated call on
// the large answers (sdk/pin.ts, departure 4). The e2e suites check every
// answer against the published schema instead, through the SDK client.
export function registerTool(server: McpServer, getState: () => LiveState, spec: ToolSpec): void {
  server.registerTool(
    spec.name,
    {
      title: spec.title,
      description: spec.description,
      inputSchema: inputShape(spec),
      annotations: READ_ONLY,
    },
    async (args: Record<string, unknown>, extra: WaitContext) => {
      relieveHeap();
      const state = spec.waitsForScan === true ? await awaitScan(getState, extra, scanWaitMs()) : getState();
      if (spec.runAsync) return runAsyncTool(spec, state, args);
      await spec.prepare?.(state.model, args);
      return runTool(spec, state, args);
    },
  );
}
