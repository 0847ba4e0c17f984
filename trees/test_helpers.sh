# Sourced by tree_test.sh, tree_arm64_test.sh and bench/tree_peers_test.sh
# (with $cli set): the helpers they share. A failed check sets fail=1; the
# script exits with it.
fail=0
check() { if ! "$@"; then echo "FAILED: $*"; fail=1; fi; }
check_not() { if "$@"; then echo "FAILED (should not hold): $*"; fail=1; fi; }
# expect STATUS PATTERN -- ARGS...: lockstep's status and a line of its
# output; the output stays in $out for further checks.
expect() {
  local want=$1 pattern=$2
  shift 3
  local rc
  out=$("$cli" "$@" 2>&1)
  rc=$?
  if [ "$rc" -ne "$want" ] || ! grep -qE -- "$pattern" <<< "$out"; then
    echo "FAILED: lockstep $* -> exit $rc (want $want), output without /$pattern/:"
    tail -n 15 <<< "$out"
    fail=1
  fi
}
# all_pass MATRIX COUNT: the run's matrix has COUNT cells in the columns an
# emulated arm64 run judges, every one PASS. (isa skips a kernel glue,
# which declares nothing, and the huge column's 2 GiB calls skip under
# QEMU: those columns are checked on their own where they mean something.)
# A row through one function runs in the lowest model with its needs only
# (row_placement.h): its cells in the other models are not counted.
all_pass() {
  python3 - "$1" "$2" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
judged = ("conformance", "vectors", "fuzz", "abi")
placed = "the same code under the same emulator runs in"
cells = [c.get("status") for e in m["environments"] for r in e.get("matrix", {}).get("rows", [])
         for col, c in r["checks"].items() if col in judged and not c.get("detail", "").startswith(placed)]
if len(cells) != int(sys.argv[2]) or any(c != "PASS" for c in cells):
    print("cells:", cells)
    sys.exit(1)
PY
}
