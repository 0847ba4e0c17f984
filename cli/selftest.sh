#!/usr/bin/env bash
# The CLI against coreutils: every available backend of each hash family
# hashes files of many sizes exactly as sha256sum/sha224sum/sha512sum/
# sha384sum do, and bad input is a clear error.
set -euo pipefail
cli=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if ! "$@"; then echo "FAILED: $*"; fail=1; fi; }

# Sizes around both block sizes (64 and 128) and their padding boundaries.
for n in 0 1 55 56 63 64 65 111 112 119 120 127 128 129 239 240 256 1000 4095 4096 4097 \
         65535 65536 65537 1000003; do
  head -c "$n" /dev/urandom > "$tmp/f$n"
done

# backends FAMILY AVAILABLE: the names `lockstep list` gives.
backends() {
  "$cli" list --json | python3 -c '
import json, sys
for b in json.load(sys.stdin)["backends"]:
    if b["family"] == sys.argv[1] and str(b["available"]).lower() == sys.argv[2]:
        print(b["name"])' "$1" "$2"
}

checked=() refused=()
for family in "sha256 sha224" "sha512 sha384"; do
  read -r fam other <<< "$family"
  mapfile -t usable < <(backends "$fam" true)
  [ "${#usable[@]}" -gt 0 ] || { echo "no available $fam backend listed"; exit 1; }
  checked+=("${usable[@]}")
  for alg in "$fam" "$other"; do
    want=$(cd "$tmp" && ${alg}sum f*)
    for b in "${usable[@]}"; do
      got=$(cd "$tmp" && "$cli" hash --alg "$alg" --backend "$b" f*)
      if [ "$got" != "$want" ]; then echo "FAILED: $alg $b differs from ${alg}sum"; fail=1; fi
      # Standard input, both as "-" and as no file at all.
      check test "$("$cli" hash --alg "$alg" --backend "$b" - < "$tmp/f1000")" = "$(${alg}sum < "$tmp/f1000")"
    done
  done
  # A backend this CPU cannot run is refused, not run into SIGILL.
  mapfile -t unusable < <(backends "$fam" false)
  for b in "${unusable[@]}"; do
    if "$cli" hash --alg "$fam" --backend "$b" "$tmp/f1" 2> "$tmp/err"; then echo "FAILED: $b ran"; fail=1; fi
    check grep -q "needs" "$tmp/err"
    refused+=("$b")
  done
done
check test "$("$cli" hash < "$tmp/f65")" = "$(sha256sum < "$tmp/f65")"

# Errors: a message naming the culprit; exit 1 for a file that is wrong,
# 2 for a name that is no backend of the algorithm's family (a usage error).
status() { "$@" > /dev/null 2> "$tmp/err" && echo 0 || echo $?; }
check test "$(status "$cli" hash "$tmp/missing")" = 1
check grep -q "missing" "$tmp/err"
check test "$(status "$cli" hash --backend sha256/nope "$tmp/f1")" = 2
check grep -q "unknown backend 'sha256/nope'" "$tmp/err"
check test "$(status "$cli" hash --alg sha384 --backend sha256/generic "$tmp/f1")" = 2
check grep -q "backend sha256/generic belongs to family sha256; --alg sha384 needs a backend of family sha512" "$tmp/err"
check test "$(status "$cli" hash --alg sha256 --backend sha512/generic "$tmp/f1")" = 2
check grep -q "backend sha512/generic belongs to family sha512" "$tmp/err"

echo "checked ${#checked[@]} backend(s) against coreutils: ${checked[*]}; refused: ${refused[*]:-none}"
exit "$fail"
