#!/usr/bin/env bash
# expect_tree_caught.sh --series PATCH --env ENV --column COL --want FAIL|WARN
#                       --backend ROW [--algorithm ALG] -- LOCKSTEP TREE
#
# A planted defect of a kernel tree's glue or assembly as its maintainer
# meets it: `lockstep tree TREE --series PATCH`, scoped to one driver of
# the miniature (ROW, its row of ALG, sha256 unless given), must give the patched row WANT in COL
# (and exit 1 for a FAIL, 0 for a WARN, which never fails a run), while the
# row before the series is not: the series is what the column caught.
set -uo pipefail
usage() {
  echo "usage: $0 --series PATCH --env ENV --column COL --want FAIL|WARN --backend ROW [--algorithm ALG] -- LOCKSTEP TREE" >&2
  exit 2
}
series='' env='' column='' want='' backend='' algorithm=sha256
while [ $# -gt 0 ]; do
  case $1 in
    --series) series=${2-}; shift 2 ;;
    --env) env=${2-}; shift 2 ;;
    --column) column=${2-}; shift 2 ;;
    --want) want=${2-}; shift 2 ;;
    --backend) backend=${2-}; shift 2 ;;
    --algorithm) algorithm=${2-}; shift 2 ;;
    --) shift; break ;;
    *) usage ;;
  esac
done
[ -n "$series" ] && [ -n "$env" ] && [ -n "$column" ] && [ -n "$want" ] && [ -n "$backend" ] && [ $# -eq 2 ] || usage
cli=$1 tree=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$cli" tree "$tree" --series "$series" --env "$env" --backend "$backend*" --check "$column" --bench-time 0 \
  --out "$tmp/run" > "$tmp/out" 2>&1
rc=$?
want_rc=1
[ "$want" = WARN ] && want_rc=0
if [ "$rc" != "$want_rc" ]; then
  echo "FAILED: exit $rc, want $want_rc"
  tail -n 30 "$tmp/out"
  exit 1
fi
python3 - "$tmp/run/matrix.json" "$backend" "$column" "$want" "$algorithm" <<'PY' || { tail -n 30 "$tmp/out"; exit 1; }
import json, sys
path, backend, column, want, algorithm = sys.argv[1:]
m = json.load(open(path))
cells = {(r["algorithm"], r["backend"]): r["checks"].get(column, {}) for e in m["environments"]
         for r in e.get("matrix", {}).get("rows", [])}
after = cells.get((algorithm, backend + ".series"))
before = cells.get((algorithm, backend))
if after is None or after.get("status") != want:
    sys.exit(f"FAILED: the patched row's {column} cell is {after}, want {want}")
if before is None or before.get("status") not in ("PASS", "SKIP"):
    sys.exit(f"FAILED: the row before the series is {before} in {column}, want PASS (or SKIP where not registered)")
print(f"caught: {backend}.series [{column}]: {want}: {after.get('detail', '')[:200]}")
PY
