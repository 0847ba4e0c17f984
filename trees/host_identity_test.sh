#!/usr/bin/env bash
# host_identity_test.sh LOCKSTEP: the verdicts that depend on the CPU's
# identity are the environment's, whatever host runs them. Each check runs
# with the host's identity stood in for (LOCKSTEP_CPU_IDENTITY) by an Intel,
# an AMD and a Zhaoxin one, and again without AVX-512 (LOCKSTEP_CPU), and
# must come out the same:
#   - phe-trap is a Zhaoxin KX-7000: the miniature's init (Linux 7.2's
#     `boot_cpu_data.x86 >= 0x07` test) selects its PHE path there;
#   - natively the init selects by features alone, the same on every host;
#   - the trap environments report their own model's identity;
#   - PREFER_YMM follows the identity (Skylake-SP is on the kernel's list).
set -uo pipefail
cli=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
mini=$here/testdata/linux-mini
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=test_helpers.sh
source "$here/test_helpers.sh"

hosts=("intel:6:0xa7" "amd:0x17:1" "zhaoxin:7:0x6b")
native_selection=
for host in "${hosts[@]}" "intel:6:0xa7 -avx512f"; do
  id=${host%% *}
  mask=
  [ "$host" != "$id" ] && mask=${host#* }
  export LOCKSTEP_CPU_IDENTITY=$id LOCKSTEP_CPU=$mask
  echo "== as on $id${mask:+ with LOCKSTEP_CPU=$mask}"

  expect 0 'kernel selected: sha256-linux-sha256.so: static_call mini_sha256_path = mini_sha256_phe' \
    -- tree "$mini" --env phe-trap --backend 'sha256/linux:*' --check conformance --out "$tmp/run"
  check grep -q 'as ZHAOXIN KaiXian KX-7000 (family 0x7, model 0x6b)' <<< "$out"

  expect 0 'kernel selected: sha256-linux-sha256.so' \
    -- tree "$mini" --env native --backend 'sha256/linux:*' --check conformance --out "$tmp/run"
  selection=$(grep 'kernel selected: sha256-linux-sha256.so' <<< "$out")
  if [ -z "$mask" ]; then
    [ -z "$native_selection" ] && native_selection=$selection
    check test "$selection" = "$native_selection"
  fi
  check_not grep -q 'mini_sha256_phe' <<< "$selection"

  # The trap environments are their models, the stand-in has no say there.
  check python3 - "$id" <<PY
import json, os, subprocess, sys
def cpu(extra):
    env = dict(os.environ, **extra)
    return json.loads(subprocess.run(["$cli", "list", "--json"], env=env, capture_output=True, text=True,
                                     check=True).stdout)["cpu"]
phe = cpu({"LOCKSTEP_EMULATE": "phe"})
ext = cpu({"LOCKSTEP_EMULATE": "sha512ext"})
native = cpu({})
ok = ((phe["vendor"], phe["family"], phe["model"], phe["identity_by"]) == ("  Shanghai  ", 7, 0x6b, "phe-trap")
      and (ext["vendor"], ext["family"], ext["model"], ext["identity_by"]) == ("GenuineIntel", 6, 0xc6, "sha512ext-trap")
      and native["identity_by"] == "LOCKSTEP_CPU_IDENTITY")
if not ok:
    print("identities:", phe, ext, native)
sys.exit(0 if ok else 1)
PY
done
unset LOCKSTEP_CPU_IDENTITY LOCKSTEP_CPU

# PREFER_YMM is the identity's: on the kernel's zmm exclusion list as a
# Skylake-SP (Intel family 6 model 0x55), off it as a Sapphire Rapids.
check python3 - <<PY
import json, os, subprocess, sys
def effective(identity):
    env = dict(os.environ, LOCKSTEP_CPU_IDENTITY=identity)
    out = subprocess.run(["$cli", "list", "--json"], env=env, capture_output=True, text=True, check=True).stdout
    return json.loads(out)["cpu"]["effective"].split()
skx, spr = effective("intel:6:0x55"), effective("intel:6:0x8f")
if "prefer_ymm" not in skx or "prefer_ymm" in spr:
    print("prefer_ymm: skylake-sp", skx, "sapphire rapids", spr)
    sys.exit(1)
PY

# A bad identity names the variable and the field, with status 2.
for bad in "intel:6" "nobody:6:1" "intel:six:1" "intel:6:0x1ff" "amd:0x17:1:16"; do
  LOCKSTEP_CPU_IDENTITY=$bad expect 2 "LOCKSTEP_CPU_IDENTITY=$bad: " -- list
done
exit $fail
