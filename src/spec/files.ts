// Reading a specification file from disk, safely.
import fs from "node:fs";

/** Larger files are refused unread: no specification is that big, and parsing one would stall. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

export type FileRead = { real: string; text: string } | { problem: string };

// speky:speky-ts#SPEC-SAFETY
/**
 * The file's real path (to load a file reached twice once) and text, unless it is missing,
 * unreadable or too large, checked before reading.
 */
export async function readSpecFile(file: string): Promise<FileRead> {
  try {
    const real = await fs.promises.realpath(file);
    const stat = await fs.promises.stat(real);
    if (stat.isDirectory()) return { problem: "this is a directory, not a specification file" };
    // A device or a pipe could be endless.
    if (!stat.isFile()) return { problem: "this is not a regular file" };
    if (stat.size > MAX_FILE_BYTES) {
      const mb = (stat.size / (1024 * 1024)).toFixed(1);
      return { problem: `file is too large (${mb} MB; the limit is ${MAX_FILE_BYTES / (1024 * 1024)} MB)` };
    }
    // Decoded in one go: reading with an encoding decodes chunk by chunk into a rope.
    return { real, text: (await fs.promises.readFile(real)).toString("utf8") };
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return { problem: err.code === "ENOENT" ? "file not found" : `cannot read the file (${err.code ?? err.message})` };
  }
}
