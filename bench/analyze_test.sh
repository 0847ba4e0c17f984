#!/usr/bin/env bash
# bench.analyze: `lockstep bench --analyze --from` a small saved run renders
# the prediction table: the four models' columns, a prediction for
# sha256/generic (it runs everywhere) and its measured cycles per block,
# worked out here by hand. Without llvm-mca-19 --analyze must exit 2 saying
# what to install; the rest then SKIPs (77). Never checks a prediction's
# value: that is llvm-mca's.
#   analyze_test.sh LOCKSTEP_CLI
set -euo pipefail
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if ! "$@"; then echo "FAILED: $*"; fail=1; fi; }

# sha256/generic: 4096 B in 1000 ns, 16384 B in 4840 ns: 3840 ns over the
# 192 blocks between, 20 ns a block, 60 cycles at 3000 MHz.
# chacha/x86-avx512f: did not run (the skip's reason goes to the notes).
cat > "$tmp/run.json" <<'JSON'
{
  "context": {"mhz_per_cpu": 3000, "num_cpus": 2, "lockstep_cpu_generation": "Zen 4"},
  "benchmarks": [
    {"name": "hash/sha256/sha256/generic/4096", "run_name": "hash/sha256/sha256/generic/4096",
     "run_type": "iteration", "iterations": 1000, "bytes_per_second": 4096000000},
    {"name": "hash/sha256/sha256/generic/16384", "run_name": "hash/sha256/sha256/generic/16384",
     "run_type": "iteration", "iterations": 1000, "bytes_per_second": 3385123966.9421487},
    {"name": "crypt/chacha20/chacha/x86-avx512f/4096", "run_name": "crypt/chacha20/chacha/x86-avx512f/4096",
     "run_type": "iteration", "error_occurred": true, "error_message": "needs avx512f, which this CPU lacks"}
  ]
}
JSON

# No llvm-mca-19 in PATH: a usage error naming the package.
status=0
PATH=/nonexistent "$cli" bench --analyze --from "$tmp/run.json" --out "$tmp/none" > /dev/null 2> "$tmp/none.err" || status=$?
check test "$status" -eq 2
check grep -q 'llvm-mca-19' "$tmp/none.err"
check grep -q 'llvm-19' "$tmp/none.err"
# --analyze picks its own benchmarks.
status=0
"$cli" bench --analyze --filter '^hash/' --from "$tmp/run.json" --out "$tmp/filter" > /dev/null 2>&1 || status=$?
check test "$status" -eq 2

if ! command -v llvm-mca-19 > /dev/null; then
  [ "$fail" -eq 0 ] || exit 1
  echo "SKIP: llvm-mca-19 is not installed (Debian package llvm-19)"
  exit 77
fi

"$cli" bench --analyze --from "$tmp/run.json" --out "$tmp/out" > "$tmp/stdout.md" 2> "$tmp/stderr.txt" ||
  { cat "$tmp/stderr.txt"; exit 1; }
check cmp -s "$tmp/stdout.md" "$tmp/out/analyze.md"
check grep -q '^| backend | znver4 | znver5 | sapphirerapids | icelake-server | host measured | error on host |$' \
  "$tmp/stdout.md"
# sha256/generic: a number in each model's column, 60.0 measured, an error.
check grep -Eq '^\| sha256/generic( \| [0-9]+\.[0-9]){4} \| 60\.0 \| [+-][0-9]+% \|$' "$tmp/stdout.md"
check grep -q '^- chacha/x86-avx512f: host measured: needs avx512f, which this CPU lacks$' "$tmp/stdout.md"
# A run --from is rendered, never rerun or overwritten.
check test ! -e "$tmp/out/bench.json"
check test ! -e "$tmp/out/bench.md"

if [ "$fail" -ne 0 ]; then
  cat "$tmp/stdout.md"
  exit 1
fi
echo "bench analyze: ok"
