// The reason part of a file-system error, without Node's repetition of the code, the system
// call and the path: "no such file or directory", "permission denied", "is a directory".
export function fileErrorReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  // Node's forms: "ENOENT: no such file or directory, open '/x/y'"; without a path, "ENOSPC: no
  // space left on device, write".
  const match = /^[A-Z0-9_]+: (.*?), [a-z_]+(?: '|$)/s.exec(error.message);
  const reason = match ? match[1] : error.message;
  return code && !match ? `${reason} (${code})` : reason;
}
