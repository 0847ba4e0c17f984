#!/usr/bin/env bash
# `lockstep run` with a module backend that dies on every call: its own
# cells FAIL, each saying it crashed and how, with a reproducer, and every
# other cell of the run is still decided by its own tests. (The isa column
# reads code without running it, and the huge calls take a minute: both
# are left out.)
#   crash_isolation_test.sh LOCKSTEP CRASHING_MODULE
set -uo pipefail
cli=$(realpath "$1")
module=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$cli" run --env native --module "$module" --backend 'sha256/planted:crashes' --backend sha256/generic \
  --check conformance --check vectors --check fuzz --check abi --out "$tmp/run" --json "$tmp/m.json" -j 2 >"$tmp/out" 2>&1
rc=$?
if [ "$rc" != 1 ]; then
  echo "FAILED: exit $rc, want 1 (cells failed)"
  tail -n 30 "$tmp/out"
  exit 1
fi
python3 - "$tmp/m.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = d["environments"][0]["matrix"]
assert m["columns"] == ["conformance", "vectors", "fuzz", "abi"], m["columns"]
seen = {"crashes": 0, "generic": 0}
for r in m["rows"]:
    for col, c in r["checks"].items():
        where = f'{r["algorithm"]} @ {r["backend"]} [{col}]'
        if r["backend"] == "sha256/planted:crashes":
            assert c["status"] == "FAIL", (where, c)
            # ASan turns the fault into its own report and exit status 1.
            assert any(w in c["detail"] for w in ("crashed: died of signal", "crashed: exited with status",
                                                   "crashed: AddressSanitizer: SEGV",
                                                   "crashed: UBSan:")), (where, c["detail"])
            assert c.get("reproduce"), (where, "no reproducer")
            seen["crashes"] += 1
        else:
            assert c["status"] == "PASS", (where, c)
            seen["generic"] += 1
assert seen == {"crashes": 8, "generic": 8}, seen
print("ok:", seen)
PY
