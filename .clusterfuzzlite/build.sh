#!/bin/bash -eu
# Builds lockstep's libFuzzer targets the way OSS-Fuzz and ClusterFuzzLite
# do: the compilers and flags come from $CC $CXX $CFLAGS $CXXFLAGS (clang,
# -stdlib=libc++, the sanitizer's flags), the engine from
# $LIB_FUZZING_ENGINE, and every fuzzer lands in $OUT with its
# <fuzzer>.dict, <fuzzer>.options and <fuzzer>_seed_corpus.zip.
#
# Nothing prebuilt goes into a fuzzer: the oracle, Crypto++, is compiled
# here from its pinned source ($SRC/cryptopp.tar.gz, which the Dockerfile
# fetches with fetch-cryptopp) with the same compiler, standard library and
# optimisation, without the sanitizer's instrumentation (below); OpenSSL, the
# oracle's second opinion elsewhere, is left out;
# fmt and nlohmann/json are used header-only.
set -euo pipefail  # also when run as `bash build.sh`, which ignores the #! flags
src=${LOCKSTEP_SRC:-$SRC/lockstep}
work=${WORK:-/tmp}
build=$work/lockstep-ossfuzz
tarball=${LOCKSTEP_CRYPTOPP_TARBALL:-$SRC/cryptopp.tar.gz}
jobs=$(nproc)

# --- Crypto++ -----------------------------------------------------------
# LOCKSTEP_CRYPTOPP_DIR: where Crypto++ is built, or found already built
# for the same compiler and flags (fuzz/ossfuzz_build_test.sh shares one
# between its sanitizer runs).
cryptopp=${LOCKSTEP_CRYPTOPP_DIR:-$work/lockstep-cryptopp}
want=$(sed -n 's/^sha256=//p' "$src/.clusterfuzzlite/cryptopp.pin")
got=$(sha256sum "$tarball" | cut -d' ' -f1)
if [ "$got" != "$want" ]; then
  echo "build.sh: $tarball: SHA-256 $got, pinned $want (.clusterfuzzlite/cryptopp.pin)" >&2
  exit 1
fi
# Crypto++ is the oracle, not the code under test: it is built without the
# sanitizer's instrumentation and without coverage, so that every report and
# the coverage are lockstep's own, and one build serves every sanitizer.
# MemorySanitizer is the exception: it needs every line instrumented, and
# sees no store an asm block makes, so portable code only.
cryptopp_flags="-DNDEBUG"
for f in $CXXFLAGS; do
  case $f in
    -fsanitize*|-fno-sanitize*|-fprofile-instr-generate|-fcoverage-mapping)
      [ "${SANITIZER:-}" = memory ] || continue ;;
  esac
  cryptopp_flags="$cryptopp_flags $f"
done
if [ "${SANITIZER:-}" = memory ]; then
  cryptopp_flags="$cryptopp_flags -DCRYPTOPP_DISABLE_ASM"
fi
# The Crypto++ sources the fuzzers link (from the linker's map): a fifth of
# the library, and of its build time. One the oracle starts to need fails
# the link naming its symbol; add its file here.
cryptopp_sources="algparam allocate asn basecode chacha chacha_avx chacha_simd cpu cryptlib dll ec2n ecp
  filters fips140 gf2n gf2n_simd gfpcrypt hex hmac hrtimer integer iterhash misc modes mqueue nbtheory oaep
  osrng pubkey queue randpool rdtables rijndael rijndael_simd rng sha sha_simd sse_simd"
srcs=$(printf '%s.cpp ' $cryptopp_sources)
stamp="$CXX $cryptopp_flags $want $srcs"
if [ "$(cat "$cryptopp/stamp" 2>/dev/null)" != "$stamp" ]; then
  rm -rf "$cryptopp"
  mkdir -p "$cryptopp/src" "$cryptopp/include/cryptopp" "$cryptopp/lib/pkgconfig"
  tar -xzf "$tarball" -C "$cryptopp/src" --strip-components=1
  (cd "$cryptopp/src" && CXX="$CXX" CXXFLAGS="$cryptopp_flags" make -j"$jobs" static SRCS="$srcs" >/dev/null)
  cp "$cryptopp/src"/*.h "$cryptopp/include/cryptopp/"
  cp "$cryptopp/src/libcryptopp.a" "$cryptopp/lib/"
  # Under the name Debian's package uses, which cmake/Dependencies.cmake asks for.
  cat > "$cryptopp/lib/pkgconfig/libcrypto++.pc" <<EOF
prefix=$cryptopp
Name: libcrypto++
Description: Crypto++ built for lockstep's fuzzers
Version: 8.7.0
Cflags: -I\${prefix}/include
Libs: -L\${prefix}/lib -lcryptopp
EOF
  echo "$stamp" > "$cryptopp/stamp"
fi

# --- lockstep's fuzzers ---------------------------------------------------
export PKG_CONFIG_PATH=$cryptopp/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
cmake -S "$src" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DLOCKSTEP_LIBFUZZER=ON -DLOCKSTEP_FUZZING_ENGINE="$LIB_FUZZING_ENGINE" \
  -DLOCKSTEP_STATIC_ORACLE=ON -DLOCKSTEP_ORACLE_OPENSSL=OFF -DLOCKSTEP_SUITES=OFF \
  -DLOCKSTEP_CRYPTOPP_ARCHIVE="$cryptopp/lib/libcryptopp.a" >/dev/null
names=$(cat "$build/fuzzers.txt")
cmake --build "$build" --target $(printf 'fuzz_%s ' $names)

for name in $names; do
  f=fuzz_$name
  cp "$build/fuzz/$f" "$OUT/$f"
  cp "$src/fuzz/$f.dict" "$OUT/$f.dict"
  cp "$src/fuzz/$f.options" "$OUT/$f.options"
  rm -f "$OUT/${f}_seed_corpus.zip"
  (cd "$src/fuzz/corpus/$name" && python3 -m zipfile -c "$OUT/${f}_seed_corpus.zip" .)
done
