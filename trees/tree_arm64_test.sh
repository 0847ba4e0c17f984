#!/usr/bin/env bash
# tree_arm64_test.sh LOCKSTEP: `lockstep tree` on the arm64 miniatures, under
# qemu-aarch64 (it needs the aarch64 build beside the default one, so it
# runs in its own stage after that build). The two calling contracts:
# U-Boot's glue calls its assembly as plain C, so d8-d15 are the callee's
# to keep; the kernel's calls it between kernel_neon_begin() and
# kernel_neon_end(), which save the vector state, so only the
# general-purpose callee-saved registers are. A planted copy of each that
# breaks its contract fails `abi`, naming the register.
set -uo pipefail
cli=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
uboot=$here/testdata/u-boot-mini
old=$here/testdata/linux-mini-old
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=test_helpers.sh
source "$here/test_helpers.sh"
envs=(--env qemu-aarch64-max --env qemu-aarch64-cortex-a57)

# U-Boot's layout: SHA-256 passes on the Cortex-A57, the lowest model with
# its needs (under max it stands for that: the same code, one function
# called from C); SHA-512 (ARMv8.2) on max, and is skipped for its need on
# the Cortex-A57.
# (The glue rows, u-boot:ce-glue, have a test of their own:
# tree_uboot_glue_test.sh.)
expect 0 'built sha512/u-boot:armv8-ce +sha512_armv8_ce_process of arch/arm/cpu/armv8/sha512_ce_core.S' \
  -- tree "$uboot" "${envs[@]}" --backend '*/u-boot:armv8-ce' --out "$tmp/run"
check python3 - "$tmp/run/matrix.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
# The columns an emulated arm64 run judges (test_helpers.sh, all_pass).
got = {(e["id"], r["backend"], c.get("status")) for e in m["environments"]
       for r in e.get("matrix", {}).get("rows", []) for col, c in r["checks"].items()
       if col in ("conformance", "vectors", "fuzz", "abi")}
want = {("qemu-aarch64-max", "sha256/u-boot:armv8-ce", "SKIP"),
        ("qemu-aarch64-max", "sha512/u-boot:armv8-ce", "PASS"),
        ("qemu-aarch64-cortex-a57", "sha256/u-boot:armv8-ce", "PASS"),
        ("qemu-aarch64-cortex-a57", "sha512/u-boot:armv8-ce", "SKIP")}
if got != want:
    print("cells:", sorted(got))
    sys.exit(1)
PY
# The isa column reads each transform's code on the host (arm64_reader,
# through the module's PLT into the assembly): every U-Boot row uses only
# what it declares, where it runs (a model without SHA-512 reads it too).
check python3 - "$tmp/run/matrix.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
placed = "the same code under the same emulator runs in"
isa = [(e["id"], r["backend"], r["checks"]["isa"]["status"]) for e in m["environments"]
       for r in e.get("matrix", {}).get("rows", []) if r["backend"].startswith("sha") and "u-boot" in r["backend"]
       and not r["checks"]["isa"].get("detail", "").startswith(placed)]
if len(isa) != 10 or any(s != "PASS" for _, _, s in isa):
    print("isa cells:", isa)
    sys.exit(1)
PY

# The planted U-Boot file writes d8 (a round constant kept in v8, as
# U-Boot's own sha256_ce_core.S does): abi fails and names d8.
cp -r "$uboot" "$tmp/uboot-d8"
sed -i 's/sha256h\tq16, q17, v18.4s/sha256h\tq8, q17, v18.4s/' "$tmp/uboot-d8/arch/arm/cpu/armv8/sha256_ce_core.S"
check grep -q 'q8, q17' "$tmp/uboot-d8/arch/arm/cpu/armv8/sha256_ce_core.S"
expect 1 'sha256 @ sha256/u-boot:armv8-ce +FAIL' \
  -- tree "$tmp/uboot-d8" --env qemu-aarch64-max --backend 'sha256/*' --check abi --out "$tmp/run"
check grep -rqs 'clobbered: d8' "$tmp/run/qemu-aarch64-max"

# A planted SHA512H in the SHA-256 transform, which declares sha2 alone:
# isa fails, naming the instruction and its function.
cp -r "$uboot" "$tmp/uboot-sha512"
sed -i '0,/^\tsha256h\tq16, q17, v18.4s$/s//\t.inst\t0xce628020\t\/\/ sha512h q0, q1, v2.2d\n&/' \
  "$tmp/uboot-sha512/arch/arm/cpu/armv8/sha256_ce_core.S"
check grep -q '0xce628020' "$tmp/uboot-sha512/arch/arm/cpu/armv8/sha256_ce_core.S"
expect 1 'sha256 @ sha256/u-boot:armv8-ce +FAIL' \
  -- tree "$tmp/uboot-sha512" --env qemu-aarch64-max --backend 'sha256/u-boot*' --check isa --out "$tmp/run"
check grep -rqs 'uses sha512, which its needs (sha2) do not declare: sha512h .* (sha256_armv8_ce_process+0x' \
  "$tmp/run/qemu-aarch64-max"

# A tree of arm64 files only, with --env native: said before anything is
# built, with the environments that would run them.
expect 2 'holds modules for arm64 only .* these would: qemu-aarch64-max' \
  -- tree "$here/testdata/u-boot-mini" --env native --out "$tmp/run"

