// Reading a specification file from disk, safely (src/fs/safe-read.ts).
import fs from "node:fs";
import { isRefusal, readRegular } from "../fs/safe-read.js";
import type { ReadStamp } from "./types.js";

/** Larger files are refused unread: no specification is that big, and parsing one would stall. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

export type FileRead = { real: string; text: string; stamp: ReadStamp } | { problem: string };

// speky:speky-ts#SPEC-SAFETY
/**
 * The file's real path (to load a file reached twice once) and text, unless it is missing,
 * unreadable, not a regular file or too large, checked on the open file before reading.
 */
export async function readSpecFile(file: string): Promise<FileRead> {
  let real: string;
  try {
    real = await fs.promises.realpath(file);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return { problem: err.code === "ENOENT" ? "file not found" : `cannot read the file (${err.code ?? err.message})` };
  }
  // The real path has no link left: one appearing there now is a swap, refused.
  const read = await readRegular(real, { noFollow: true, maxBytes: MAX_FILE_BYTES });
  if (isRefusal(read)) {
    return { problem: read.code === "EISDIR" ? "this is a directory, not a specification file" : read.problem };
  }
  // Decoded in one go: reading with an encoding decodes chunk by chunk into a rope.
  const { size, mtimeMs, ctimeMs } = read.stat;
  return { real, text: read.bytes.toString("utf8"), stamp: { size, mtimeMs, ctimeMs } };
}
