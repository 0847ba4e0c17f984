#!/usr/bin/env bash
# expect_run_caught.sh --backend NAME --column COL [--because REGEX]
#                      -- LOCKSTEP run ARGS...
#
# A planted defect as a user meets it: a scoped `lockstep run` (the
# arguments given, plus --out and --json of its own) must exit 1, and its
# matrix must fail the planted backend in COL, and fail nothing else: a
# failing real backend, or a failure in another column, is not the plant
# being caught by the check meant to catch it. With --because, each
# failed cell's detail must match REGEX (a plant caught for its reason, not
# another). Prints the cells that caught it.
set -uo pipefail
usage() {
  echo "usage: $0 --backend NAME --column COL [--because REGEX] -- LOCKSTEP run ARGS..." >&2
  exit 2
}
backend='' column='' because=''
while [ $# -gt 0 ]; do
  case $1 in
    --backend) backend=${2-}; shift 2 ;;
    --column) column=${2-}; shift 2 ;;
    --because) because=${2-}; shift 2 ;;
    --) shift; break ;;
    *) usage ;;
  esac
done
[ -n "$backend" ] && [ -n "$column" ] && [ $# -gt 0 ] || usage

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$@" --out "$tmp/run" --json "$tmp/matrix.json" >"$tmp/out" 2>&1
rc=$?
fail() {
  tail -n 40 "$tmp/out"
  echo "expect_run_caught: $* (exit $rc)"
  exit 1
}
[ $rc -eq 1 ] || fail "want exit 1: the run must fail on the planted defect"
[ -s "$tmp/matrix.json" ] || fail "the run wrote no matrix"
python3 - "$tmp/matrix.json" "$backend" "$column" "$because" <<'PY' || fail "the matrix does not show the plant caught as it should"
import json, re, sys
doc, backend, column, because = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3], sys.argv[4]
caught, stray = [], []
for env in doc["environments"]:
    for row in env["matrix"]["rows"]:
        for col, cell in row["checks"].items():
            if cell["status"] != "FAIL":
                continue
            where = f'{env["id"]}: {row["algorithm"]} @ {row["backend"]} [{col}]: {cell["detail"]}'
            ours = (row["backend"], col) == (backend, column) and re.search(because, cell["detail"])
            (caught if ours else stray).append(where)
for c in caught:
    print("caught by:", c)
for s in stray:
    print("failed elsewhere:", s)
if not caught:
    print(f"no {column} cell of {backend} failed")
sys.exit(0 if caught and not stray else 1)
PY
