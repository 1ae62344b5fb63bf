/** Why git could not give what a command asked of it (exit 2): no work tree, no such revision, git failing. */
export class GitError extends Error {}
