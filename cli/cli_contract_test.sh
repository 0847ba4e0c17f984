#!/usr/bin/env bash
# The CLI keeps its word: exit statuses (0 success, 1 a check failed or a
# file was wrong, 2 a usage error), errors that name what was wrong, on
# standard error, and nothing run counted as a pass.
#   cli_contract_test.sh LOCKSTEP SOURCE_DIR
set -uo pipefail
cli=$(realpath "$1")
src=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
failed() { echo "FAILED: $*"; fail=1; }
# run CMD...: runs it with stdout in $tmp/out, stderr in $tmp/err, the exit
# status in $rc.
run() { "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?; }
expect_rc() { [ "$rc" = "$1" ] || failed "$2: exit status $rc, expected $1 ($(head -c 300 "$tmp/err"))"; }
expect_err() { grep -qF -- "$1" "$tmp/err" || failed "$2: stderr lacks '$1': $(head -c 300 "$tmp/err")"; }
expect_out() { grep -qF -- "$1" "$tmp/out" || failed "$2: stdout lacks '$1'"; }
x86=false
[ "$(uname -m)" = x86_64 ] && x86=true

## Usage errors exit 2 with CLI11's message; --help exits 0.
run "$cli" hash --no-such-flag; expect_rc 2 "unknown flag"; expect_err "--no-such-flag" "unknown flag"
run "$cli" hash --alg md5 "$tmp"; expect_rc 2 "bad --alg"; expect_err "md5" "bad --alg"
run "$cli"; expect_rc 2 "no subcommand"; expect_err "subcommand" "no subcommand"
run "$cli" frobnicate; expect_rc 2 "unknown subcommand"; expect_err "frobnicate" "unknown subcommand"
run "$cli" fuzz --seconds 0; expect_rc 2 "fuzz --seconds 0"
run "$cli" --help; expect_rc 0 "--help"; expect_out "Usage" "--help"
run "$cli" vectors --help; expect_rc 0 "vectors --help"; expect_out "--allow-empty" "vectors --help"

## fuzz: an unknown harness is an error naming the known ones, and creates
## nothing; a lone existing directory is still a corpus.
mkdir "$tmp/cwd"
(cd "$tmp/cwd" && "$cli" fuzz nosuchharness --seconds 1 > "$tmp/out" 2> "$tmp/err"); rc=$?
expect_rc 2 "fuzz nosuchharness"
expect_err "unknown harness 'nosuchharness' (known: sha256, sha512, chacha, vectors)" "fuzz nosuchharness"
[ -z "$(ls -A "$tmp/cwd")" ] || failed "fuzz nosuchharness created $(ls -A "$tmp/cwd")"
run "$cli" fuzz sha256 a b; expect_rc 2 "fuzz with three arguments"
run "$cli" fuzz --help; expect_out "must be an existing directory" "fuzz --help states the rule"
mkdir "$tmp/corpus"
run "$cli" fuzz "$tmp/corpus" --seconds 1; expect_rc 0 "fuzz CORPUS_DIR"; expect_out "fuzz_sha256" "fuzz CORPUS_DIR"
# Without one, the corpus the run grows is the build's, not the source tree's.
had_src_corpus=false
[ -e "$src/corpus/sha256" ] && had_src_corpus=true
(cd "$tmp/cwd" && "$cli" fuzz sha256 --seconds 1 > "$tmp/out" 2> "$tmp/err"); rc=$?
expect_rc 0 "fuzz without a corpus"; expect_out "/fuzz-corpus/sha256 " "fuzz without a corpus"
$had_src_corpus || [ ! -e "$src/corpus/sha256" ] || failed "fuzz without a corpus grew one in the source tree"
[ -z "$(ls -A "$tmp/cwd")" ] || failed "fuzz without a corpus created $(ls -A "$tmp/cwd") in the working directory"

## list: every backend's declarations, in words and in the JSON.
run "$cli" list; expect_rc 0 "list"; expect_out "contracts (what each backend declares" "list"
expect_out "wipes what it handled" "list"
run "$cli" list --json; expect_rc 0 "list --json"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for b in d["backends"]:
    c = b["contract"]
    assert {"wipes", "algorithms", "max_call_bytes", "same_code_as"} <= set(c), b["name"]
    if not b["module"]:
        assert c["wipes"] and c["max_call_bytes"] == 0 and c["algorithms"], b["name"]
    if b["family"] == "chacha":
        assert c["counter"] in ("wraps at 2^32", "carries into word 13") and "overlap" in c, b["name"]
' "$tmp/out" || failed "list --json: a backend without its contract"

## bench: a failed run leaves the previous results alone.
mkdir "$tmp/bench"
echo previous > "$tmp/bench/bench.json"
echo previous > "$tmp/bench/bench.md"
run "$cli" bench --out "$tmp/bench" --filter '^no-such-benchmark$'
if grep -q "lockstep_bench is not built" "$tmp/err"; then
  echo "bench: lockstep_bench is not built here (no Google Benchmark); its checks did not run"
else
  expect_rc 1 "bench --filter matching nothing"
  expect_err "no benchmark matches" "bench --filter matching nothing"
  run "$cli" bench --out "$tmp/bench" --filter '['
  expect_rc 1 "bench --filter '['"
  for f in bench.json bench.md; do
    [ "$(cat "$tmp/bench/$f")" = previous ] || failed "a failed bench run replaced $f"
  done
  [ "$(ls -A "$tmp/bench" | wc -l)" = 2 ] || failed "a failed bench run left files: $(ls -A "$tmp/bench")"
fi

## vectors: running nothing is no pass.
: > "$tmp/empty.vec"
run "$cli" vectors "$tmp/empty.vec"; expect_rc 1 "vectors on an empty file"; expect_err "0 cases run" "vectors on an empty file"
run "$cli" vectors --allow-empty "$tmp/empty.vec"; expect_rc 0 "vectors --allow-empty on an empty file"
printf '[SHA-1]\nIn = 616263\nOut = a9993e364706816aba3e25717850c26c9cd0d89d\n' > "$tmp/skipped.vec"
run "$cli" vectors "$tmp/skipped.vec"; expect_rc 1 "vectors with every case skipped"; expect_err "0 cases run" "every case skipped"
# Errors go to standard error.
run "$cli" vectors "$tmp/no-such-file"; expect_rc 1 "vectors on a missing file"
expect_err "no-such-file: no such file or directory" "vectors on a missing file"
run "$cli" vectors --backend sha256/nope "$tmp/skipped.vec"; expect_rc 2 "vectors --backend unknown"

## vectors: files in lockstep's own schemas run against every backend.
# SHA-256("abc"), FIPS 180-4 B.1; ChaCha20's block function, RFC 8439 A.1
# test vector 1 (zero key, nonce and counter: the keystream itself).
own() {  # own FILE SCHEMA ALGORITHM TYPE TEST
  cat > "$1" <<EOF
{"algorithm": "$3", "schema": "$2", "numberOfTests": 1,
 "testGroups": [{"type": "$4", "source": "contract test", "tests": [$5]}]}
EOF
}
abc='{"tcId": 1, "comment": "abc", "flags": [], "result": "valid", "msg": "616263", "md": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}'
own "$tmp/abc.json" lockstep-hash-v1 SHA-256 HashTest "$abc"
run "$cli" vectors "$tmp/abc.json"; expect_rc 0 "vectors on a lockstep-hash-v1 file"
expect_out "sha256/generic         run     1  passed     1" "lockstep-hash-v1 on sha256/generic"
zeros=$(printf '%0128d' 0)
a1="{\"tcId\": 7, \"comment\": \"A.1 #1\", \"flags\": [], \"result\": \"valid\", \"key\": \"${zeros:0:64}\", \"nonce\": \"${zeros:0:24}\", \"counter\": 0, \"msg\": \"$zeros\", \"ct\": \"76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586\"}"
own "$tmp/a1.json" lockstep-chacha-v1 ChaCha20 CipherTest "$a1"
run "$cli" vectors "$tmp/a1.json"; expect_rc 0 "vectors on a lockstep-chacha-v1 file"
expect_out "chacha/generic         run     1  passed     1" "lockstep-chacha-v1 on chacha/generic"
# The same test with its last byte changed fails on every backend, naming it.
own "$tmp/a1-wrong.json" lockstep-chacha-v1 ChaCha20 CipherTest "${a1/6586\"/6587\"}"
run "$cli" vectors "$tmp/a1-wrong.json"; expect_rc 1 "vectors on a wrong lockstep-chacha-v1 file"
expect_out "FAIL $tmp/a1-wrong.json: tcId 7 (chacha20): first difference at offset 63" "a wrong ChaCha20 value"
# An unknown lockstep-* schema is an error naming the file and the field.
own "$tmp/future.json" lockstep-hash-v9 SHA-256 HashTest "$abc"
run "$cli" vectors "$tmp/future.json"; expect_rc 1 "vectors on an unknown lockstep schema"
expect_err "$tmp/future.json: field 'schema': unknown schema 'lockstep-hash-v9'" "an unknown lockstep schema"
# Every committed vector file passes on every backend, and something ran.
run "$cli" vectors "$src/vectors/data"; expect_rc 0 "vectors on vectors/data"
grep -Eq '^lockstep +[0-9]+ +[0-9]+ +0 +[1-9][0-9]* +[1-9][0-9]* +0 +0 ' "$tmp/out" || failed "vectors/data: $(grep '^lockstep ' "$tmp/out")"

## list: detected, hidden, declared and effective features, in text and JSON.
feature=$("$cli" list --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["cpu"]["detected"].split()[-1])')
run env LOCKSTEP_CPU="-$feature" "$cli" list
for field in "cpu:" "detected:" "declared:" "effective:" "emulators:"; do expect_out "$field" "list"; done
expect_out "hidden:    $feature" "list with LOCKSTEP_CPU=-$feature"
LOCKSTEP_CPU="-$feature" "$cli" list --json | python3 -c '
import json, sys
cpu = json.load(sys.stdin)["cpu"]
f = sys.argv[1]
assert cpu["hidden"].split() == [f], cpu
assert f in cpu["detected"].split() and f not in cpu["effective"].split(), cpu
assert cpu["mask"] == "-" + f, cpu' "$feature" || failed "list --json with LOCKSTEP_CPU=-$feature"

## Emulators: only names that exist; the trap emulators are linked in.
run env LOCKSTEP_CPU_EMULATED_BY=frobnicator "$cli" list; expect_rc 2 "an unknown LOCKSTEP_CPU_EMULATED_BY"
expect_err "unknown emulator 'frobnicator' (known: " "an unknown LOCKSTEP_CPU_EMULATED_BY"
expect_err "sde, qemu)" "an unknown LOCKSTEP_CPU_EMULATED_BY"
run env LOCKSTEP_EMULATE=frobnicator "$cli" list; expect_rc 2 "an unknown LOCKSTEP_EMULATE"
if $x86; then
  head -c 100003 /dev/urandom > "$tmp/big"
  head -c 1000 /dev/urandom > "$tmp/small"
  want=$(cd "$tmp" && sha256sum big)
  (cd "$tmp" && LOCKSTEP_EMULATE=phe "$cli" hash --backend sha256/x86-phe big > out 2> err); rc=$?
  expect_rc 0 "LOCKSTEP_EMULATE=phe hash"
  [ "$(cat "$tmp/out")" = "$want" ] || failed "LOCKSTEP_EMULATE=phe sha256/x86-phe differs from sha256sum"
  (cd "$tmp" && LOCKSTEP_CPU=+phe LOCKSTEP_CPU_EMULATED_BY=phe-trap "$cli" hash --backend sha256/x86-phe big > out 2> err); rc=$?
  expect_rc 0 "LOCKSTEP_CPU_EMULATED_BY=phe-trap hash"
  [ "$(cat "$tmp/out")" = "$want" ] || failed "LOCKSTEP_CPU_EMULATED_BY=phe-trap sha256/x86-phe differs from sha256sum"
  (cd "$tmp" && LOCKSTEP_EMULATE=sha512ext "$cli" hash --alg sha512 --backend sha512/x86-sha512ext small > out 2> err); rc=$?
  expect_rc 0 "LOCKSTEP_EMULATE=sha512ext hash"
  [ "$(cat "$tmp/out")" = "$(cd "$tmp" && sha512sum small)" ] || failed "sha512/x86-sha512ext differs from sha512sum"
  run env LOCKSTEP_EMULATE=phe,sha512ext "$cli" vectors --backend sha512/x86-phe "$src/vectors/data/sha512/fips180-4.json"
  expect_rc 0 "LOCKSTEP_EMULATE=phe vectors"; expect_out "sha512/x86-phe" "LOCKSTEP_EMULATE=phe vectors"
  run env LOCKSTEP_EMULATE=phe,sha512ext "$cli" list --json
  python3 -c 'import json, sys; e = json.load(open(sys.argv[1]))["cpu"]["emulators"]; assert e == ["phe-trap", "sha512ext-trap"], e' \
    "$tmp/out" || failed "list --json under LOCKSTEP_EMULATE names the emulators"
  run env LOCKSTEP_CPU=+phe LOCKSTEP_CPU_EMULATED_BY=sde "$cli" list --json
  python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["cpu"]; assert c["declared"] == "phe" and c["emulators"] == ["sde"], c' \
    "$tmp/out" || failed "list --json: LOCKSTEP_CPU=+phe is declared"
  if [ -x "$(dirname "$cli")/../bench/lockstep_bench" ]; then
    run env LOCKSTEP_EMULATE=phe "$cli" bench --out "$tmp/bench-phe" --filter '^hash/sha256/sha256/x86-phe/64$' --min-time 0.01
    expect_rc 0 "LOCKSTEP_EMULATE=phe bench"
    grep -q '"name": "hash/sha256/sha256/x86-phe/64"' "$tmp/bench-phe/bench.json" &&
      ! grep -q '"error_occurred": true' "$tmp/bench-phe/bench.json" || failed "LOCKSTEP_EMULATE=phe bench did not measure x86-phe"
  fi
fi

[ "$fail" = 0 ] && echo "the CLI keeps its word"
exit "$fail"
