#!/usr/bin/env bash
# Every way a module can be wrong gets exit status 2 and one line naming the
# module file and what is wrong with it, from every command that takes
# --module and from LOCKSTEP_MODULES; never a crash, never a silent pass.
#   bad_modules_test.sh LOCKSTEP ABI_VERSION FAMILY FEATURE DUPLICATE NULL NO_ENTRY OVERLAP
#                       ALGORITHM DRIVER_FOR_ALL DRIVER_NULL SAME_CODE
#                       CIPHER_DRIVER MAC_DRIVER
set -uo pipefail
lockstep=$1
abi_version=$2 family=$3 feature=$4 duplicate=$5 null_fn=$6 no_entry=$7 overlap=$8
algorithm=$9 driver_for_all=${10} driver_null=${11} same_code=${12} cipher_driver=${13} mac_driver=${14}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0 checked=0

# expect FILE TEXT CMD...: CMD exits 2 and says "module FILE: ...TEXT...".
expect() {
  local file=$1 text=$2
  shift 2
  local out rc
  out=$("$@" 2>&1 >/dev/null)
  rc=$?
  checked=$((checked + 1))
  if [[ $rc -ne 2 ]]; then
    echo "FAIL: $* exited $rc, not 2: $out"
    failures=$((failures + 1))
  elif [[ $out != *"module $file: "*"$text"* ]]; then
    echo "FAIL: $*: the message does not name '$file' and '$text': $out"
    failures=$((failures + 1))
  else
    echo "ok: ${out%%$'\n'*}"
  fi
}

# A 64-byte ELF header of a shared object for `machine` (little-endian
# 16-bit e_machine) and nothing else: enough for the architecture check.
elf_header() {
  local machine=$1 out=$2
  { printf '\177ELF\002\001\001'; head -c 9 /dev/zero; printf '\003\000'; printf "$machine"
    head -c 44 /dev/zero; } > "$out"
}
elf_header '\267\000' "$tmp/arm64.so"   # EM_AARCH64, 183
elf_header '\363\000' "$tmp/riscv.so"   # EM_RISCV, 243
echo 'not a module' > "$tmp/text.so"

expect "$tmp/missing.so" "cannot open it" "$lockstep" list --module "$tmp/missing.so"
expect "$tmp/text.so" "not a shared object" "$lockstep" list --module "$tmp/text.so"
expect "$tmp/riscv.so" "built for another architecture" "$lockstep" list --module "$tmp/riscv.so"
case $(uname -m) in
  x86_64) expect "$tmp/arm64.so" "built for arm64" "$lockstep" list --module "$tmp/arm64.so" ;;
esac
expect "$no_entry" "no entry function lockstep_module_v1" "$lockstep" list --module "$no_entry"
expect "$abi_version" "abi_version: 99" "$lockstep" list --module "$abi_version"
expect "$family" "backends[0].family: 'md5'" "$lockstep" list --module "$family"
expect "$feature" "backends[0].needs: unknown feature 'avx1024'" "$lockstep" list --module "$feature"
expect "$duplicate" "backends[1].name" "$lockstep" list --module "$duplicate"
expect "$null_fn" "backends[0].sha256_blocks is null" "$lockstep" list --module "$null_fn"
expect "$overlap" "backends[0].chacha_overlap: 3 is not a lockstep_chacha_overlap" "$lockstep" list --module "$overlap"
expect "$algorithm" "backends[0].algorithms: 'sha384' is not a sha256 algorithm (sha256 sha224)" \
  "$lockstep" list --module "$algorithm"
expect "$driver_for_all" "backends[0].hash_driver needs algorithms to name its one algorithm" \
  "$lockstep" list --module "$driver_for_all"
expect "$driver_null" "backends[0].hash_driver->update is null" "$lockstep" list --module "$driver_null"
expect "$same_code" "backends[0].same_code_as: 'bad:nowhere' is not another backend of the module's sha256 family" \
  "$lockstep" list --module "$same_code"
expect "$cipher_driver" "backends[0].cipher_driver->nrounds: 8 (12 or 20)" "$lockstep" list --module "$cipher_driver"
expect "$mac_driver" "backends[0].mac_driver->mac is null" "$lockstep" list --module "$mac_driver"

# The same refusal from every command, and from the environment variable.
expect "$null_fn" "sha256_blocks is null" "$lockstep" hash --module "$null_fn" sha256 /dev/null
expect "$null_fn" "sha256_blocks is null" "$lockstep" vectors --module "$null_fn" "$tmp"
expect "$null_fn" "sha256_blocks is null" "$lockstep" bench --module "$null_fn"
expect "$null_fn" "sha256_blocks is null" "$lockstep" fuzz --module "$null_fn" sha256
expect "$null_fn" "sha256_blocks is null" "$lockstep" run --module "$null_fn" --check abi
expect "$null_fn" "sha256_blocks is null" env LOCKSTEP_MODULES="$null_fn" "$lockstep" list
# The first bad one in the list stops the process.
expect "$family" "'md5'" env LOCKSTEP_MODULES="$family:$abi_version" "$lockstep" list

echo "$checked cases, $failures failed"
[[ $failures -eq 0 && $checked -gt 0 ]]
