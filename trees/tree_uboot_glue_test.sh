#!/usr/bin/env bash
# tree_uboot_glue_test.sh LOCKSTEP: U-Boot's layers above the assembly in
# the miniature tree (trees/testdata/u-boot-mini), under qemu-aarch64: the
# tree's own lib/sha256.c and lib/sha512.c with the arch glue that
# overrides their weak *_process, driven through U-Boot's hash API (rows
# */u-boot:ce-glue). U-Boot picks the glue by Kconfig alone, so the rows run
# in every CPU model: SHA-256 passes in all four, SHA-512 passes on max and
# is the glue's Synchronous Abort on the Cortex-A53, A57 and A72 (no
# ARMv8.2 SHA-512). Planted defects of the layer are caught, by the column
# that can see them.
set -uo pipefail
cli=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
uboot=$here/testdata/u-boot-mini
glue=arch/arm/cpu/armv8
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=test_helpers.sh
source "$here/test_helpers.sh"
models=(max cortex-a53 cortex-a57 cortex-a72)
envs=()
for m in "${models[@]}"; do envs+=(--env "qemu-aarch64-$m"); done

# Every model, the glue rows: SHA-512's cells fail where the core lacks it.
expect 1 'built sha512/u-boot:ce-glue +lib/sha512.c \+ arch/arm/cpu/armv8/sha512_ce_glue.c \(calls sha512_armv8_ce_process' \
  -- tree "$uboot" "${envs[@]}" --backend '*/u-boot:ce-glue' --check conformance --check vectors --check fuzz \
  --check abi --check isa --out "$tmp/run"
check python3 - "$tmp/run/matrix.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
abort = ("Synchronous Abort: the glue calls sha512_armv8_ce_process, which needs sha512, on a core without it; "
         "U-Boot selects it by Kconfig only (CONFIG_ARMV8_CE_SHA512, in arch/arm/cpu/armv8/sha512_ce_glue.c): ")
bad, seen = [], 0
for e in m["environments"]:
    model = e["id"].removeprefix("qemu-aarch64-")
    for r in e.get("matrix", {}).get("rows", []):
        for col, c in r["checks"].items():
            seen += 1
            where = (model, r["backend"], col, c.get("status"), c.get("detail", "")[:160])
            if col == "isa":
                # The glue declares no needs (it checks none): the one-function rows are read.
                ok = c["status"] == "SKIP" and "U-Boot's by Kconfig" in c.get("detail", "")
            elif r["backend"] == "sha512/u-boot:ce-glue" and model != "max":
                ok = c["status"] == "FAIL" and c["detail"].startswith(abort) and "(SIGILL)" in c["detail"]
            else:
                ok = c["status"] == "PASS"
            if not ok:
                bad.append(where)
# 4 models x 2 rows x 5 columns.
if bad or seen != 40:
    print("cells:", seen, bad)
    sys.exit(1)
PY
# The glue's selection, per model: which function it calls, chosen by
# Kconfig alone, and whether this core has what it needs.
for m in "${models[@]}"; do
  check grep -qE "^== qemu-aarch64 -cpu $m " <<< "$out"
done
check grep -qE 'kernel selected: sha256-u-boot-ce-glue.so: U-Boot `hash sha256`: hash_lookup_algo -> sha256_csum_wd \(lib/sha256.c\) -> sha256_process \(arch/arm/cpu/armv8/sha256_ce_glue.c\) -> sha256_armv8_ce_process, chosen by Kconfig alone \(CONFIG_ARMV8_CE_SHA256=y\), no run-time CPU check; this core has sha2: it runs here' <<< "$out"
check bash -c "[ \$(grep -c 'sha512-u-boot-ce-glue.so: .*CONFIG_ARMV8_CE_SHA512=y), no run-time CPU check; this core lacks sha512, and the glue.s first call dies of SIGILL here' <<< \"\$1\") = 3 ]" _ "$out"
check bash -c "[ \$(grep -c 'sha512-u-boot-ce-glue.so: .*this core has sha512: it runs here' <<< \"\$1\") = 1 ]" _ "$out"
# U-Boot's SHA-1 glue: no family for it, a SKIP that says so.
check grep -qE 'SKIP +sha1/u-boot:ce-glue +arch/arm/cpu/armv8/sha1_ce_glue.c: .*lockstep has no SHA-1 family' <<< "$out"
check grep -qE 'the build of sha1/u-boot:ce-glue' <<< "$out"

# A glue that forgets U-Boot's front end hands it runs of no blocks (every
# update shorter than what fills a block): the assembly counts down after
# each block, so a count of 0 runs off the buffer. The whole-message driver
# (conformance) sees it; the block function columns (vectors) never pass 0.
cp -r "$uboot" "$tmp/zero-blocks"
sed -i '/if (blocks == 0)/,/return;/d' "$tmp/zero-blocks/$glue/sha256_ce_glue.c"
check_not grep -q 'blocks == 0' "$tmp/zero-blocks/$glue/sha256_ce_glue.c"
expect 1 'sha256 @ sha256/u-boot:ce-glue +FAIL +PASS' \
  -- tree "$tmp/zero-blocks" --env qemu-aarch64-max --backend 'sha256/u-boot:ce-glue' --check conformance \
  --check vectors --out "$tmp/run"
check python3 - "$tmp/run/matrix.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
cells = {(r["algorithm"], col): c for e in m["environments"] for r in e.get("matrix", {}).get("rows", []) for col, c in r["checks"].items()}
conf, vec = cells[("sha256", "conformance")], cells[("sha256", "vectors")]
if conf["status"] != "FAIL" or "DriverHashConformance" not in conf["detail"] or vec["status"] != "PASS":
    print(conf, vec)
    sys.exit(1)
PY

# A front end whose block function is its own (static, as U-Boot's was
# before the glue existed): the glue is never reached, and its row says so
# rather than pass on the front end's C. Without a SHA-512 glue, its row is
# the build's SKIP, naming the file, and the one-function row stays.
cp -r "$uboot" "$tmp/no-hook"
sed -i 's/^__weak void sha256_process(/static void mini_blocks(/; s/sha256_process(ctx, /mini_blocks(ctx, /' \
  "$tmp/no-hook/lib/sha256.c"
rm "$tmp/no-hook/$glue/sha512_ce_glue.c"
expect 0 'SKIP +sha512/u-boot:ce-glue +arch/arm/cpu/armv8/sha512_ce_core.S: the tree has no arch/arm/cpu/armv8/sha512_ce_glue.c' \
  -- tree "$tmp/no-hook" --env qemu-aarch64-max --check conformance --out "$tmp/run"
check grep -qE 'built sha512/u-boot:armv8-ce ' <<< "$out"
check grep -qE "sha256 @ sha256/u-boot:ce-glue +SKIP\(the tree's lib/sha256.c never reaches arch/arm/cpu/armv8/" <<< "$out"
check grep -q "the tree's lib/sha256.c never reaches arch/arm/cpu/armv8/sha256_ce_glue.c" "$tmp/run/matrix.json"
check grep -qE 'kernel selected: sha256-u-boot-ce-glue.so: U-Boot `hash sha256`: lib/sha256.c runs its own block code' <<< "$out"

exit $fail
