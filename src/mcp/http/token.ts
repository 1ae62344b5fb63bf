// The bearer token of `speky-mcp --http`: from --token-file, else from SPEKY_MCP_TOKEN. Required
// when the server listens beyond loopback (main refuses to start without one), honoured on
// loopback too when given. docs/mcp-http.md.
import { isRefusal, readRegularSync } from "../../fs/safe-read.js";
import { quote } from "../../quote.js";
import { HttpOptionError } from "./address.js";

export const TOKEN_ENV = "SPEKY_MCP_TOKEN";
/** Shorter is guessable; a token is made with e.g. `openssl rand -hex 32` (64 characters). */
export const MIN_TOKEN_CHARS = 16;
/** A token file larger than this is no token file. */
const MAX_TOKEN_FILE_BYTES = 4096;
/** What RFC 6750 allows in a bearer token (token68). */
const TOKEN_CHARS = /^[A-Za-z0-9\-._~+/]+=*$/;

// speky:speky-ts#MCP-HTTP-TOKEN
/** The token (the file's first line, or the variable, trimmed), null when neither is given; an HttpOptionError when it is unusable. */
export function readToken(file: string | undefined, env: NodeJS.ProcessEnv): string | null {
  let token: string;
  let from: string;
  if (file !== undefined) {
    const read = readRegularSync(file, { maxBytes: MAX_TOKEN_FILE_BYTES });
    if (isRefusal(read)) throw new HttpOptionError(`--token-file ${quote(file)}: ${read.problem}`);
    token = read.bytes.toString("utf8").split(/\r?\n/, 1)[0].trim();
    from = `the token file ${quote(file)}`;
  } else {
    const value = env[TOKEN_ENV];
    if (value === undefined || value.trim() === "") return null;
    token = value.trim();
    from = TOKEN_ENV;
  }
  if (token.length < MIN_TOKEN_CHARS || !TOKEN_CHARS.test(token)) {
    throw new HttpOptionError(
      `${from} must hold a token of at least ${MIN_TOKEN_CHARS} characters among A-Z a-z 0-9 - . _ ~ + / = ` +
        "(e.g. from 'openssl rand -hex 32')",
    );
  }
  return token;
}
