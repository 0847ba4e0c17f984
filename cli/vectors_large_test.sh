#!/usr/bin/env bash
# lockstep vectors on one file of 200,000 tests, on one backend. Reading
# must take time linear in the tests: ctest's timeout is the check (the
# file took a minute here while the JSON reader's callback made it
# quadratic, a few seconds since), never a clock read in here.
#   vectors_large_test.sh LOCKSTEP
set -uo pipefail
cli=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp/large.json" <<'PY'
import hashlib, json, sys
tests = []
for i in range(200000):
    msg = i.to_bytes(4, "big")
    tests.append({"tcId": i + 1, "comment": "", "flags": [], "result": "valid",
                  "msg": msg.hex(), "md": hashlib.sha256(msg).hexdigest()})
json.dump({"algorithm": "SHA-256", "schema": "lockstep-hash-v1", "numberOfTests": len(tests),
           "testGroups": [{"type": "HashTest", "source": "cli/vectors_large_test.sh", "tests": tests}]},
          open(sys.argv[1], "w"))
PY
"$cli" vectors --backend sha256/generic "$tmp/large.json" > "$tmp/out" 2>&1
rc=$?
if [ "$rc" != 0 ] || ! grep -Eq '^total +1 +200000 +0 +200000 +200000 +0 +0 ' "$tmp/out"; then
  echo "FAILED: exit $rc, or not 200000 cases run and passed:"
  tail -n 20 "$tmp/out"
  exit 1
fi
echo "lockstep vectors: 200000 tests in one file, every one run and passed"
