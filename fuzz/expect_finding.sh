#!/usr/bin/env bash
# expect_finding.sh REGEX COMMAND...: runs a fuzz binary that must find a
# planted defect. Passes when it fails (exit status or signal) with output
# matching REGEX; prints the lines that say what was found and when.
set -uo pipefail
regex=$1
shift
out=$("$@" 2>&1)
rc=$?
if [ $rc -eq 0 ]; then
  printf '%s\n' "$out" | tail -n 5
  echo "expect_finding: the run ended cleanly: the planted defect was NOT found"
  exit 1
fi
if ! printf '%s\n' "$out" | grep -Eq "$regex"; then
  printf '%s\n' "$out" | tail -n 40
  echo "expect_finding: failed (exit $rc), but without /$regex/"
  exit 1
fi
# What was found, and after how many inputs.
printf '%s\n' "$out" | grep -E "$regex|the failing input was|^#[0-9]+|stat::number_of_executed_units" | head -n 6
echo "expect_finding: found (exit $rc)"
