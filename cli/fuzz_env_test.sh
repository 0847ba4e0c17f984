#!/usr/bin/env bash
# fuzz_env_test.sh LOCKSTEP [PHE_MODULE]: `lockstep fuzz --env ID` fuzzes in
# run's environments. Under phe-trap the replay driver fuzzes the PHE
# backends (not "not here"), a module's PHE backend too (PHE_MODULE, a
# planted misalignment the trap emulator refuses: the run must fail on it);
# an unknown id is a usage error naming the known ones and creates nothing;
# an environment this host lacks (SDE) says why, exit 1; qemu-aarch64-max,
# where the aarch64 build exists, runs that build's replay driver.
set -uo pipefail
cli=$(realpath "$1")
module=${2:+$(realpath "$2")}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
failed() { echo "FAILED: $*"; fail=1; }
# run ARGS...: the CLI with stdout in $out, stderr in $err, status in $rc.
run() { "$cli" "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?; out=$(cat "$tmp/out"); err=$(cat "$tmp/err"); }
expect_rc() { [ "$rc" = "$1" ] || failed "$2: exit status $rc, expected $1; stdout: ${out:0:600}; stderr: ${err:0:600}"; }
expect() { grep -qE -- "$1" <<< "$2" || failed "$3: no line matching '$1' in: ${2:0:800}"; }
# SDE is what makes sde-* available; without SDE_PATH it is unavailable.
unset SDE_PATH
envs=$("$cli" run --list-envs)

## Unknown id: exit 2, the known ids named, no corpus made.
run fuzz sha256 --env no-such-env --seconds 1 "$tmp/never"
expect_rc 2 "--env no-such-env"
expect "--env 'no-such-env' names no environment \(known: native .*\)" "$err" "--env no-such-env"
[ ! -e "$tmp/never" ] || failed "--env no-such-env created its corpus"

## An environment this host cannot run: its reason, exit 1.
sde=$(awk '$1 ~ /^sde-/ { print $1; exit }' <<< "$envs")
if [ -n "$sde" ]; then
  run fuzz sha256 --env "$sde" --seconds 1 "$tmp/corpus"
  expect_rc 1 "--env $sde"
  expect "lockstep fuzz: $sde \(.*\) cannot run here: Intel SDE not found" "$err" "--env $sde"
else
  echo "SKIP: no sde-* environment in this build (not x86-64)"
fi

## phe-trap: the replay driver (libFuzzer's build has no trap emulator),
## the PHE backends fuzzed, a clean summary.
if grep -qE '^phe-trap .* available$' <<< "$envs"; then
  run fuzz sha256 --env phe-trap --seconds 2 "$tmp/corpus"
  expect_rc 0 "--env phe-trap"
  expect "^lockstep fuzz: sha256 in phe-trap \(.*\) via the replay driver \(.*trap emulator.*\)" "$out" "phe-trap: first line"
  # Before "; not here", if there is one.
  expect "^fuzz_sha256: checks ([^;]* )?sha256/x86-phe[ ;]" "$out" "phe-trap: sha256/x86-phe fuzzed"
  expect "^fuzz_sha256: execs [1-9][0-9]* \| [0-9]+/s \| .*, no mismatch$" "$out" "phe-trap: summary"
  if [ -n "$module" ]; then
    # The module's backend runs under the emulator, which refuses its
    # misaligned state: found, and the reproducer names the module.
    run --module "$module" fuzz sha256 --env phe-trap --seconds 3 "$tmp/corpus"
    expect_rc 1 "--env phe-trap --module"
    expect "^fuzz_sha256: checks ([^;]* )?sha256/teeth:phe-misaligned[ ;]" "$out" "phe-trap: the module's backend fuzzed"
    expect "^fuzz_sha256: FAILED after execs" "$out" "phe-trap --module: the summary"
    expect "the case: sha256/teeth:phe-misaligned " "$out" "phe-trap --module: the backend that died"
    expect "reproduce: LOCKSTEP_EMULATE=phe .*LOCKSTEP_MODULES=$module .*fuzz_sha256_replay " "$out" \
      "phe-trap --module: the reproducer"
  fi
else
  echo "SKIP: no phe-trap environment here: $(grep '^phe-trap' <<< "$envs")"
fi

## qemu-aarch64-max: the aarch64 build's replay driver under QEMU.
if grep -qE '^qemu-aarch64-max .* available$' <<< "$envs"; then
  run fuzz sha256 --env qemu-aarch64-max --seconds 2 "$tmp/corpus"
  expect_rc 0 "--env qemu-aarch64-max"
  expect "^lockstep fuzz: sha256 in qemu-aarch64-max \(.*\) via the replay driver \(libFuzzer's ASan build cannot run under qemu-aarch64" \
    "$out" "qemu-aarch64-max: first line"
  expect "^fuzz_sha256: checks ([^;]* )?sha256/arm64-ce[ ;]" "$out" "qemu-aarch64-max: sha256/arm64-ce fuzzed"
  expect "^fuzz_sha256: execs [1-9][0-9]* .*, no mismatch$" "$out" "qemu-aarch64-max: summary"
else
  echo "SKIP: qemu-aarch64-max: $(grep '^qemu-aarch64-max' <<< "$envs" | sed 's/.*SKIP: //')"
fi
exit $fail
