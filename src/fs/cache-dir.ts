// Where the scan cache lives, in a module of its own: the live model watches around it without
// loading the cache code (the MCP server answers `initialize` before any of the scan loads).
import os from "node:os";
import path from "node:path";

export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SPEKY_CACHE_DIR) return path.resolve(env.SPEKY_CACHE_DIR);
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(os.homedir(), ".cache");
  return path.join(base, "speky-ts");
}
