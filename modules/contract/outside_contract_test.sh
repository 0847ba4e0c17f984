#!/usr/bin/env bash
# outside_contract_test.sh COMMAND... -- REGEX...
#
# Runs COMMAND (conformance_tests with a filter, LOCKSTEP_MODULES set by the
# caller) and passes only when it passes (a case outside a backend's
# declared contract is a SKIP, never a failure), no test failed, and every
# REGEX (grep -E) matches a line of its output. Prints the lines matched.
set -uo pipefail
cmd=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  cmd+=("$1")
  shift
done
[ $# -gt 1 ] && [ ${#cmd[@]} -gt 0 ] || { echo "usage: $0 COMMAND... -- REGEX..." >&2; exit 2; }
shift

out=$("${cmd[@]}" 2>&1)
rc=$?
fail() {
  printf '%s\n' "$out" | tail -n 40
  echo "outside_contract_test: $*"
  exit 1
}
[ $rc -eq 0 ] || fail "the run failed (exit $rc)"
! printf '%s\n' "$out" | grep -q '^\[  FAILED  \]' || fail "a test failed"
for re in "$@"; do
  line=$(printf '%s\n' "$out" | grep -E -m1 -- "$re") || fail "no line matches /$re/"
  echo "ok: $line"
done
