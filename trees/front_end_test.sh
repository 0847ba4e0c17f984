#!/usr/bin/env bash
# front_end_test.sh LOCKSTEP [--native-only]: the current layout through its
# own library front end and KUnit suites. The miniature tree
# (trees/testdata/linux-mini) with the library of trees/testdata/linux-mini-lib
# over it: lib/crypto/sha256.c built with the glue, its library API as rows
# (hash driver, HMAC with prepared keys, the 2-way finup and its fallback),
# its KUnit suites as the kunit column in KTAP; then copies with one planted
# defect each, every one caught, and by which column.
set -uo pipefail
cli=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=test_helpers.sh
source "$here/test_helpers.sh"
tree=$tmp/tree
cp -r "$here/testdata/linux-mini" "$tree"
cp -r "$here/testdata/linux-mini-lib/." "$tree"

# rows_pass MATRIX ENV: every cell of the front end's two rows is a PASS
# (isa skips a glue, residue may warn: the miniature promises no wiping;
# huge and ct skip under QEMU and sanitizers), their kunit cells included.
rows_pass() {
  python3 - "$1" "$2" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
rows = {r["backend"]: r for e in m["environments"] if e["id"] == sys.argv[2]
        for r in e.get("matrix", {}).get("rows", []) if r["backend"].startswith("sha256/linux:sha256")}
ok = set(rows) == {"sha256/linux:sha256", "sha256/linux:sha256:sha224"}
for name, r in rows.items():
    for col, c in r["checks"].items():
        fine = c["status"] == "PASS" or (col, c["status"]) in (
            ("isa", "SKIP"), ("residue", "WARN"), ("residue", "SKIP"), ("ct", "SKIP"), ("huge", "SKIP"))
        if not fine or (col == "kunit" and c["status"] != "PASS"):
            print(name, col, c)
            ok = False
sys.exit(0 if ok else 1)
PY
}

# The front ends over the glue, SHA-256's with both KUnit suites.
expect 0 'built sha256/linux:sha256 +lib/crypto/sha256.c over lib/crypto/x86/sha256.h \+ 4 sources, with 2 KUnit suites' \
  -- tree "$tree" --env native --out "$tmp/run"
check grep -qE 'built chacha/linux:chacha +lib/crypto/chacha.c over lib/crypto/x86/chacha.h \+ 3 sources' <<< "$out"
check rows_pass "$tmp/run/matrix.json" native
module=$(grep -oE '/[^ ]*/sha256-linux-sha256\.front-end\.so' <<< "$out" | head -n 1)
# ChaCha through chacha_crypt() and hchacha_block(), and XChaCha composed
# of them as the kernel's users compose it: every cell that applies passes.
check python3 - "$tmp/run/matrix.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
cells = {(r["backend"], col): c["status"] for e in m["environments"] for r in e.get("matrix", {}).get("rows", [])
         if r["backend"].startswith("chacha/linux:chacha") for col, c in r["checks"].items()}
want = {("chacha/linux:chacha", "conformance"), ("chacha/linux:chacha", "fuzz"),
        ("chacha/linux:chacha:xchacha20", "conformance"), ("chacha/linux:chacha:xchacha12", "conformance")}
bad = {k: v for k, v in cells.items() if v == "FAIL" or (k in want and v != "PASS")}
if bad or not want <= set(cells):
    print("chacha cells:", bad or sorted(cells))
    sys.exit(1)
PY
# The library's own init ran the glue's, as at boot.
check grep -q 'kernel selected: sha256-linux-sha256.front-end.so: static_call mini_sha256_path' <<< "$out"
# KTAP, one document per environment, as the kernel prints its suites.
ktap=$tmp/run/native/kunit.ktap
check grep -qF "kunit: 2 suite(s) in KTAP, $ktap" <<< "$out"
check grep -qx 'KTAP version 1' "$ktap"
check grep -qx '1\.\.2' "$ktap"
check grep -qx '    # Subtest: sha256' "$ktap"
check grep -qx '        ok 3 448-bit' "$ktap"
check grep -qx '    ok 6 benchmark_sha256 # SKIP not enabled' "$ktap"
check grep -qx '# sha256: pass:5 fail:0 skip:1 total:6' "$ktap"
check grep -qx 'ok 2 sha256' "$ktap"
# The kunit cell says what ran, its SKIPs with their reasons.
check grep -q 'KUnit suite sha256 (lib/crypto/tests/sha256_kunit.c): 5 passed, 0 failed, 1 skipped (benchmark_sha256: not enabled)' \
  "$tmp/run/matrix.json"

# `lockstep list` says what the module's rows offer beside their function.
check test -f "$module"
expect 0 'sha256/linux:sha256 is from module .*; it offers hash driver, HMAC with prepared keys, KUnit suite sha256 \(lib/crypto/tests/sha256_kunit.c\)' \
  -- list --module "$module"

# The same suites where SIMD is never usable (the glue's fallback), and on
# an older CPU model, where the glue selects another path.
expect 0 'cells: [0-9]+ passed, 0 failed' \
  -- tree "$tree" --env simd-unusable --backend 'sha256/*' --check conformance --check kunit --out "$tmp/run"
