#!/usr/bin/env bash
# ossfuzz_build_test.sh SRC SANITIZER [CACHE]: the OSS-Fuzz / ClusterFuzzLite
# builder, reproduced locally. Runs .clusterfuzzlite/build.sh under the
# engine's variables for SANITIZER (address, undefined or coverage): clang-19,
# -stdlib=libc++ (Debian's libc++-19-dev), the engine's flags, and Crypto++
# from its pinned source (fetched into CACHE once, and built there once for
# every sanitizer: build.sh leaves the oracle uninstrumented). Then checks
# what $OUT holds: each fuzzer with its dictionary, options libFuzzer accepts, and
# seed corpus zip; no shared oracle library and no libstdc++ inside; each
# fuzzer run over its seeds. With address, the planted defects of
# modules/teeth must be found by these binaries too, and a crash file given
# as the argument must reproduce with the lockstep signature first.
set -euo pipefail
src=$(cd "$1" && pwd -P) sanitizer=$2
cache=${3:-$PWD/ossfuzz-cache}
start=$SECONDS

tarball=$cache/cryptopp.tar.gz
rc=0
"$src/.clusterfuzzlite/fetch-cryptopp" "$tarball" || rc=$?
if [ $rc -eq 3 ]; then
  echo "SKIP: the pinned Crypto++ source cannot be downloaded here (.clusterfuzzlite/cryptopp.pin)"
  exit 77
fi
[ $rc -eq 0 ] || exit 1

# The engine's flags (its base-builder image), for this sanitizer.
common="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
ubsan_checks=array-bounds,bool,builtin,enum,float-divide-by-zero,function,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unreachable,vla-bound,vptr
case $sanitizer in
  address) flags="-fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link" ;;
  undefined) flags="-fsanitize=$ubsan_checks,unsigned-integer-overflow -fno-sanitize-recover=$ubsan_checks -fsanitize=fuzzer-no-link" ;;
  coverage) flags="-fprofile-instr-generate -fcoverage-mapping -pthread -Wl,--no-as-needed -Wl,-ldl -Wl,-lm -Wno-unused-command-line-argument" ;;
  *) echo "usage: $0 SRC address|undefined|coverage [CACHE]" >&2; exit 2 ;;
esac
# As the engine runs them: unsigned wrap-around is how hashes compute.
export UBSAN_OPTIONS=silence_unsigned_overflow=1:print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS=detect_leaks=1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The coverage build's runs write their profiles there, not into the tree.
export LLVM_PROFILE_FILE=$tmp/profiles/%p.profraw
mkdir -p "$tmp/src" "$tmp/out"
ln -s "$src" "$tmp/src/lockstep"
export SRC=$tmp/src OUT=$tmp/out WORK=$cache/work-$sanitizer SANITIZER=$sanitizer
export CC=clang-19 CXX=clang++-19
export CFLAGS="$common $flags"
export CXXFLAGS="$common $flags -stdlib=libc++"
# Debian's libFuzzer (libclang-rt-19-dev) is built against libstdc++; the
# engine's carries a private libc++. So here, and only here, libstdc++ is
# linked for libFuzzer's own use; the objects of lockstep and Crypto++ are
# checked below to hold libc++ code alone.
export LIB_FUZZING_ENGINE="-fsanitize=fuzzer -Wl,--push-state,--no-as-needed,-lstdc++,--pop-state"
export LOCKSTEP_SRC=$src
export LOCKSTEP_CRYPTOPP_TARBALL=$tarball
# One Crypto++ for the three sanitizers: build.sh builds it uninstrumented.
export LOCKSTEP_CRYPTOPP_DIR=$cache/cryptopp
mkdir -p "$WORK"
echo "engine build: $CXX, libc++, SANITIZER=$sanitizer"
echo "CXXFLAGS=$CXXFLAGS"
bash "$src/.clusterfuzzlite/build.sh" > "$tmp/build.log" 2>&1 || { tail -n 40 "$tmp/build.log"; exit 1; }
echo "build.sh: $((SECONDS - start)) s (Crypto++ included unless already built in $LOCKSTEP_CRYPTOPP_DIR)"

fail=0
# Everything compiled into the fuzzers, lockstep's archives and Crypto++'s,
# is libc++ code: no libstdc++ (std::__cxx11) symbol in any of them.
symbols() { nm -C "$1" 2>/dev/null | grep -c "$2" || true; }  # all read: no SIGPIPE
for a in $(find "$WORK/lockstep-ossfuzz" -name '*.a') "$LOCKSTEP_CRYPTOPP_DIR/lib/libcryptopp.a"; do
  [ "$(symbols "$a" 'std::__cxx11::')" = 0 ] ||
    { echo "$a holds code built against libstdc++ (std::__cxx11 symbols)"; fail=1; }
done
[ "$(symbols "$LOCKSTEP_CRYPTOPP_DIR/lib/libcryptopp.a" 'std::__1::')" != 0 ] ||
  { echo "libcryptopp.a has no libc++ (std::__1) symbol: not built with -stdlib=libc++"; fail=1; }
