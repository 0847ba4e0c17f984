#!/usr/bin/env bash
# crypto_api_test.sh LOCKSTEP: `lockstep tree` on the miniature of the older
# layout through its own glue (testdata/linux-mini-api), natively: the
# glue's init registers its drivers by the CPU, each driver is a row, the
# kernel's selection is the highest priority (shash and skcipher); and copies of it made wrong,
# each a clear verdict: a glue that registers nothing, an init that fails,
# a driver name registered twice, two drivers of equal priority, an init
# that crashes (the other modules still run), a tree of two layouts.
set -uo pipefail
cli=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
mini=$here/testdata/linux-mini-api
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=test_helpers.sh
source "$here/test_helpers.sh"
glue=arch/x86/crypto/sha256_ssse3_glue.c
api='sha256/linux-api:*'

# A copy of the miniature with one edit to its glue: variant NAME OLD NEW.
variant() {
  rm -rf "$tmp/$1"
  cp -r "$mini" "$tmp/$1"
  python3 - "$tmp/$1/$glue" "$2" "$3" <<'PY'
import sys
path, old, new = sys.argv[1:]
s = open(path).read()
assert old in s, old
open(path, "w").write(s.replace(old, new))
PY
}

# Without SHA-NI, the AVX2 drivers are the kernel's choice; the SHA-NI ones
# are rows that say the init did not register them here.
LOCKSTEP_CPU=-sha_ni expect 0 'crypto_alloc_shash\("sha256"\) = sha256-avx2 \(priority 170\)' \
  -- tree "$mini" --env native --backend "$api" --check conformance --out "$tmp/run"
check grep -qE 'sha256 @ sha256/linux-api:sha256-ssse3:sha256-ni +SKIP\(sha256-ssse3.s init did not register sha256-ni on this CPU\)' <<< "$out"
check grep -qE 'sha224 @ sha256/linux-api:sha256-ssse3:sha224-avx2 +PASS' <<< "$out"
check grep -qE 'built sha256/linux-api:sha256-ssse3 +arch/x86/crypto/sha256_ssse3_glue.c' <<< "$out"
# A sha224 driver runs its sha256 twin's update, final, finup and digest:
# the huge column's 2 GiB call goes through that one only, and says so.
expect 0 'sha224 @ sha256/linux-api:sha256-ssse3:sha224-ni +PASS' \
  -- tree "$mini" --env native --backend 'sha256/linux-api:*-ni' --check huge --verbose --out "$tmp/run"
check grep -qE "SKIP WHY \] not applicable: its driver runs sha256/linux-api:sha256-ssse3:sha256-ni's code" <<< "$out"
check grep -qE 'OK \] All/DriverHugeCall.OneDigestPast2To31Bytes/sha256_linux_api_sha256_ssse3_sha256_ni' <<< "$out"
# The ChaCha module registers its skciphers where it has SSSE3; its
# library row is there everywhere, on the generic code without SSSE3 (the
# XChaCha skcipher rows list the same on every CPU, loaded or not).
expect 0 'crypto_alloc_skcipher\("chacha20"\) = chacha20-simd \(priority 300\)' \
  -- tree "$mini" --env native --backend 'chacha/linux-api:*' --check conformance --out "$tmp/run"
check grep -qE 'chacha20 @ chacha/linux-api:chacha-x86_64:chacha20-simd +PASS' <<< "$out"
check grep -qE 'xchacha20 @ chacha/linux-api:chacha-x86_64:xchacha20-simd +PASS' <<< "$out"
check grep -qE 'xchacha20 @ chacha/linux-api:chacha-x86_64:xchacha12-simd +PASS' <<< "$out"
LOCKSTEP_CPU=-ssse3,-avx,-avx2 expect 0 'chacha20 @ chacha/linux-api:chacha-x86_64:chacha_crypt_arch +PASS' \
  -- tree "$mini" --env native --backend 'chacha/linux-api:*' --check conformance --out "$tmp/run"
check grep -qE "chacha20 @ chacha/linux-api:chacha-x86_64:chacha20-simd +SKIP\(chacha-x86_64's init did not register chacha20-simd on this CPU\)" <<< "$out"
check grep -qE "xchacha20 @ chacha/linux-api:chacha-x86_64:xchacha20-simd +SKIP\(chacha-x86_64's init did not register" <<< "$out"

# Where SIMD alternates, the glue's generic path runs outside its
# kernel_fpu sections: their length is judged natively, not by an average
# over a call that is half generic (which WARNed by the alternation's phase).
expect 0 'chacha20 @ chacha/linux-api:chacha-x86_64:chacha20-simd +PASS' \
  -- tree "$mini" --env simd-alternate --backend 'chacha/linux-api:*chacha20-simd' --check abi --out "$tmp/run"

# An XChaCha12 glue that derives its key with 20 rounds: the xchacha12
# driver fails conformance (the whole-message cipher's tests), and the
# xchacha20 one, whose code is right, passes.
rm -rf "$tmp/x12"
cp -r "$mini" "$tmp/x12"
sed -i 's/hchacha_block_arch(state, subctx.key, ctx->nrounds);/hchacha_block_arch(state, subctx.key, 20);/' \
  "$tmp/x12/arch/x86/crypto/chacha_glue.c"
check grep -q 'subctx.key, 20);' "$tmp/x12/arch/x86/crypto/chacha_glue.c"
expect 1 'xchacha20 @ chacha/linux-api:chacha-x86_64:xchacha12-simd +FAIL' \
  -- tree "$tmp/x12" --env native --backend 'chacha/linux-api:*xchacha*' --check conformance --out "$tmp/run"
