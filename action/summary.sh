#!/usr/bin/env bash
# Step 3: the job summary ($GITHUB_STEP_SUMMARY): speky's Markdown summary (coverage,
# verification, problems) and, on a pull request (or with diff-base), what the change did to
# the specification (speky diff BASE --format markdown). Its exit code is an output for the
# diff's fail-on parts; the step itself never fails.
set -uo pipefail
source "$GITHUB_ACTION_PATH/action/lib.sh"
read_inputs

if ! speky report --format markdown "${PATHS[@]}" "${RESULT_ARGS[@]}" >>"$GITHUB_STEP_SUMMARY"; then
  printf '\n**speky-ts**: no summary: speky report failed (its message is in the log; the check step says why).\n' >>"$GITHUB_STEP_SUMMARY"
fi

base="${INPUT_DIFF_BASE:-}"
if [ -z "$base" ] && [[ ${GITHUB_EVENT_NAME:-} == pull_request* ]] && [ -n "${GITHUB_BASE_REF:-}" ]; then
  base="origin/$GITHUB_BASE_REF"
  # actions/checkout fetches one commit: the base branch's tip is fetched when absent.
  if ! git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
    git fetch --quiet --no-tags --depth=1 origin "+refs/heads/$GITHUB_BASE_REF:refs/remotes/origin/$GITHUB_BASE_REF" ||
      echo "speky-ts: cannot fetch the base branch $GITHUB_BASE_REF" >&2
  fi
fi

diff_code=0
if [ -n "$base" ] && [ "$base" != "none" ]; then
  fail_on=()
  [ "${#DIFF_FAIL_ON[@]}" -gt 0 ] && fail_on=(--fail-on "$(IFS=,; echo "${DIFF_FAIL_ON[*]}")")
  printf '\n' >>"$GITHUB_STEP_SUMMARY"
  # Options first: after '--' a base or a path starting with '-' is still one.
  speky diff --format markdown "${fail_on[@]}" -- "$base" "${PATHS[@]}" >>"$GITHUB_STEP_SUMMARY"
  diff_code=$?
fi
echo "diff-exit-code=$diff_code" >>"$GITHUB_OUTPUT"
exit 0
