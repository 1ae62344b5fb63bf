/** Why a diff could not be made (exit 2): no git work tree, no such revision, git failing. */
export class DiffError extends Error {}
