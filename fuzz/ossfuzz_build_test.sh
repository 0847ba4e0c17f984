#!/usr/bin/env bash
# Runs .clusterfuzzlite/build.sh as OSS-Fuzz would, with clang-19 and
# libFuzzer, then checks what it wrote to $OUT: every fuzzer with its
# dictionary, options and seed corpus zip, and that each fuzzer runs.
set -euo pipefail
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src" "$tmp/out" "$tmp/work"
ln -s "$src" "$tmp/src/lockstep"

export SRC=$tmp/src OUT=$tmp/out WORK=$tmp/work
export CC=clang-19 CXX=clang++-19
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
export CXXFLAGS="$CFLAGS"
export LIB_FUZZING_ENGINE=-fsanitize=fuzzer
bash "$src/.clusterfuzzlite/build.sh" > "$tmp/build.log" 2>&1 || { tail -n 40 "$tmp/build.log"; exit 1; }

fail=0
names=$(cat "$WORK/lockstep-ossfuzz/fuzzers.txt")
[ -n "$names" ] || { echo "build.sh built no fuzzer"; exit 1; }
for name in $names; do
  f=fuzz_$name
  for file in "$f" "$f.dict" "$f.options" "${f}_seed_corpus.zip"; do
    [ -s "$OUT/$file" ] || { echo "missing or empty: \$OUT/$file"; fail=1; }
  done
  [ -x "$OUT/$f" ] || { echo "\$OUT/$f is not executable"; fail=1; }
  # The runner image has no Crypto++, OpenSSL or fmt: they must be inside.
  if ldd "$OUT/$f" | grep -Eq 'libcrypto|libfmt'; then
    echo "$f links shared oracle libraries:"; ldd "$OUT/$f" | grep -E 'libcrypto|libfmt'; fail=1
  fi
  seeds=$(python3 -c 'import sys, zipfile; print(len(zipfile.ZipFile(sys.argv[1]).namelist()))' "$OUT/${f}_seed_corpus.zip")
  want=$(find "$src/fuzz/corpus/$name" -type f | wc -l)
  [ "$seeds" = "$want" ] || { echo "$f: seed corpus zip has $seeds files, the corpus $want"; fail=1; }
  # The fuzzer runs its seeds and a few hundred more inputs, with its options.
  mkdir -p "$tmp/seeds-$name"
  (cd "$tmp/seeds-$name" && python3 -m zipfile -e "$OUT/${f}_seed_corpus.zip" .)
  if ! (cd "$OUT" && "./$f" -runs=500 -dict="$f.dict" "$tmp/seeds-$name" > "$tmp/run-$name.log" 2>&1); then
    tail -n 20 "$tmp/run-$name.log"; echo "$f failed to run"; fail=1
  fi
  echo "$f: binary, dict, options, $seeds seeds: ok"
done
exit $fail