names=$(cat "$WORK/lockstep-ossfuzz/fuzzers.txt")
[ -n "$names" ] || { echo "build.sh built no fuzzer"; exit 1; }
for name in $names; do
  f=fuzz_$name
  for file in "$f" "$f.dict" "$f.options" "${f}_seed_corpus.zip"; do
    [ -s "$OUT/$file" ] || { echo "missing or empty: \$OUT/$file"; fail=1; }
  done
  [ -x "$OUT/$f" ] || { echo "\$OUT/$f is not executable"; fail=1; continue; }
  # The runner image has no Crypto++, OpenSSL or fmt.
  if ldd "$OUT/$f" | grep -Eq 'libcrypto|libfmt'; then
    echo "$f links shared oracle libraries:"; ldd "$OUT/$f" | grep -E 'libcrypto|libfmt'; fail=1
  fi
  # Every option in <fuzzer>.options must be one libFuzzer knows.
  known=$("$OUT/$f" -help=1 2>&1 | awk '/^Flags:/ {on = 1; next} on && /^ [a-z_]+/ {print $1}')
  for key in $(sed -n 's/^\([a-z_]*\) *=.*/\1/p' "$OUT/$f.options"); do
    grep -qx "$key" <<< "$known" || { echo "$f.options: '$key' is no libFuzzer option"; fail=1; }
  done
  seeds=$(python3 -c 'import sys, zipfile; print(len(zipfile.ZipFile(sys.argv[1]).namelist()))' "$OUT/${f}_seed_corpus.zip")
  want=$(find "$src/fuzz/corpus/$name" -type f | wc -l)
  [ "$seeds" = "$want" ] || { echo "$f: seed corpus zip has $seeds files, the corpus $want"; fail=1; }
  # The seeds, then a few thousand more inputs, with the fuzzer's options.
  mkdir -p "$tmp/seeds-$name"
  (cd "$tmp/seeds-$name" && python3 -m zipfile -e "$OUT/${f}_seed_corpus.zip" .)
  t0=$SECONDS
  if ! (cd "$OUT" && "./$f" -runs=2000 -seed=1 -print_final_stats=1 -dict="$f.dict" "$tmp/seeds-$name" \
          > "$tmp/run-$name.log" 2>&1); then
    tail -n 20 "$tmp/run-$name.log"; echo "$f failed to run"; fail=1; continue
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/run-$name.log")
  size=$(stat -c %s "$OUT/$f")
  echo "$f: $seeds seeds, $execs executions in $((SECONDS - t0)) s, $((size / 1048576)) MiB; dict and options ok"
done

if [ "$sanitizer" = address ] && [ $fail -eq 0 ]; then
  # The planted backends, built here with the engine's flags, must be found
  # by these binaries as by the fuzz preset's (teeth/defects.txt).
  build=$WORK/lockstep-ossfuzz
  planted=(
    "chacha carry_word13" "chacha partial_counter" "chacha stale_overlap" "chacha overread_tail"
    "sha256 overread_tail" "sha512 overread_next_block" "sha256 second_lane" "sha256 pad_boundary"
    "sha512 pad_boundary" "sha256 bytecount32" "sha256 finup_writes_ctx")
  targets=()
  for p in "${planted[@]}"; do targets+=("lockstep_teeth_${p// /_}"); done
  cmake --build "$build" --target "${targets[@]}" > "$tmp/teeth.log" 2>&1 || { tail -n 20 "$tmp/teeth.log"; exit 1; }
  for p in "${planted[@]}"; do
    family=${p%% *} defect=${p#* }
    module=$(find "$build/modules" -name "liblockstep_teeth_${family}_${defect}.so" | head -n 1)
    impl="teeth:${defect//_/-}"
    art=$tmp/art-$family-$defect
    mkdir -p "$art"
    t0=$SECONDS
    if LOCKSTEP_MODULES=$module LOCKSTEP_FUZZ_BACKEND=$family/$impl \
       "$src/fuzz/expect_finding.sh" "$impl" "lockstep: [a-z0-9-]+/$impl != oracle|AddressSanitizer" \
       "$OUT/fuzz_$family" -seed=1 -runs=1000000 -max_total_time=60 -dict="$OUT/fuzz_$family.dict" \
       -artifact_prefix="$art/" "$tmp/seeds-$family" > "$tmp/teeth-$defect.log" 2>&1; then
      echo "planted $family/$impl: found in $((SECONDS - t0)) s"
    else
      tail -n 15 "$tmp/teeth-$defect.log"; echo "planted $family/$impl: NOT found"; fail=1; continue
    fi
    # The crash file alone, as the engine replays it: non-zero, and for a
    # mismatch the signature comes before anything else lockstep prints.
    crash=$(find "$art" -name 'crash-*' | head -n 1)
    [ -n "$crash" ] || { echo "planted $family/$impl: no crash file written"; fail=1; continue; }
    rc=0
    LOCKSTEP_MODULES=$module LOCKSTEP_FUZZ_BACKEND=$family/$impl "$OUT/fuzz_$family" "$crash" \
      > "$tmp/replay.log" 2>&1 || rc=$?
    first=$(grep -m1 -E '^lockstep|^==[0-9]+==ERROR' "$tmp/replay.log" || true)
    if [ $rc -eq 0 ]; then
      echo "planted $family/$impl: the crash file replays cleanly"; fail=1
    elif ! grep -Eq "^lockstep: [a-z0-9-]+/$impl != oracle|AddressSanitizer" <<< "$first"; then
      echo "planted $family/$impl: the replay's first report line is '$first'"; fail=1
    elif ! grep -q "^reproduce: LOCKSTEP_CPU=" "$tmp/replay.log"; then
      echo "planted $family/$impl: the replay prints no 'reproduce: LOCKSTEP_CPU=...' line"; fail=1
    fi
  done
fi
echo "ossfuzz_build_test ($sanitizer): $((SECONDS - start)) s"
exit $fail
