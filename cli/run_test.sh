#!/usr/bin/env bash
# `lockstep run` as a user drives it: filters, exit statuses, the JSON, JUnit
# and KTAP reports, the --expect manifest, and a FAIL whose reproducer
# really reproduces it. Small selections only, so that it stays quick.
set -uo pipefail
cli=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAILED: $*"; fail=1; }
# expect_exit CODE DESCRIPTION CMD...: runs CMD, output in $tmp/out.
expect_exit() {
  local want=$1 what=$2
  shift 2
  "$@" >"$tmp/out" 2>&1
  local got=$?
  [ "$got" = "$want" ] || { bad "$what: exit $got, want $want"; sed 's/^/    /' "$tmp/out" | tail -n 20; }
}
# Its own log folder: other tests may run `lockstep run` at the same time.
lockstep_run() { "$cli" run --out "$tmp/run" "$@"; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $1" "$tmp/m.json"; }

# Usage errors: exit 2, naming what was wrong.
expect_exit 2 "unknown --env" lockstep_run --env no-such-env
grep -q "names no environment" "$tmp/out" && grep -q "native" "$tmp/out" || bad "--env error does not list the environments"
expect_exit 2 "unknown --family" lockstep_run --family sha1
grep -q "sha256" "$tmp/out" || bad "--family error does not list the families"
expect_exit 2 "unknown --check" lockstep_run --check speed
expect_exit 2 "a --backend that matches nothing" lockstep_run --env native --backend 'nosuch/*' --check vectors
grep -q "matched no backend" "$tmp/out" || bad "--backend error does not say it matched nothing"

# A scoped run: one backend family member, one check, one environment.
expect_exit 0 "scoped run" lockstep_run --env native --backend 'sha256/gen*' --check vectors \
  --json "$tmp/m.json" --junit "$tmp/j.xml" --ktap "$tmp/k.tap" -j 2
json 'e=d["environments"]; assert [x["id"] for x in e]==["native"], e
m=e[0]["matrix"]; assert m["columns"]==["vectors"], m["columns"]
rows=[(r["algorithm"],r["backend"]) for r in m["rows"]]
assert rows==[("sha256","sha256/generic"),("sha224","sha256/generic")], rows
for r in m["rows"]:
    c=r["checks"]["vectors"]; assert c["status"]=="PASS", c
    p=c["provenance"]; assert p["backend_executed"] is True and p["backend_calls"]>0, p
    assert p["seed"].startswith("0x") and p["cpu_effective"], p
assert m["other_checks"]==[], m["other_checks"]' || bad "scoped run: matrix.json is not what was asked for"
python3 - "$tmp/j.xml" <<'PY' || bad "scoped run: JUnit XML"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites" and root.get("failures") == "0", root.attrib
cases = root.findall("./testsuite/testcase")
assert len(cases) == 2 and int(root.get("tests")) == 2, [c.get("name") for c in cases]
assert cases[0].get("name") == "sha256 @ sha256/generic: vectors", cases[0].get("name")
PY
[ -f "$tmp/run/native/describe.json" ] || bad "--out: no logs under $tmp/run/native"
[ "$(head -n 2 "$tmp/k.tap")" = $'KTAP version 1\n1..1' ] || bad "KTAP header"
grep -qx '  1\.\.2' "$tmp/k.tap" && grep -qx '  ok 1 sha256 @ sha256/generic: vectors' "$tmp/k.tap" &&
  grep -qx 'ok 1 native' "$tmp/k.tap" || bad "KTAP body: $(cat "$tmp/k.tap")"

# A cell that passed says what its tests skipped, and why: in matrix.json,
# and under --verbose. sha256/generic's abi cell skips the kernel sections'
# test, which needs a module built with the kernel environment.
expect_exit 0 "a pass with skipped tests" lockstep_run --env native --backend sha256/generic --check abi \
  --json "$tmp/m.json" --verbose
json 'c=d["environments"][0]["matrix"]["rows"][0]["checks"]["abi"]; assert c["status"]=="PASS", c
k=c["skipped"]; assert any("kernel environment" in s["reason"] and s["tests"]>=1 and "KernelSections" in s["first"] for s in k), k' ||
  bad "a passing cell's skipped tests are not in matrix.json with their reasons"
grep -q "^skipped in cells that passed:" "$tmp/out" && grep -q "sha256/generic abi: .*kernel environment" "$tmp/out" ||
  bad "run --verbose does not list what the passing cells skipped"

# An environment the filters leave empty is said so, and counted nowhere.
if [ "$(uname -m)" = x86_64 ]; then
  expect_exit 0 "a run the filters leave empty in one environment" lockstep_run --env native --env phe-trap \
    --backend sha512/generic --check vectors --json "$tmp/m.json"
  grep -q "nothing selected runs here" "$tmp/out" || bad "phe-trap was not said to have nothing selected"
  # native: SHA-512, SHA-384, SHA-512/224 and SHA-512/256 on sha512/generic.
  grep -q "^cells: 4 passed, 0 failed, 0 skipped" "$tmp/out" || bad "cells count an empty environment: $(grep cells: "$tmp/out")"
fi

# --expect: listed cells must PASS here; a skip of one is a failure.
printf '# must pass\nnative sha256/generic vectors\n' > "$tmp/ok.expect"
expect_exit 0 "--expect met" lockstep_run --env native --backend sha256/generic --check vectors --expect "$tmp/ok.expect"
# sha256/x86-phe needs Zhaoxin PHE, which no host here has: its cell is SKIP.
printf 'native sha256/x86-phe vectors\n' > "$tmp/phe.expect"
expect_exit 1 "--expect of a skipped cell" lockstep_run --env native --backend sha256/x86-phe --check vectors \
  --expect "$tmp/phe.expect"
grep -q "expected to PASS here ($tmp/phe.expect:1)" "$tmp/out" || bad "--expect failure does not name the manifest line"
printf 'native sha256/generic\n' > "$tmp/bad.expect"
expect_exit 1 "malformed --expect" lockstep_run --env native --expect "$tmp/bad.expect"
grep -q "bad.expect:1: expected three fields" "$tmp/out" || bad "malformed --expect: no file:line"
printf 'native sha256/generic speed\n' > "$tmp/bad.expect"
expect_exit 1 "--expect with an unknown check" lockstep_run --env native --expect "$tmp/bad.expect"
grep -q "field CHECK" "$tmp/out" || bad "--expect error does not name the field"

# A FAIL: LOCKSTEP_REQUIRE_ALL=1 makes the suites fail a backend this CPU
# lacks. The cell says FAIL with a reproducer, and the reproducer fails too.
export LOCKSTEP_REQUIRE_ALL=1
expect_exit 1 "a failing cell" lockstep_run --env native --backend sha256/x86-phe --check vectors \
  --json "$tmp/m.json" --junit "$tmp/j.xml"
repro=$(json 'print(d["environments"][0]["matrix"]["rows"][0]["checks"]["vectors"]["reproduce"])') ||
  bad "the FAIL cell has no reproduce command"
[ -n "${repro:-}" ] && { bash -c "$repro" >/dev/null 2>&1 && bad "the reproducer passed: $repro"; }
grep -q '<failure message=' "$tmp/j.xml" && grep -q 'reproduce: ' "$tmp/j.xml" || bad "JUnit has no failure with a reproducer"
unset LOCKSTEP_REQUIRE_ALL

[ "$fail" = 0 ] && echo "lockstep run: filters, exit statuses, reports and --expect behave"
exit "$fail"
