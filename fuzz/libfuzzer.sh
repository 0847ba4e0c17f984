#!/usr/bin/env bash
# libfuzzer.sh BINARY SEEDS [FLAGS...]: runs a libFuzzer binary on a scratch
# corpus seeded from SEEDS (which it never writes), with artifacts in the
# scratch directory too; prints where they are on failure.
set -uo pipefail
bin=$1 seeds=$2
shift 2
work=$(mktemp -d)
mkdir -p "$work/corpus"
"$bin" -artifact_prefix="$work/" "$@" "$work/corpus" "$seeds"
rc=$?
if [ $rc -ne 0 ]; then
  echo "libfuzzer.sh: exit $rc; artifacts kept in $work"
else
  rm -rf "$work"
fi
exit $rc
