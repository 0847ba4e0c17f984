#!/usr/bin/env bash
# tree_test.sh LOCKSTEP [--native-only]: `lockstep tree` on the miniature tree
# (trees/testdata/linux-mini) and on copies of it made wrong one way each:
# the tree's glue builds and passes natively and under AVX2 without BMI2,
# its fallback runs where SIMD is unusable, a planted fallback bug fails
# there, and bad trees are clear errors with the documented status.
set -uo pipefail
cli=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
mini=$here/testdata/linux-mini
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=test_helpers.sh
source "$here/test_helpers.sh"

# The miniature as it is: built, every cell passes natively and, where
# QEMU runs the suites (not in a sanitizer build), under Haswell,-bmi2: AVX2
# without BMI2, where the glue must select its AVX path, not the rorx one.
expect 0 'built sha256/linux:sha256' -- tree "$mini" --env native --out "$tmp/run"
check python3 - "$tmp/run/matrix.json" native <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
cells = [(e["id"], r["algorithm"], check, c.get("status"))
         for e in m["environments"] for r in e.get("matrix", {}).get("rows", [])
         if r["backend"] in ("sha256/linux:sha256", "chacha/linux:chacha")
         for check, c in r["checks"].items()]
# A glue module's isa cell is a SKIP: its init picks among every path; so
# are ChaCha12's and XChaCha20's huge cells (the ChaCha20 row makes the
# call), and every huge cell under QEMU.
# The miniature tree declares no wiping: what it leaves on its stack is a
# residue WARN; sanitizer builds leave residue and ct to the default build.
def fine(c):
    return (c[3] == "PASS" or (c[2], c[3]) in (("isa", "SKIP"), ("kunit", "SKIP"), ("residue", "WARN"), ("residue", "SKIP"), ("ct", "SKIP"))
            or (c[2] == "huge" and c[3] == "SKIP" and (c[1] in ("chacha12", "xchacha20") or c[0] != "native")))
ok = ({c[0] for c in cells} == {sys.argv[2]} and {c[1] for c in cells} >= {"sha256", "chacha20", "xchacha20"}
      and all(fine(c) for c in cells))
if not ok:
    print("cells of the tree's backends:", cells)
for e in m["environments"]:
    want = "sha256-linux-sha256.so: static_call mini_sha256_path = mini_sha256_avx"
    if e["id"] == "qemu-x86_64-Haswell,-bmi2" and want not in e.get("kernel_selected", []):
        print(e["id"], "kernel selected", e.get("kernel_selected"), "not", want)
        ok = False
sys.exit(0 if ok else 1)
PY
qemu=
[ "${2-}" = --native-only ] || qemu=1
if [ -n "$qemu" ]; then
  expect 0 'built sha256/linux:sha256' -- tree "$mini" --env 'qemu-x86_64-Haswell,-bmi2' \
    --check conformance --check abi --out "$tmp/run"
  check python3 - "$tmp/run/matrix.json" 'qemu-x86_64-Haswell,-bmi2' <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
e = next(e for e in m["environments"] if e["id"] == sys.argv[2])
cells = [c.get("status") for r in e.get("matrix", {}).get("rows", []) for c in r["checks"].values()]
want = {"sha256-linux-sha256.so: static_call mini_sha256_path = mini_sha256_avx",
        "chacha-linux-chacha.so: static_call mini_chacha_path = mini_chacha_avx2"}
ok = cells and all(c == "PASS" for c in cells) and want <= set(e.get("kernel_selected", []))
if not ok:
    print(sys.argv[2], cells, e.get("kernel_selected"))
sys.exit(0 if ok else 1)
PY
fi

# The Zhaoxin path, as Linux 7.2 has it: the PHE trap environment's CPU has
# the hash engine (X86_FEATURE_PHE_EN) and, as Zhaoxin's, no SHA-NI; the
# family test reads boot_cpu_data; the recipe sets CONFIG_CPU_SUP_ZHAOXIN.
if [ -n "$qemu" ]; then
  expect 0 'kernel selected: sha256-linux-sha256.so: static_call mini_sha256_path = mini_sha256_phe' \
    -- tree "$mini" --env phe-trap --backend 'sha256/linux:*' --check conformance --out "$tmp/run"
  check grep -q '"status": *"PASS"' "$tmp/run/matrix.json"
