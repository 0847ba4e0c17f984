#!/usr/bin/env bash
# expect_caught.sh --rows REGEX --names REGEX --caught-by REGEX [--control PROGRAM]
#                  -- COMMAND...
#
# Runs a conformance binary that must catch a planted defect. Passes only
# when the run fails and
#   - every failed test, and the one a crash cut short, is of a planted row
#     (its parameter, after the last '/', matches --rows): a real backend
#     that fails is not the planted defect being caught;
#   - one of them matches --caught-by, the test meant to catch it;
#   - each failed test's own messages match --names (the planted backend);
#   - with --control, PROGRAM (the suite without the plant) passes the
#     tests that caught it: what failed is the plant, not the test.
# Prints the tests that caught it. Exit status 77 (a skipped emulator run)
# passes through, so ctest reports a skip, never a catch.
set -uo pipefail
usage() {
  echo "usage: $0 --rows REGEX --names REGEX --caught-by REGEX [--control PROGRAM] -- COMMAND..." >&2
  exit 2
}
rows='' names='' caught_by='' control=''
while [ $# -gt 0 ]; do
  case $1 in
    --rows) rows=${2-}; shift 2 ;;
    --names) names=${2-}; shift 2 ;;
    --caught-by) caught_by=${2-}; shift 2 ;;
    --control) control=${2-}; shift 2 ;;
    --) shift; break ;;
    *) usage ;;
  esac
done
[ -n "$rows" ] && [ -n "$names" ] && [ -n "$caught_by" ] && [ $# -gt 0 ] || usage

out=$("$@" 2>&1)
rc=$?
fail() {
  printf '%s\n' "$out" | tail -n 40
  echo "expect_caught: $* (exit $rc)"
  exit 1
}
if [ $rc -eq 77 ]; then
  printf '%s\n' "$out" | tail -n 3
  exit 77
fi
[ $rc -ne 0 ] || fail "the run passed: the planted defect was NOT caught"

# One line per failed test: "failed NAME named|unnamed", and "crashed NAME"
# for a test that started and never finished (the process died in it).
verdicts=$(printf '%s\n' "$out" | awk -v names="$names" '
  /^\[ RUN      \] / { test = $4; open = 1; named = 0; next }
  /^\[       OK \] / || /^\[  SKIPPED \] / { open = 0; next }
  /^\[  FAILED  \] [^ ]*\./ {
    if (open) print "failed", test, (named ? "named" : "unnamed")
    open = 0; next
  }
  open && $0 ~ names { named = 1 }
  END { if (open) print "crashed", test }')
[ -n "$verdicts" ] || fail "it failed, but no test failed or crashed (a startup error?)"

caught=() caught_names=()
while read -r how test named; do
  param=${test##*/}
  [[ $param =~ ^($rows)$ ]] || fail "$test $how: not a planted row, so not this defect"
  [ "$how" = crashed ] || [ "$named" = named ] ||
    fail "$test failed without naming /$names/ in its messages"
  if [[ $test =~ $caught_by ]]; then
    caught+=("$test ($how)")
    caught_names+=("$test")
  fi
done <<<"$verdicts"
[ ${#caught[@]} -gt 0 ] || fail "no failure in the test meant to catch it, /$caught_by/"

if [ -n "$control" ]; then
  filter=$(IFS=:; echo "${caught_names[*]}")
  control_out=$("$control" --gtest_filter="$filter" 2>&1) || {
    out=$control_out
    fail "without the plant ($control) they fail too: the test is wrong, not only the plant"
  }
fi
if [ $rc -gt 128 ]; then
  printf '%s\n' "$out" | grep -E 'lockstep|signal|Illegal|Segmentation|Aborted' | tail -n 3
fi
for t in "${caught[@]}"; do echo "caught by: $t"; done
echo "expect_caught: caught (exit $rc)"
