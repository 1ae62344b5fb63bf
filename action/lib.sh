# What the action's steps share (sourced): how speky runs, and the inputs read as lists. The
# inputs come as environment variables (action.yml), never spliced into a script's text.
set -f # no pathname expansion: a glob of an input is speky's to expand, not bash's

speky() {
  node "$GITHUB_ACTION_PATH/bin/speky.js" "$@"
}

# read_list NAME TEXT: the non-empty lines of TEXT, trimmed, into the array NAME.
read_list() {
  local -n list=$1
  list=()
  local line
  while IFS= read -r line; do
    line="${line#"${line%%[![:space:]]*}"}"
    line="${line%"${line##*[![:space:]]}"}"
    [ -n "$line" ] && list+=("$line")
  done <<<"${2:-}"
  return 0
}

# PATHS (manifests; none: speky's discovery), RESULT_ARGS (--results GLOB...), CHECK_FLAGS,
# DIFF_FAIL_ON (the parts of the diff that fail), NEVER_FAIL (fail-on: never).
read_inputs() {
  local raw p word
  read_list raw "${INPUT_MANIFEST:-}"
  PATHS=()
  # A path starting with '-' would read as an option.
  for p in "${raw[@]}"; do [[ $p == -* ]] && PATHS+=("./$p") || PATHS+=("$p"); done
  read_list raw "${INPUT_RESULTS:-}"
  RESULT_ARGS=()
  for p in "${raw[@]}"; do RESULT_ARGS+=(--results "$p"); done
  CHECK_FLAGS=()
  DIFF_FAIL_ON=()
  NEVER_FAIL=false
  for word in $(printf '%s' "${INPUT_FAIL_ON:-error}" | tr ',\n\t' '   '); do
    case "$word" in
    error | errors) ;;
    warning | warnings) CHECK_FLAGS+=(--strict) ;;
    unverified) CHECK_FLAGS+=(--require-verified) ;;
    never | none) NEVER_FAIL=true ;;
    *) DIFF_FAIL_ON+=("$word") ;;
    esac
  done
}
