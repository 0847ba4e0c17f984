#!/usr/bin/env bash
# The CLI against coreutils: every available backend hashes files of many
# sizes exactly as sha256sum/sha224sum do, and bad input is a clear error.
set -euo pipefail
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if ! "$@"; then echo "FAILED: $*"; fail=1; fi; }

for n in 0 1 55 56 63 64 65 119 120 127 128 129 1000 4095 4096 4097 65535 65536 65537 1000003; do
  head -c "$n" /dev/urandom > "$tmp/f$n"
done

mapfile -t backends < <("$cli" list --json | python3 -c '
import json, sys
for b in json.load(sys.stdin):
    if b["family"] == "sha256" and b["available"]:
        print(b["name"])')
[ "${#backends[@]}" -gt 0 ] || { echo "no available sha256 backend listed"; exit 1; }

for alg in sha256 sha224; do
  want=$(cd "$tmp" && ${alg}sum f*)
  for b in "${backends[@]}"; do
    got=$(cd "$tmp" && "$cli" hash --alg "$alg" --backend "$b" f*)
    if [ "$got" != "$want" ]; then echo "FAILED: $alg $b differs from ${alg}sum"; fail=1; fi
    # Standard input, both as "-" and as no file at all.
    check test "$("$cli" hash --alg "$alg" --backend "$b" - < "$tmp/f1000")" = "$(${alg}sum < "$tmp/f1000")"
  done
done
check test "$("$cli" hash < "$tmp/f65")" = "$(sha256sum < "$tmp/f65")"

# Errors: exit 1 and a message naming the culprit.
if "$cli" hash "$tmp/missing" 2> "$tmp/err"; then echo "FAILED: missing file exited 0"; fail=1; fi
check grep -q "missing" "$tmp/err"
if "$cli" hash --backend sha256/nope "$tmp/f1" 2> "$tmp/err"; then echo "FAILED: unknown backend exited 0"; fail=1; fi
check grep -q "unknown backend 'sha256/nope'" "$tmp/err"

# A backend this CPU cannot run is refused, not run into SIGILL.
mapfile -t unusable < <("$cli" list --json | python3 -c '
import json, sys
for b in json.load(sys.stdin):
    if b["family"] == "sha256" and not b["available"]:
        print(b["name"])')
for b in "${unusable[@]}"; do
  if "$cli" hash --backend "$b" "$tmp/f1" 2> "$tmp/err"; then echo "FAILED: $b ran"; fail=1; fi
  check grep -q "needs" "$tmp/err"
done

echo "checked ${#backends[@]} backend(s) against coreutils: ${backends[*]}; refused: ${unusable[*]:-none}"
exit "$fail"