fi

# Its generic fallback, where SIMD is never usable and by turns: the two
# environments a kernel-environment module brings (simd-unusable,
# simd-alternate, i.e. LOCKSTEP_KERNEL_SIMD natively).
expect 0 '== native, SIMD alternate to the kernel glue' -- tree "$mini" --env 'simd-*' --check conformance --out "$tmp/run"
check grep -qE 'cells: [0-9]+ passed, 0 failed' <<< "$out"

# A planted fallback bug (the last block of a chunk is dropped when SIMD is
# unusable). With SIMD usable, only the suite's interrupt case reaches it:
# a call interrupting an open section finds irq_fpu_usable() false, as in
# the kernel. With SIMD unusable, every case does.
cp -r "$mini" "$tmp/fallback-bug"
sed -i 's/sha256_blocks_generic(state, data, n);/sha256_blocks_generic(state, data, n - 1);/' \
  "$tmp/fallback-bug/lib/crypto/x86/sha256.h"
check grep -q 'n - 1' "$tmp/fallback-bug/lib/crypto/x86/sha256.h"
expect 1 'conformance\]: 2 of 19 failed, first All/HashConformance.InterruptContext/sha256_linux_sha256' \
  -- tree "$tmp/fallback-bug" --env native --check conformance --out "$tmp/run"
expect 1 'conformance\]: ([3-9]|1[0-9]) of 19 failed' \
  -- tree "$tmp/fallback-bug" --env simd-unusable --check conformance --out "$tmp/run"

# A planted ChaCha glue bug: the block counter advances by whole blocks
# only, so a call ending in a partial block leaves it one short.
cp -r "$mini" "$tmp/counter-bug"
sed -i 's|state->x\[12\] += DIV_ROUND_UP(todo, CHACHA_BLOCK_SIZE);|state->x[12] += todo / CHACHA_BLOCK_SIZE;|' \
  "$tmp/counter-bug/lib/crypto/x86/chacha.h"
check grep -q 'todo / CHACHA_BLOCK_SIZE' "$tmp/counter-bug/lib/crypto/x86/chacha.h"
expect 1 'chacha20 @ chacha/linux:chacha +FAIL' \
  -- tree "$tmp/counter-bug" --env native --backend 'chacha/linux:*' --check conformance --out "$tmp/run"

# The kernel's section rules, as WARN cells of the abi column (counted, in
# JUnit and KTAP, never a failure): a glue that takes 64 KiB per
# kernel_fpu section instead of 4 KiB, and ymm code that ends its section
# without vzeroupper.
cp -r "$mini" "$tmp/long-section"
sed -i 's/min_t(unsigned int, bytes, SZ_4K)/min_t(unsigned int, bytes, SZ_64K)/' "$tmp/long-section/lib/crypto/x86/chacha.h"
check grep -q 'SZ_64K' "$tmp/long-section/lib/crypto/x86/chacha.h"
expect 0 'chacha20 @ chacha/linux:chacha +WARN' -- tree "$tmp/long-section" --env native --check abi \
  --backend 'chacha/linux:*' --out "$tmp/run" --junit "$tmp/run.xml" --ktap "$tmp/run.ktap"
