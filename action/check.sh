#!/usr/bin/env bash
# Step 2: speky check, its findings as annotations on the log (--format github) and, unless
# sarif is false, as a SARIF file for code scanning (output sarif-file). The step itself never
# fails: its exit code is an output, the last step fails with it once the summary is written.
set -uo pipefail
source "$GITHUB_ACTION_PATH/action/lib.sh"
read_inputs

speky check "${PATHS[@]}" "${RESULT_ARGS[@]}" "${CHECK_FLAGS[@]}" --format github
code=$?

sarif_file=""
if [ "$(printf '%s' "${INPUT_SARIF:-true}" | tr '[:upper:]' '[:lower:]')" = "true" ]; then
  sarif_file="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/speky-ts.sarif"
  speky check "${PATHS[@]}" "${RESULT_ARGS[@]}" "${CHECK_FLAGS[@]}" --format sarif >"$sarif_file"
  sarif_code=$?
  # The same findings: the same exit code, unless the SARIF could not be written at all.
  if [ "$sarif_code" -gt 1 ]; then
    echo "speky-ts: the SARIF file could not be written (exit $sarif_code)" >&2
    code=$sarif_code
  fi
fi

{
  echo "exit-code=$code"
  echo "sarif-file=$sarif_file"
} >>"$GITHUB_OUTPUT"
exit 0