check grep -qE 'xchacha20 @ chacha/linux-api:chacha-x86_64:xchacha20-simd +PASS' <<< "$out"
check grep -qE 'CipherDriverConformance.EveryLengthApartAndInPlace/xchacha20_linux_api_chacha_x86_64_xchacha12_simd' <<< "$out"

# `lockstep list` on the module: the XChaCha rows run through their driver
# only, a driver the init did not register says so.
expect 0 'xchacha20-simd' -- tree "$mini" --env native --backend 'chacha/linux-api:*xchacha20*' --check conformance \
  --verbose --out "$tmp/run"
chacha_so=$(grep -oE '/[^ ]*chacha-linux-api-chacha-x86_64\.so' <<< "$out" | head -1)
check test -f "$chacha_so"
expect 0 'xchacha12-simd +- +yes, through its whole-message cipher driver only' -- list --module "$chacha_so"
LOCKSTEP_CPU=-ssse3,-avx,-avx2 expect 0 \
  "chacha20-simd +- +no: chacha-x86_64's init did not register chacha20-simd on this CPU" -- list --module "$chacha_so"

# A skcipher that refuses the key: its row fails, naming the call and errno.
rm -rf "$tmp/nokey"
cp -r "$mini" "$tmp/nokey"
sed -i 's/\.setkey\t\t\t= chacha20_setkey,/.setkey\t\t\t= mini_refuse_key,/' "$tmp/nokey/arch/x86/crypto/chacha_glue.c"
sed -i 's/^static struct skcipher_alg algs\[\] = {$/static int mini_refuse_key(struct crypto_skcipher *tfm, const u8 *key, unsigned int len) { return -EINVAL; }\n&/' \
  "$tmp/nokey/arch/x86/crypto/chacha_glue.c"
check grep -q 'mini_refuse_key(struct' "$tmp/nokey/arch/x86/crypto/chacha_glue.c"
expect 1 'chacha20 @ chacha/linux-api:chacha-x86_64:chacha20-simd +FAIL' \
  -- tree "$tmp/nokey" --env native --backend 'chacha/linux-api:*' --check conformance --out "$tmp/run"
check grep -rqs 'chacha20-simd: setkey returned -EINVAL' "$tmp/run/native"

# Without SSSE3 the module's x86_match_cpu() still finds AVX; without any
# of its features the kernel does not load it at all.
LOCKSTEP_CPU=-ssse3,-avx,-avx2,-sha_ni expect 0 'sha256-ssse3 is not loaded here: its init returned -ENODEV' \
  -- tree "$mini" --env native --backend "$api" --check conformance --out "$tmp/run"

# A glue that registers nothing: its module's row fails, named.
variant none '	return usable ? crypto_register_shashes(algs, 2) : 0;' '	return 0;'
expect 1 "sha256/linux-api:sha256-ssse3:module_init +FAIL" -- tree "$tmp/none" --env native --backend "$api" --check conformance --out "$tmp/run"
check grep -q "registers no driver, even on a CPU with every feature" <<< "$out"

# An init that fails: the errno, and the module's row fails.
variant fails '	err = mini_register(sha256_avx_algs, avx_usable());' '	err = -EINVAL;'
expect 1 "registers no driver, even on a CPU with every feature \(it returned -EINVAL\)" \
  -- tree "$tmp/fails" --env native --backend "$api" --check conformance --out "$tmp/run"

# A driver name registered twice: the kernel's -EEXIST, named.
variant twice '		.cra_driver_name = "sha224-" #isa,' '		.cra_driver_name = "sha256-" #isa,'
expect 1 'it returned -EEXIST: crypto_register_shash: sha256-ssse3 has the name of a registered driver' \
  -- tree "$tmp/twice" --env native --backend "$api" --check conformance --out "$tmp/run"

# Two drivers of equal priority: both rows pass, and the selection says
# which one the kernel returns depends on the order of registration.
variant equal 'MINI_DRIVERS(avx, sha256_transform_avx, 160);' 'MINI_DRIVERS(avx, sha256_transform_avx, 150);'
LOCKSTEP_CPU=-sha_ni,-avx2 expect 0 'crypto_alloc_shash\("sha256"\) = sha256-ssse3, sha256-avx \(priority 150\): equal priorities' \
  -- tree "$tmp/equal" --env native --backend "$api" --check conformance --out "$tmp/run"

# An init that crashes: its row fails, the tree's other modules still run.
variant crash '	if (!x86_match_cpu(module_cpu_ids))' '	*(volatile int *)0 = 1;
	if (!x86_match_cpu(module_cpu_ids))'
expect 1 "sha256-ssse3's init crashed \(SIGSEGV\) on a CPU with every feature" \
  -- tree "$tmp/crash" --env native --check conformance --out "$tmp/run"
check grep -qE 'sha256 @ sha256/linux-arch:x86-ssse3 +PASS' <<< "$out"

# Two layouts in one tree: refused before anything is built, naming both.
rm -rf "$tmp/mixed"
cp -r "$mini" "$tmp/mixed"
mkdir -p "$tmp/mixed/lib/crypto/x86"
cp "$here/testdata/linux-mini/lib/crypto/x86/sha256.h" "$tmp/mixed/lib/crypto/x86/"
expect 2 'mixes two layouts: .*recipe linux-(arch|crypto).*Linux up to 6.16.* and lib/crypto/x86/sha256.h \(recipe linux-lib-crypto: Linux 6.17 and later\)' \
  -- tree "$tmp/mixed" --env native --out "$tmp/run"
check_not test -e "$tmp/mixed/build"

exit $fail