check grep -q "over 4 KiB per section, preemption off all along" <<< "$out"
# (The SKIP: the miniature has no library front end, lib/crypto/chacha.c.)
check grep -qE 'cells: 0 passed, 0 failed, 1 skipped, 3 warned' <<< "$out"
check grep -q 'WARN: chacha20 via chacha/linux:chacha' "$tmp/run.xml"
check grep -q '# WARN .*over 4 KiB per section' "$tmp/run.ktap"
if grep -qw avx2 /proc/cpuinfo; then
  cp -r "$mini" "$tmp/no-vzeroupper"
  # All ones, not a zeroing idiom: some CPUs (AMD Zen 1) keep the upper
  # state clean for a register written with zeros.
  sed -i '/vzeroupper/d; s/vpternlogd\t$0xff, %ymm16, %ymm16, %ymm16/vpcmpeqd\t%ymm1, %ymm1, %ymm1/' \
    "$tmp/no-vzeroupper"/lib/crypto/x86/chacha-avx*-x86_64.S
  check bash -c "! grep -q vzeroupper '$tmp/no-vzeroupper'/lib/crypto/x86/chacha-avx*-x86_64.S"
  expect 0 'chacha20 @ chacha/linux:chacha +WARN' -- tree "$tmp/no-vzeroupper" --env native --check abi \
    --backend 'chacha/linux:*' --out "$tmp/run"
  check grep -q 'ended with ymm/zmm upper state in use (no vzeroupper before kernel_fpu_end)' <<< "$out"
fi

# A planted selection bug (the BMI2 test dropped): the rorx path is chosen
# where AVX2 comes without BMI2, and faults there.
if [ -n "$qemu" ]; then
  cp -r "$mini" "$tmp/selection-bug"
  sed -i 's/ && boot_cpu_has(X86_FEATURE_BMI2)//' "$tmp/selection-bug/lib/crypto/x86/sha256.h"
  check grep -q 'boot_cpu_has(X86_FEATURE_AVX2))' "$tmp/selection-bug/lib/crypto/x86/sha256.h"
  expect 1 'SIGILL' -- tree "$tmp/selection-bug" --env 'qemu-x86_64-Haswell,-bmi2' --check conformance --out "$tmp/run"
fi

# The older layout: one transform of arch/x86/crypto, called as its glue
# would call it, with the needs the recipe declares.
expect 0 'built sha256/linux-arch:x86-ssse3 sha256_transform_ssse3 of arch/x86/crypto/sha256-ssse3-asm.S' \
  -- tree "$here/testdata/linux-mini-old" --env native --check conformance --check vectors --check fuzz \
  --check abi --check isa --out "$tmp/run"
check python3 - "$tmp/run/matrix.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
got = {(r["backend"], c.get("status")) for e in m["environments"] for r in e.get("matrix", {}).get("rows", [])
       for c in r["checks"].values() if ":" in r["backend"]}
want = {("sha256/linux-arch:x86-ssse3", "PASS"), ("chacha/linux-arch:x86-ssse3-1block", "PASS"),
        ("chacha/linux-arch:x86-ssse3-4block", "PASS")}
if got != want:
    print("cells of the older layout:", sorted(got))
    sys.exit(1)
PY
expect 0 'cells: [0-9]+ passed, 0 failed' \
  -- tree "$here/testdata/linux-mini-old" --env simd-alternate --check conformance --out "$tmp/run"
# The isa column reads a tree's file through its adapter and the PLT: an
# undeclared BMI2 instruction planted in the SSSE3 transform fails it,
# with the instruction and where it is.
cp -r "$here/testdata/linux-mini-old" "$tmp/old-undeclared"
sed -i 's/^\tpshufb\t%xmm1, %xmm0$/\tpshufb\t%xmm1, %xmm0\n\trorx\t$7, %eax, %eax/' \
  "$tmp/old-undeclared/arch/x86/crypto/sha256-ssse3-asm.S"
check grep -q rorx "$tmp/old-undeclared/arch/x86/crypto/sha256-ssse3-asm.S"
expect 1 'sha256 @ sha256/linux-arch:x86-ssse3 \[isa\]: 1 of 2 failed, first All/HashIsa.DeclaredExtensionsOnly' \
  -- tree "$tmp/old-undeclared" --env native --family sha256 --check isa --out "$tmp/run"
check grep -qE 'isa: uses bmi2, which its needs \(ssse3\) do not declare: rorx .* \(sha256_transform_ssse3\+0x5 in sha256-linux-arch-x86-ssse3.so\)' \
  "$tmp"/run/native/conformance-*.log
LOCKSTEP_CPU=-ssse3 expect 0 'SKIP\(needs ssse3\)' -- tree "$here/testdata/linux-mini-old" --env native --out "$tmp/run"

