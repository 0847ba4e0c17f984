#!/usr/bin/env bash
# module_trap_env_test.sh LOCKSTEP MODULE: a module's PHE backend runs in
# the PHE trap environment beside the built-in ones (a module once made
# the environment unavailable, "its backends have 2 names"), its failure
# is the environment's, and the reproducer line names the module.
set -uo pipefail
cli=$(realpath "$1")
module=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$("$cli" run --module "$module" --env phe-trap --check conformance --out "$tmp/run" 2>&1)
rc=$?
fail=0
check() { if ! "$@"; then echo "FAILED: $*"; fail=1; fi; }
check [ "$rc" -eq 1 ]
check grep -qE '^sha256 @ sha256/x86-phe +PASS' <<< "$out"
check grep -qE '^sha512 @ sha512/x86-phe +PASS' <<< "$out"
check grep -qE '^sha256 @ sha256/teeth:phe-misaligned +FAIL' <<< "$out"
check grep -qE "reproduce: LOCKSTEP_EMULATE=phe LOCKSTEP_CPU=-sha_ni LOCKSTEP_MODULES=$module .*conformance_tests --gtest_filter=" <<< "$out"
[ $fail -eq 0 ] || tail -n 25 <<< "$out"
exit $fail
