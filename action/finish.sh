#!/usr/bin/env bash
# Step 4: fail like speky check (exit 1 on findings, 2 when it could not run), and on the
# parts of the spec diff named in fail-on; fail-on never leaves only the exit 2.
set -uo pipefail
source "$GITHUB_ACTION_PATH/action/lib.sh"
read_inputs

check="${CHECK_EXIT:-}"
case "$check" in
0 | 1) ;;
*)
  echo "speky-ts: speky check could not run (exit ${check:-unknown})" >&2
  exit 2
  ;;
esac
if [ "$NEVER_FAIL" = true ]; then exit 0; fi
if [ "$check" -ne 0 ]; then
  echo "speky-ts: speky check found errors (see the annotations and the job summary)" >&2
  exit 1
fi
if [ "${#DIFF_FAIL_ON[@]}" -gt 0 ] && [ "${DIFF_EXIT:-0}" != 0 ]; then
  echo "speky-ts: the spec diff has changes in: ${DIFF_FAIL_ON[*]}" >&2
  exit 1
fi
exit 0
