#!/usr/bin/env bash
# bench.smoke: lockstep_bench runs briefly over a few lengths of every kind of
# benchmark, and `lockstep bench` renders its JSON, then runs end to end.
# It checks that both work and what they write, never the numbers.
#   smoke_test.sh LOCKSTEP_BENCH LOCKSTEP_CLI [SECONDS_SUFFIX]
set -euo pipefail
bench=$1 cli=$2 suffix=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if ! "$@"; then echo "FAILED: $*"; fail=1; fi; }

# 64 and 4096 bytes of every backend and anchor, finup_2x without salt.
"$bench" --benchmark_filter='(/64|/4096|/salt0)$' --benchmark_min_time="0.001$suffix" \
  --benchmark_out="$tmp/bench.json" --benchmark_out_format=json > "$tmp/console.txt"
check grep -q '"name": "hash/sha256/sha256/generic/64"' "$tmp/bench.json"
check grep -q '"name": "crypt/chacha20/chacha/generic/4096"' "$tmp/bench.json"
check grep -q '"name": "anchor/sha512/openssl/64"' "$tmp/bench.json"
check grep -q '"name": "finup2x/sha256/generic/salt0"' "$tmp/bench.json"

"$cli" bench --from "$tmp/bench.json" --out "$tmp/out" > "$tmp/stdout.md"
check cmp -s "$tmp/stdout.md" "$tmp/out/bench.md"
for heading in "SHA-256: MB/s" "SHA-512: MB/s" "ChaCha20: MB/s" "SHA-256 finup_2x" "Speed targets"; do
  check grep -q "### $heading" "$tmp/out/bench.md"
done
check grep -q '^| 64 | ' "$tmp/out/bench.md"
check grep -q '^| 4096 | ' "$tmp/out/bench.md"
for alg in sha256 sha512 chacha20; do
  svg=$tmp/out/bench-$alg.svg
  check test -s "$svg"
  check grep -q '<polyline' "$svg"
  check python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$svg"
done

# End to end: the CLI runs lockstep_bench itself, with the min-time spelling
# this Google Benchmark takes.
"$cli" bench --filter '^hash/sha256/.*/64$' --min-time 0.001 --out "$tmp/run" > "$tmp/run.md" 2> "$tmp/run.err"
check test -s "$tmp/run/bench.json"
check grep -q '### SHA-256: MB/s' "$tmp/run.md"
check test -s "$tmp/run/bench-sha256.svg"

# A file that is not the benchmark's JSON is an error, not an empty report.
echo '{}' > "$tmp/bad.json"
if "$cli" bench --from "$tmp/bad.json" --out "$tmp/bad" > /dev/null 2> "$tmp/bad.err"; then
  echo "FAILED: rendering {} exited 0"; fail=1
fi
check grep -q 'no "benchmarks" array' "$tmp/bad.err"

[ "$fail" -eq 0 ] && echo "bench smoke: ok"
exit "$fail"