# The older kernel layout: its transform writes v8 inside the section the
# glue opens, which the kernel allows: every cell passes.
expect 0 'built sha256/linux-arch:arm64-ce +sha2_ce_transform of arch/arm64/crypto/sha2-ce-core.S' \
  -- tree "$old" "${envs[@]}" --backend 'sha256/linux-arch:arm64-ce' --out "$tmp/run"
check all_pass "$tmp/run/matrix.json" 8

# 6.12 renamed the transform __sha256_ce_transform: the recipe names it by
# era, and the tree's own name is the one built.
cp -r "$old" "$tmp/renamed"
sed -i 's/sha2_ce_transform/__sha256_ce_transform/' "$tmp/renamed/arch/arm64/crypto/sha2-ce-core.S"
expect 0 'built sha256/linux-arch:arm64-ce +__sha256_ce_transform of arch/arm64/crypto/sha2-ce-core.S' \
  -- tree "$tmp/renamed" --env qemu-aarch64-max --backend 'sha256/linux-arch:arm64-ce' --check conformance --out "$tmp/run"
check grep -qE 'sha256 @ sha256/linux-arch:arm64-ce +PASS' <<< "$out"

# A planted kernel file that overwrites x19, which no section saves: the
# abi cell fails (the adapter's own C keeps a pointer or a block count
# there, and the value, neither an address nor a count, makes the calls
# crash, as the kernel would; a zero count would loop instead).
cp -r "$old" "$tmp/kernel-x19"
sed -i 's/^\tb\tsha256_blocks_generic$/\tmovz\tx19, #0xdead, lsl #48\n\tb\tsha256_blocks_generic/' \
  "$tmp/kernel-x19/arch/arm64/crypto/sha2-ce-core.S"
check grep -q 'movz	x19, #0xdead' "$tmp/kernel-x19/arch/arm64/crypto/sha2-ce-core.S"
expect 1 'cells: 0 passed' \
  -- tree "$tmp/kernel-x19" --env qemu-aarch64-max --backend 'sha256/linux-arch:arm64-ce' --check abi --out "$tmp/run"
check python3 - "$tmp/run/matrix.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
abi = [r["checks"]["abi"]["status"] for e in m["environments"] for r in e.get("matrix", {}).get("rows", [])]
if not abi or any(s != "FAIL" for s in abi):
    print("abi cells:", abi)
    sys.exit(1)
PY

# A yield point of the older kernels that does not load its state again
# (the ld1 after do_cond_yield_neon dropped): every yield is a section
# boundary here, the vector registers come back as they were before the
# section, and the digests are wrong.
cp -r "$old" "$tmp/yield-no-reload"
sed -i '/do_cond_yield_neon/{n;d}' "$tmp/yield-no-reload/arch/arm64/crypto/sha2-ce-core.S"
check bash -c "[ \$(grep -c 'ld1' '$tmp/yield-no-reload/arch/arm64/crypto/sha2-ce-core.S') = 1 ]"
expect 1 'sha256 @ sha256/linux-arch:arm64-ce +FAIL' \
  -- tree "$tmp/yield-no-reload" --env qemu-aarch64-max --backend 'sha256/linux-arch:arm64-ce' --check conformance \
  --out "$tmp/run"

# The current layout's arm64 ChaCha glue (scoped_ksimd() sections, an
# assembly frame_push frame): passes on both models, where the kernel's
# init turns NEON on.
mini=$here/testdata/linux-mini
expect 0 'kernel selected: chacha-linux-chacha-arm64.so: static key mini_have_neon on' \
  -- tree "$mini" "${envs[@]}" --backend 'chacha/linux:chacha-arm64' --out "$tmp/run"
check all_pass "$tmp/run/matrix.json" 24

# The current layout's arm64 SHA-256 glue, with the scalar fallback the
# kernel's build generates (sha256-core.S from sha2-armv8.pl, run by the
# recipe's generate step into lockstep's build directory).
expect 0 'kernel selected: sha256-linux-sha256-arm64.so: static key mini_have_ce on' \
  -- tree "$mini" "${envs[@]}" --backend 'sha256/linux:sha256-arm64' --out "$tmp/run"
check all_pass "$tmp/run/matrix.json" 16
# A generator that fails: that module is a SKIP with its message.
cp -r "$mini" "$tmp/bad-generator"
echo 'die "generator broken on purpose\n";' > "$tmp/bad-generator/lib/crypto/arm64/sha2-armv8.pl"
expect 0 'SKIP +sha256/linux:sha256-arm64 .*cannot generate sha256-core.S' \
  -- tree "$tmp/bad-generator" --env qemu-aarch64-max --check abi --out "$tmp/run"
check grep -q 'generator broken on purpose' <<< "$out"

# A planted glue that calls its NEON code without a section (scoped_ksimd()
# dropped): the code's write to v8 reaches the caller, and abi fails.
cp -r "$mini" "$tmp/no-section"
sed -i '/^\t\tscoped_ksimd()$/d; s/^\t\t\tmini_chacha_neon(/\t\tmini_chacha_neon(/' \
  "$tmp/no-section/lib/crypto/arm64/chacha.h"
check bash -c "! grep -q 'scoped_ksimd()$' '$tmp/no-section/lib/crypto/arm64/chacha.h'"
expect 1 'chacha20 @ chacha/linux:chacha-arm64 +FAIL' \
  -- tree "$tmp/no-section" --env qemu-aarch64-max --backend 'chacha/linux:chacha-arm64' --check abi --out "$tmp/run"
check grep -rqs 'clobbered: d8' "$tmp/run/qemu-aarch64-max"

exit $fail