# A source the recipe lists is missing: that module is a SKIP naming it,
# and the rest of the tree (its ChaCha glue) still runs.
cp -r "$mini" "$tmp/missing-source"
rm "$tmp/missing-source/lib/crypto/x86/sha256-avx2-asm.S"
expect 0 'SKIP +sha256/linux:sha256 .*the tree has no lib/crypto/x86/sha256-avx2-asm.S' \
  -- tree "$tmp/missing-source" --env native --check conformance --out "$tmp/run"
check grep -q '"backend": *"chacha/linux:chacha"' "$tmp/run/matrix.json"
# With nothing built there is nothing to run (exit 1).
rm -r "$tmp/missing-source/lib/crypto/x86/chacha.h" "$tmp/missing-source/lib/crypto/arm64"
expect 1 'nothing of .* built: nothing to run' -- tree "$tmp/missing-source" --out "$tmp/run"

# A file that does not assemble: the compiler's message, and a SKIP.
cp -r "$mini" "$tmp/broken-asm"
echo 'not_an_instruction %rax' >> "$tmp/broken-asm/lib/crypto/x86/sha256-ni-asm.S"
expect 0 'not_an_instruction' -- tree "$tmp/broken-asm" --env native --check conformance --out "$tmp/run" \
  --junit "$tmp/broken.xml" --ktap "$tmp/broken.tap"
# ... and a row of every report, counted: a SKIP with the compiler's words.
check grep -qE '== the build of sha256/linux:sha256' <<< "$out"
check grep -qE 'cells: [0-9]+ passed, 0 failed, [1-9][0-9]* skipped' <<< "$out"
check grep -q '"id": "build:sha256/linux:sha256"' "$tmp/run/matrix.json"
check grep -q 'skipped message="not built: ' "$tmp/broken.xml"
check grep -q 'build:sha256/linux:sha256 # SKIP' "$tmp/broken.tap"

# A glue that is a FIFO, one that is a looping link: each named as what it
# is, a SKIP, never a module that silently is not there.
cp -r "$mini" "$tmp/odd-glue"
rm "$tmp/odd-glue/lib/crypto/x86/sha256.h" "$tmp/odd-glue/lib/crypto/x86/chacha.h"
mkfifo "$tmp/odd-glue/lib/crypto/x86/sha256.h"
ln -s chacha.h "$tmp/odd-glue/lib/crypto/x86/chacha.h"
expect 1 "the tree's lib/crypto/x86/sha256.h is a FIFO, not a file" -- tree "$tmp/odd-glue" --env native --out "$tmp/run"
check grep -q "the tree's lib/crypto/x86/chacha.h is a dangling or looping symbolic link, not a file" <<< "$out"

