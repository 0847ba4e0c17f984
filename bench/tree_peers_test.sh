#!/usr/bin/env bash
# bench.tree_peers: `lockstep bench --tree` on the miniature Linux tree
# builds its x86 modules through `lockstep tree`'s code, times them beside
# lockstep's own, and bench.md's closest-peer table names a tree backend
# beside an own one. Wrong trees are usage errors (2) naming the path,
# before anything is timed. Never checks the numbers.
#   tree_peers_test.sh LOCKSTEP_CLI SOURCE_DIR
set -uo pipefail
cli=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# check and expect: the helpers of the tree tests.
source "$src/trees/test_helpers.sh"

expect 1 '/nonexistent: no such file or directory' -- bench --tree /nonexistent --out "$tmp/bad"
mkdir "$tmp/empty"
expect 2 "$tmp/empty.*holds none of the files" -- bench --tree "$tmp/empty" --out "$tmp/bad"
expect 2 'give one of them' -- bench --tree "$src/trees/testdata/linux-mini" --from "$0" --out "$tmp/bad"
# None of those ran a benchmark, so none wrote results.
check test ! -e "$tmp/bad/bench.json"

"$cli" bench --tree "$src/trees/testdata/linux-mini" --min-time 0.01 --filter '^hash/sha256/.*/64$' \
  --out "$tmp/out" > "$tmp/stdout.txt" 2> "$tmp/stderr.txt"
rc=$?
if [ "$rc" -ne 0 ]; then
  echo "FAILED: bench --tree exited $rc"
  tail -n 30 "$tmp/stderr.txt" "$tmp/stdout.txt"
  fail=1
fi
# The arm64 modules are left out, saying so; the x86 ones were built.
check grep -qE '^  skip .*built for arm64' "$tmp/stdout.txt"
check grep -qE '^  built +sha256/linux' "$tmp/stdout.txt"
# The bench JSON carries each backend's needs and dispatch's default.
check grep -qE '"lockstep_backend/sha256/linux[^"]*": "module;' "$tmp/out/bench.json"
check grep -qE '"lockstep_backend/sha256/[^"]*": "default;' "$tmp/out/bench.json"
check grep -q '## Closest peers' "$tmp/out/bench.md"
check grep -qE '^### SHA-256: sha256/x86-[^ ]+ \((no needs|needs [^)]*)\) beside sha256/linux' "$tmp/out/bench.md"
check grep -qE '^\| 64 \| [0-9.]+ \| [0-9.]+ \| [0-9.]+x \|$' "$tmp/out/bench.md"
exit $fail
