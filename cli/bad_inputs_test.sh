#!/usr/bin/env bash
# Inputs wrong in one way each, and what lockstep must do with them: a usage
# error (exit 2) before anything runs, its message on standard error naming
# the option, path, variable or value; never a run that ends in "cannot
# write", an abort (134), a SIGILL mid-run or a hang. Then what the reports
# of a good run must carry: JUnit times, per-cell call counts, module names,
# crash reports that name the program.
#   bad_inputs_test.sh LOCKSTEP [CRASHING_MODULE]
set -uo pipefail
cli=$(realpath "$1")
crash_module=${2:+$(realpath "$2")}
build=$(dirname "$(dirname "$cli")")
suite=$build/conformance/conformance_tests
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
failed() { echo "FAILED: $*"; fail=1; }
# run CMD...: stdout in $tmp/out, stderr in $tmp/err, the status in $rc; a
# command that hangs is stopped after 60 s (status 124).
run() { timeout 60 "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?; }
expect_rc() { [ "$rc" = "$1" ] || failed "$2: exit status $rc, expected $1 ($(head -c 400 "$tmp/err"))"; }
expect_err() { grep -qF -- "$1" "$tmp/err" || failed "$2: stderr lacks '$1': $(head -c 400 "$tmp/err")"; }
# usage WHAT TEXT... -- CMD...: exit 2, each TEXT on stderr, and nothing ran
# (a run prints its first line on stdout before any environment starts).
usage() {
  local what=$1 texts=()
  shift
  while [ "$1" != -- ]; do texts+=("$1"); shift; done
  shift
  run "$@"
  expect_rc 2 "$what"
  for t in "${texts[@]}"; do expect_err "$t" "$what"; done
  ! grep -q "environment(s)" "$tmp/out" || failed "$what: the run started before the error"
}
x86=false
[ "$(uname -m)" = x86_64 ] && x86=true
scoped=(--env native --backend sha256/generic --check vectors -j 2)

## 1. Output paths, judged before the run starts.
touch "$tmp/file"
mkdir "$tmp/dir" "$tmp/cwd" "$tmp/corpus"
usage "run --out FILE" "--out $tmp/file" "not a directory" -- "$cli" run "${scoped[@]}" --out "$tmp/file"
usage "run --out under a file" "--out $tmp/file/logs" "$tmp/file is not a directory" -- \
  "$cli" run "${scoped[@]}" --out "$tmp/file/logs"
for opt in --json --junit --ktap; do
  usage "run $opt DIR" "$opt $tmp/dir" "is a directory" -- "$cli" run "${scoped[@]}" --out "$tmp/run" "$opt" "$tmp/dir"
  usage "run $opt under a file" "$opt $tmp/file/report" "$tmp/file is not a directory" -- \
    "$cli" run "${scoped[@]}" --out "$tmp/run" "$opt" "$tmp/file/report"
  usage "run $opt in a missing directory" "$opt $tmp/missing/report" "$tmp/missing does not exist" -- \
    "$cli" run "${scoped[@]}" --out "$tmp/run" "$opt" "$tmp/missing/report"
done
usage "run --build without a suite" "--build $tmp/dir" "no conformance suite at $tmp/dir/conformance/conformance_tests" -- \
  "$cli" run "${scoped[@]}" --out "$tmp/run" --build "$tmp/dir"
# Unwritable even for root: nothing can be created in /proc.
usage "run --ktap in /proc" "--ktap /proc/lockstep-bad-inputs.tap" "cannot write in /proc" -- \
  "$cli" run "${scoped[@]}" --out "$tmp/run" --ktap /proc/lockstep-bad-inputs.tap
if [ "$(id -u)" != 0 ]; then
  mkdir "$tmp/readonly"
  chmod 555 "$tmp/readonly"
  usage "run --junit in a read-only directory" "--junit $tmp/readonly/j.xml" "cannot write in $tmp/readonly" -- \
    "$cli" run "${scoped[@]}" --out "$tmp/run" --junit "$tmp/readonly/j.xml"
  usage "run --out in a read-only directory" "--out $tmp/readonly/run" "cannot write in $tmp/readonly" -- \
    "$cli" run "${scoped[@]}" --out "$tmp/readonly/run"
fi
# An existing matrix.json that is a directory stands in the default --json's way.
mkdir -p "$tmp/blocked/matrix.json"
usage "run with OUT/matrix.json a directory" "$tmp/blocked/matrix.json" "is a directory" -- \
  "$cli" run "${scoped[@]}" --out "$tmp/blocked"
# tree: before it builds anything.
usage "tree --junit DIR" "lockstep tree: --junit $tmp/dir" "is a directory" -- "$cli" tree "$tmp/cwd" --junit "$tmp/dir"
usage "bench --out FILE" "lockstep bench: --out $tmp/file" "not a directory" -- "$cli" bench --out "$tmp/file"
usage "bench --out under a file" "--out $tmp/file/bench" "$tmp/file is not a directory" -- \
  "$cli" bench --out "$tmp/file/bench"
usage "fuzz HARNESS FILE" "corpus $tmp/file" "not a directory" -- "$cli" fuzz sha256 "$tmp/file" --seconds 1
usage "fuzz HARNESS under a file" "corpus $tmp/file/corpus" "$tmp/file is not a directory" -- \
  "$cli" fuzz sha256 "$tmp/file/corpus" --seconds 1
# A harness name where the corpus goes creates nothing.
(cd "$tmp/cwd" && timeout 60 "$cli" fuzz sha256 sha512 --seconds 1 > "$tmp/out" 2> "$tmp/err"); rc=$?
expect_rc 2 "fuzz HARNESS HARNESS"
expect_err "'sha512' is a harness name, not a corpus directory" "fuzz HARNESS HARNESS"
[ -z "$(ls -A "$tmp/cwd")" ] || failed "fuzz sha256 sha512 created $(ls -A "$tmp/cwd")"

## 2. Environments whose mask cannot run there: refused before anything runs.
if $x86; then
  detected=$("$cli" list --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["cpu"]["detected"])')
  if [[ " $detected " != *" sha512 "* ]]; then
    # The trap environments append their mask to the user's; the suites do
    # not install what LOCKSTEP_CPU_EMULATED_BY names in lockstep itself.
    usage "+sha512 under the PHE trap" "environment phe-trap" "LOCKSTEP_CPU=+sha512" "declares sha512" \
      "PHE trap emulator does not provide" -- \
      env LOCKSTEP_CPU=+sha512 LOCKSTEP_CPU_EMULATED_BY=sha512ext-trap "$cli" run --out "$tmp/run" --env phe-trap
    usage "+sha512 natively, vouched in lockstep only" "environment native" "declares sha512" -- \
      env LOCKSTEP_CPU=+sha512 LOCKSTEP_CPU_EMULATED_BY=sha512ext-trap "$cli" run --out "$tmp/run" --env native
    usage "fuzz --env phe-trap with +sha512" "lockstep fuzz: environment phe-trap" "declares sha512" -- \
      env LOCKSTEP_CPU=+sha512 LOCKSTEP_CPU_EMULATED_BY=sha512ext-trap "$cli" fuzz sha512 "$tmp/corpus" \
      --env phe-trap --seconds 1
    usage "+sha512 under LOCKSTEP_EMULATE=phe" "LOCKSTEP_CPU" "+sha512" -- \
      env LOCKSTEP_CPU=+sha512 LOCKSTEP_EMULATE=phe "$cli" run --out "$tmp/run" --env phe-trap
    # The suite itself: the PHE emulator vouches for PHE, not for sha512.
    run env LOCKSTEP_CPU=+sha512 LOCKSTEP_EMULATE=phe "$suite" --gtest_filter='Dispatch.*'
    expect_rc 2 "conformance_tests, +sha512 under LOCKSTEP_EMULATE=phe"; expect_err "+sha512" "conformance_tests +sha512"
  fi
  if [[ " $detected " != *" phe "* ]]; then
    usage "+phe under the SHA512 trap" "environment sha512ext-trap" "declares phe" -- \
      env LOCKSTEP_CPU=+phe LOCKSTEP_CPU_EMULATED_BY=phe-trap "$cli" run --out "$tmp/run" --env sha512ext-trap
  fi
fi

## 3. LOCKSTEP_* variables: the variable and the value named, in lockstep
## and in the suite it passes them to.
for case in LOCKSTEP_CPU=-nosuchfeature LOCKSTEP_CPU=nosuchfeature LOCKSTEP_SEED=garbage LOCKSTEP_SEED=12x \
            LOCKSTEP_REQUIRE_ALL=yes LOCKSTEP_TRAP_PATCH=maybe LOCKSTEP_CPU_MODEL=qemu-x86_64-Pentium4 \
            LOCKSTEP_KERNEL_SIMD=sometimes; do
  var=${case%%=*} value=${case#*=}
  usage "$case" "$var" "${value#-}" -- env "$case" "$cli" run "${scoped[@]}" --out "$tmp/run"
  usage "$case (list)" "$var" "${value#-}" -- env "$case" "$cli" list
done
for case in LOCKSTEP_SEED=garbage LOCKSTEP_REQUIRE_ALL=yes LOCKSTEP_CPU_MODEL=qemu-x86_64-Pentium4; do
  run env "$case" "$suite" --gtest_filter='Dispatch.GenericIsLastAndNeedsNothing'
  expect_rc 2 "conformance_tests with $case"; expect_err "$case" "conformance_tests with $case"
done
if $x86; then
  run env LOCKSTEP_EMULATE=sha512ext LOCKSTEP_TRAP_PATCH=maybe "$suite" \
    --gtest_filter='Dispatch.GenericIsLastAndNeedsNothing'
  expect_rc 2 "conformance_tests with LOCKSTEP_TRAP_PATCH=maybe"
  expect_err "LOCKSTEP_TRAP_PATCH=maybe" "conformance_tests with LOCKSTEP_TRAP_PATCH=maybe"
fi
# Good values still pass.
run env LOCKSTEP_SEED=0x6c6f636b73746570 LOCKSTEP_REQUIRE_ALL=0 LOCKSTEP_TRAP_PATCH=1 "$cli" list
expect_rc 0 "good LOCKSTEP_* values"

## 4. --min-time, --module on a FIFO or a device, fuzz's usage errors.
for t in nan inf -1 0; do
  usage "bench --min-time $t" "--min-time" "'$t'" -- "$cli" bench --min-time "$t" --out "$tmp/bench-$t"
  [ ! -e "$tmp/bench-$t" ] || failed "bench --min-time $t left $(ls -A "$tmp/bench-$t")"
done
mkfifo "$tmp/fifo"
usage "list --module FIFO" "module $tmp/fifo" "a FIFO" -- "$cli" list --module "$tmp/fifo"
usage "list --module /dev/zero" "module /dev/zero" "a character device" -- "$cli" list --module /dev/zero
usage "LOCKSTEP_MODULES=FIFO" "module $tmp/fifo (in LOCKSTEP_MODULES)" -- env LOCKSTEP_MODULES="$tmp/fifo" "$cli" list
usage "LOCKSTEP_MODULES=a.so::b.so" "module a.so (in LOCKSTEP_MODULES): no such file or directory" -- \
  env LOCKSTEP_MODULES=a.so::b.so "$cli" list
# A tree that is not there is a missing input (1); one that is no directory
# says what it is (2). A FIFO given to vectors is named as one.
run "$cli" tree "$tmp/no-such-tree" --env native
expect_rc 1 "tree MISSING"; expect_err "$tmp/no-such-tree: no such file or directory" "tree MISSING"
run "$cli" bench --tree "$tmp/no-such-tree" --out "$tmp/bench-tree"
expect_rc 1 "bench --tree MISSING"; expect_err "$tmp/no-such-tree: no such file or directory" "bench --tree MISSING"
usage "tree FIFO" "$tmp/fifo: a FIFO, not a directory" -- "$cli" tree "$tmp/fifo" --env native
ln -s "$tmp/loop" "$tmp/loop"
usage "tree LOOP" "$tmp/loop: a dangling or looping symbolic link, not a directory" -- "$cli" tree "$tmp/loop" --env native
run "$cli" vectors "$tmp/fifo"
expect_rc 1 "vectors FIFO"; expect_err "$tmp/fifo: a FIFO, not a vector file" "vectors FIFO"
# A module for an architecture none of the selected environments runs would
# never run: said before the run starts, with the environments that would.
# (An ELF header is all route_modules reads of another architecture's file.)
python3 -c 'import struct, sys
open(sys.argv[1], "wb").write(b"\x7fELF\x02\x01\x01" + bytes(9) +
                              struct.pack("<HHIQQQIHHHHHH", 3, 183, 1, 0, 0, 0, 0, 64, 0, 0, 0, 0, 0))' "$tmp/arm64.so"
usage "run --env native --module ARM64.so" "module $tmp/arm64.so is built for arm64" "qemu-aarch64-max" -- \
  "$cli" run --env native --module "$tmp/arm64.so" --backend 'sha256/*' --check vectors --out "$tmp/run"
[ ! -e "$tmp/run/matrix.json" ] || failed "run --module ARM64.so --env native wrote a matrix"
usage "run --env simd-unusable without a kernel-glue module" "--env 'simd-unusable' names no environment" \
  "simd-unusable and simd-alternate run the kernel glue of a module built with lockstep/kernel_compat.h" -- \
  "$cli" run --env simd-unusable --out "$tmp/run"
usage "fuzz with three arguments" "received 3" -- "$cli" fuzz sha256 a b
usage "fuzz --seconds 0" "--seconds" -- "$cli" fuzz --seconds 0
usage "fuzz nosuchharness" "unknown harness 'nosuchharness'" -- "$cli" fuzz nosuchharness
usage "fuzz with an unknown LOCKSTEP_FUZZ_BACKEND" "LOCKSTEP_FUZZ_BACKEND=nosuch" -- \
  env LOCKSTEP_FUZZ_BACKEND=nosuch "$cli" fuzz sha256 "$tmp/corpus" --seconds 1
! grep -q "LOCKSTEP_FUZZ_BACKEND" "$tmp/out" || failed "fuzz: the usage error went to standard output"

## 4b. A run cancelled by SIGTERM to lockstep alone (a CI runner's cancel):
# its children die with it, it exits 128 + 15 and its matrix says so.
if $x86 && command -v qemu-x86_64 > /dev/null; then
  "$cli" run --env 'qemu-x86_64-Haswell' --check conformance -j 2 --out "$tmp/cancel" > "$tmp/out" 2> "$tmp/err" &
  pid=$!
  seen=
  for _ in $(seq 300); do pgrep -P "$pid" > /dev/null && seen=1 && break; sleep 0.1; done
  [ -n "$seen" ] || failed "run under qemu started no child in 30 s"
  kill -TERM "$pid"
  wait "$pid"; rc=$?
  expect_rc 143 "run cancelled by SIGTERM"
  expect_err "cancelled by SIGTERM" "run cancelled by SIGTERM"
  grep -q '"cancelled"' "$tmp/cancel/matrix.json" 2> /dev/null || failed "a cancelled run's matrix does not say so"
  left=$(pgrep -f -- "$tmp/cancel" || true)
  [ -z "$left" ] || failed "a cancelled run left processes running: $(ps -o pid,args -p "${left//$'\n'/,}" | tail -n +2)"
fi

## 5. What a good run's reports carry.
run "$cli" run --env native --backend sha256/generic --check vectors --check abi --check fuzz -j 2 --out "$tmp/run" \
  --json "$tmp/m.json" --junit "$tmp/j.xml"
expect_rc 0 "a scoped run"
python3 - "$tmp/m.json" "$tmp/j.xml" <<'PY' || failed "a scoped run's reports"
import json, sys, xml.etree.ElementTree as ET
rows = json.load(open(sys.argv[1]))["environments"][0]["matrix"]["rows"]
for r in rows:
    c = r["checks"]
    v, a = c["vectors"]["provenance"], c["abi"]["provenance"]
    # Per cell: each check's own calls, not the backend's total in every cell.
    assert v["backend_calls"] > 0 and a["backend_calls"] > 0, r
    assert v["backend_calls"] != a["backend_calls"], (v["backend_calls"], a["backend_calls"])
    assert "backend_calls" not in c["fuzz"]["provenance"], c["fuzz"]
    assert "module" not in r, r
calls = [r["checks"]["vectors"]["provenance"]["backend_calls"] for r in rows]
assert len(set(calls)) == len(calls), calls  # sha256 and sha224 rows differ
cases = ET.parse(sys.argv[2]).getroot().findall("./testsuite/testcase")
assert cases and all(c.get("time") is not None for c in cases), [c.attrib for c in cases]
assert any(float(c.get("time")) > 0 for c in cases), [c.attrib for c in cases]
PY
if [ -n "$crash_module" ]; then
  # A module's rows name their module; its crash report names the program.
  run "$cli" run --env native --module "$crash_module" --backend 'sha256/planted:*' --check vectors -j 2 \
    --out "$tmp/run" --json "$tmp/m.json"
  expect_rc 1 "a run of the crashing module"
  python3 -c 'import json, os, sys
rows = json.load(open(sys.argv[1]))["environments"][0]["matrix"]["rows"]
assert rows and all(os.path.realpath(r["module"]) == sys.argv[2] for r in rows), rows' "$tmp/m.json" "$crash_module" ||
    failed "matrix.json does not name the module of its rows"
  # (The braces keep bash's own "Segmentation fault" line out of the log.)
  { run env LOCKSTEP_MODULES="$crash_module" LOCKSTEP_FUZZ_BACKEND=sha256/planted:crashes \
      "$build/fuzz/fuzz_sha256_replay" --runs 1; } 2> /dev/null
  if grep -aq 'AddressSanitizer: SEGV' "$tmp/err"; then
    # A sanitizer build: ASan reports the fault itself (exit 1), not lockstep.
    [ "$rc" = 1 ] || failed "ASan reported the crash, yet the replay driver exited with $rc"
  else
    [ "$rc" -gt 128 ] || failed "the crashing backend did not crash the replay driver (status $rc)"
    grep -aq '^fuzz_sha256_replay: SIGSEGV' "$tmp/err" ||
      failed "the crash report does not start with the program's name: $(grep -a SIG "$tmp/err" | head -n 2 | cat -v)"
  fi
else
  echo "no crashing module built: module names and crash reports not checked"
fi

[ "$fail" = 0 ] && echo "every bad input is refused up front, naming what was wrong"
exit "$fail"