# A patch series, before and after in one matrix: a posted mail
# (quoted-printable, as git format-patch and mailing lists send it) that
# plants the ChaCha counter defect turns those cells from PASS to FAIL; a
# plain diff that changes a comment changes no verdict; the tree itself is
# never written.
series=$here/testdata/series
sum_before=$(cat "$mini"/lib/crypto/x86/*.h | cksum)
# From a folder of lockstep's own checkout, as ctest runs it from the build
# directory there: git must still see every path of the series.
cd "$here"
expect 1 'chacha20 @ chacha/linux:chacha \[conformance\]: PASS -> FAIL' \
  -- tree "$mini" --env native --check conformance --series "$series/0001-chacha-whole-blocks.patch" --out "$tmp/run"
check grep -q 'applied 0001-chacha-whole-blocks.patch: lib/crypto: x86/chacha: advance the counter by whole blocks' \
  <<< "$out"
check grep -q 'same  sha256/linux:sha256 .*the series touches none of its files' <<< "$out"
# The seed-style table: the rebuilt module beside itself before the series,
# every kernel benchmark length, measured here (the figures are not judged).
check grep -q '### ChaCha20: chacha/linux:chacha before and after the series, MB/s' <<< "$out"
check grep -Eq '^\| 16384 \| [0-9.]+ \| [0-9.]+ \| [0-9.]+x \|$' <<< "$out"
expect 0 'series: 0 cells changed' \
  -- tree "$mini" --env native --check conformance --series "$series/comment.diff" --bench-time 0 --out "$tmp/run"
check_not grep -q 'before and after the series, MB/s' <<< "$out"
check python3 - "$tmp/run/matrix.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
rows = {r["backend"] for e in m["environments"] for r in e.get("matrix", {}).get("rows", [])}
# The series touches sha256.h only: the ChaCha module is the same after it.
want = {"sha256/linux:sha256", "sha256/linux:sha256.series", "chacha/linux:chacha"}
if rows != want:
    print("rows:", sorted(rows))
    sys.exit(1)
PY
check test "$sum_before" = "$(cat "$mini"/lib/crypto/x86/*.h | cksum)"
cd - > /dev/null
# A patch that does not apply, or is not there: usage errors naming it.
expect 2 'patch 2 of 2 \(stale.diff\) does not apply' \
  -- tree "$mini" --env native --series "$series/comment.diff" --series "$series/stale.diff"
expect 2 'no-such.patch: no such file' -- tree "$mini" --series "$tmp/no-such.patch"
# The series options as a user slips with them: the tree after --series is
# the tree; --bench-time needs a series and a time that can be measured.
# (and a series named relative to where lockstep runs)
expect 0 'series: 0 cells changed' \
  -- tree --series "$(realpath --relative-to=. "$series/comment.diff")" "$mini" --env native --check vectors \
  --bench-time 0 --out "$tmp/run"
expect 2 'bench-time requires --series' -- tree "$mini" --env native --bench-time 1 --out "$tmp/run"
expect 2 "'1e-9' is not a number of seconds with S = 0 or 0.001 <= S <= 60" \
  -- tree "$mini" --env native --series "$series/comment.diff" --bench-time 1e-9 --out "$tmp/run"
# A series after which the glue no longer compiles: every cell of that
# module is broken, and the run fails, saying so.
mkdir -p "$tmp/breaks/a/lib/crypto/x86" "$tmp/breaks/b/lib/crypto/x86"
cp "$mini/lib/crypto/x86/sha256.h" "$tmp/breaks/a/lib/crypto/x86/"
{ cat "$mini/lib/crypto/x86/sha256.h"; echo '#error a series that breaks the build'; } > "$tmp/breaks/b/lib/crypto/x86/sha256.h"
(cd "$tmp/breaks" && diff -u a/lib/crypto/x86/sha256.h b/lib/crypto/x86/sha256.h) > "$tmp/breaks-build.diff"
check grep -q '^+#error' "$tmp/breaks-build.diff"
expect 1 'the series breaks the build of sha256/linux:sha256' \
  -- tree "$mini" --env native --check vectors --series "$tmp/breaks-build.diff" --bench-time 0 --out "$tmp/run"
check grep -q 'the series breaks its build' "$tmp/run/matrix.json"
# The folder git format-patch --cover-letter writes: its cover letter is
# no patch, and no error.
mkdir -p "$tmp/with-cover"
cp "$series/comment.diff" "$tmp/with-cover/0001-comment.patch"
printf 'From 0 Mon Sep 17 00:00:00 2001\nFrom: A <a@example.org>\nSubject: [PATCH 0/1] a comment\n\nWhy.\n' \
  > "$tmp/with-cover/0000-cover-letter.patch"
expect 0 'series: 0 cells changed' \
  -- tree "$mini" --env native --check vectors --series "$tmp/with-cover" --bench-time 0 --out "$tmp/run"
mkdir -p "$tmp/no-patches"
expect 2 'holds no \*.patch' -- tree "$mini" --series "$tmp/no-patches"

# Not a tree at all: usage errors.
expect 1 'no-such-dir: no such file or directory' -- tree "$tmp/no-such-dir"
mkdir "$tmp/empty"
expect 2 'holds none of the files the recipes know' -- tree "$tmp/empty"
expect 2 'holds none of the files' -- tree "$mini/lib"

exit $fail