if [ "${2-}" != --native-only ]; then
  expect 0 'static_call mini_sha256_path = mini_sha256_avx' \
    -- tree "$tree" --env 'qemu-x86_64-Haswell,-bmi2' --backend 'sha256/*' --check conformance --check kunit \
    --out "$tmp/run"
  check rows_pass "$tmp/run/matrix.json" 'qemu-x86_64-Haswell,-bmi2'
fi

# plant COPY FILE SED: a copy of the tree with one line changed, checked.
plant() {
  cp -r "$tree" "$tmp/$1"
  sed -i "$3" "$tmp/$1/$2"
  check_not cmp -s "$tree/$2" "$tmp/$1/$2"
}

# 1. The 2-way finup's fallback finishes only the whole blocks of the
# second message: caught by conformance (the 2-way finup at every length)
# and by the tree's own KUnit case.
plant finup-fallback lib/crypto/sha256.c \
  's|__sha256_update(&mut_ctx, data2, len);|__sha256_update(\&mut_ctx, data2, len \& ~(size_t)63);|'
expect 1 'sha256 @ sha256/linux:sha256 \[conformance\]: [0-9]+ of [0-9]+ failed, first All/Finup2xConformance' \
  -- tree "$tmp/finup-fallback" --env native --backend 'sha256/*' --check conformance --check kunit --out "$tmp/run"
check grep -qE 'sha256 @ sha256/linux:sha256 \[kunit\]: 1 of 1 failed' <<< "$out"
check grep -q 'KUnit case sha256.test_sha256_finup_2x' "$tmp"/run/native/conformance-*.log

# 2. The one-call HMAC writes its context's state back into the prepared
# key (zeroed by the final): the key's next use is wrong. Caught by
# conformance's MAC driver, and by the tree's KUnit case.
plant hmac-key lib/crypto/sha256.c \
  '/^\thmac_sha256_final(&ctx, out);$/a\\t((struct hmac_sha256_key *)key)->key.ostate = ctx.ctx.ostate;'
expect 1 'sha256 @ sha256/linux:sha256 \[conformance\]: [0-9]+ of [0-9]+ failed, first All/MacDriverConformance.PreparedKeyManyMessages' \
  -- tree "$tmp/hmac-key" --env native --backend 'sha256/*' --check conformance --check kunit --out "$tmp/run"
check grep -qE 'sha256 @ sha256/linux:sha256 \[kunit\]: 1 of 1 failed' <<< "$out"
check grep -q 'using the prepared key changed it' "$tmp"/run/native/conformance-*.log
check grep -q 'KUnit case sha256.test_hmac_sha256' "$tmp"/run/native/conformance-*.log

# 3. A broken backend: the glue's SIMD path drops the last block of a call
# of more than eight. The tree's own KUnit case (pieces against one call)
# fails, in KTAP as the kernel would print it.
plant long-call lib/crypto/x86/sha256.h \
  's|static_call(mini_sha256_path)(state, data, n);|static_call(mini_sha256_path)(state, data, n - (n > 8));|'
expect 1 'sha256 @ sha256/linux:sha256 \[kunit\]: 1 of 1 failed' \
  -- tree "$tmp/long-call" --env native --backend 'sha256/*' --check kunit --out "$tmp/run"
check grep -qx '    not ok 2 test_sha256_pieces' "$tmp/run/native/kunit.ktap"
check grep -qE '^not ok [12] sha256$' "$tmp/run/native/kunit.ktap"
check grep -q '# test_sha256_pieces: ASSERTION FAILED at lib/crypto/tests/sha256_kunit.c' "$tmp/run/native/kunit.ktap"

# 4. The library's hchacha_block() always takes 20 rounds: XChaCha12 as
# users compose it is wrong, XChaCha20 right. Caught by conformance.
plant hchacha-rounds lib/crypto/chacha.c 's|hchacha_block_arch(state, out, nrounds);|hchacha_block_arch(state, out, 20);|'
expect 1 'xchacha20 @ chacha/linux:chacha:xchacha12 \[conformance\]: [0-9]+ of [0-9]+ failed, first All/CipherDriverConformance' \
  -- tree "$tmp/hchacha-rounds" --env native --backend 'chacha/*' --check conformance --out "$tmp/run"
check grep -qE 'xchacha20 @ chacha/linux:chacha:xchacha20 +PASS' <<< "$out"

# A KUnit file that does not build: the front end without the suites, and
# a SKIP that says why; a front end that does not build: the glue alone.
plant kunit-broken lib/crypto/tests/sha224_kunit.c 's|^static void test_hmac_sha224|not C; static void test_hmac_sha224|'
expect 0 'SKIP  sha256/linux:sha256:kunit +its KUnit suites do not build' \
  -- tree "$tmp/kunit-broken" --env native --backend 'sha256/*' --check kunit --out "$tmp/run"
check grep -q 'no KUnit suite' "$tmp/run/matrix.json"
plant front-end-broken lib/crypto/sha256.c 's|^void sha224_init|not C; void sha224_init|'
expect 0 'SKIP  sha256/linux:sha256:front-end +the library front end lib/crypto/sha256.c: does not build' \
  -- tree "$tmp/front-end-broken" --env native --backend 'sha256/*' --check conformance --out "$tmp/run"
check grep -qE 'built sha256/linux:sha256 +lib/crypto/x86/sha256.h \+ 4 sources' <<< "$out"

exit $fail
