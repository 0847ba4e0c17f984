#!/usr/bin/env bash
# expect_finding.sh [--frame REGEX] IMPL REGEX COMMAND...: runs a fuzz
# binary that must find a planted defect in the backend IMPL (its name after
# the family: "planted-len55", "teeth:carry-word13"). Passes when it fails
# (exit status or signal) with output matching REGEX, and the finding can
# only be IMPL's:
#   - every "lockstep: <alg>/<impl> != oracle" line names IMPL: a real
#     backend's mismatch is not the planted defect being found;
#   - a finding without such a line (a sanitizer's report, a signal) counts
#     only when LOCKSTEP_FUZZ_BACKEND restricted the run to IMPL, and with
#     --frame, only when a line of the report's stack matches REGEX (the
#     planted code, by file or module name).
# Prints the lines that say what was found and when. Exit status 77 with
# SKIP and no finding (an emulator or a backend the host lacks) is a skip.
set -uo pipefail
frame=
if [ "${1-}" = --frame ]; then
  frame=${2-}
  shift 2
fi
if [ $# -lt 3 ]; then
  echo "usage: $0 [--frame REGEX] IMPL REGEX COMMAND..." >&2
  exit 2
fi
impl=$1 regex=$2
shift 2
out=$("$@" 2>&1)
rc=$?
fail() {
  printf '%s\n' "$out" | tail -n 40
  echo "expect_finding: $* (exit $rc)"
  exit 1
}
[ $rc -ne 0 ] || fail "the run ended cleanly: the planted defect was NOT found"
# Here-strings, not pipes: grep -q stops reading at its first match, and
# under pipefail the writer's SIGPIPE on a long output would fail the test.
if ! grep -Eq "$regex" <<< "$out"; then
  # 77 and SKIP, without a finding, is a skip (libFuzzer exits 77 too).
  if [ $rc -eq 77 ] && grep -q SKIP <<< "$out"; then
    printf '%s\n' "$out" | tail -n 3
    exit 77
  fi
  fail "failed, but without /$regex/"
fi

signatures=$(printf '%s\n' "$out" | grep -E '^lockstep: [a-z0-9-]+/[^ ]+ != oracle' || true)
others=$(printf '%s\n' "$signatures" | grep -vF "/$impl != oracle" || true)
[ -z "$others" ] || fail "another backend was reported: $others"
if [ -z "$signatures" ]; then
  case ${LOCKSTEP_FUZZ_BACKEND:-} in
    */"$impl") ;;
    *) fail "nothing names $impl, and LOCKSTEP_FUZZ_BACKEND did not restrict the run to it" ;;
  esac
fi
frames=$(grep -E '^ *#[0-9]+ ' <<< "$out" || true)
if [ -n "$frame" ] && ! grep -Eq "$frame" <<< "$frames"; then
  fail "no frame of the report matches /$frame/"
fi
# What was found, and after how many inputs.
printf '%s\n' "$out" |
  grep -E "$regex|the failing input was|^#[0-9]+|stat::number_of_executed_units" | head -n 6
echo "found: $(printf '%s\n' "$out" | grep -Em1 "$regex")"
echo "expect_finding: found (exit $rc)"
