#!/bin/bash -eu
# Builds lockstep's libFuzzer targets the OSS-Fuzz way: the compilers and
# flags come from $CC $CXX $CFLAGS $CXXFLAGS, the engine from
# $LIB_FUZZING_ENGINE, and every fuzzer lands in $OUT with its
# <fuzzer>.dict, <fuzzer>.options and <fuzzer>_seed_corpus.zip.
# The oracle libraries are linked statically: the runner image has none.
src=${LOCKSTEP_SRC:-$SRC/lockstep}
build=${WORK:-/tmp}/lockstep-ossfuzz

cmake -S "$src" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DLOCKSTEP_LIBFUZZER=ON -DLOCKSTEP_FUZZING_ENGINE="$LIB_FUZZING_ENGINE" \
  -DLOCKSTEP_STATIC_ORACLE=ON -DLOCKSTEP_SUITES=OFF
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
