#!/usr/bin/env bash
# lister_test.sh PYTHON UNREACHED_PY CXX: unreached.py on a miniature tree of
# its own, in a temporary directory (outside any build tree, whose counts
# coverage.reset may be deleting meanwhile). impl/mini.cpp defines a called external function, an
# uncalled one, an uncalled one in an anonymous namespace and an uncalled
# static one; built with --coverage and run, the lister must name the
# uncalled external function only and fail (exit 1), honour an exclusion
# (with its reason, exit 0), and pass once a second run calls the function.
set -euo pipefail
python=$1 lister=$(realpath "$2") cxx=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src/impl" "$work/build/impl"
cat > "$work/src/impl/mini.cpp" <<'EOF'
#include <cstdlib>
namespace mini {
namespace {
int hidden(int x) { return x + 1; }
}  // namespace
static int file_local(int x) { return x * 3; }
int reached(int x) { return x * 2; }
int unreached_entry(int x) { return hidden(x) + file_local(x); }
}  // namespace mini
int main(int argc, char**) {
  int r = mini::reached(argc);
  if (std::getenv("MINI_CALL_ALL")) r += mini::unreached_entry(argc);
  return r == 0;
}
EOF
cd "$work/build/impl"
"$cxx" -std=c++20 -O1 -fno-inline --coverage -c "$work/src/impl/mini.cpp" -o mini.cpp.o
"$cxx" --coverage mini.cpp.o -o mini
./mini

fail() { echo "lister_test: $*" >&2; exit 1; }
run() { "$python" "$lister" --source "$work/src" --build "$work/build" "$@"; }

status=0
out=$(run 2>"$work/stderr") || status=$?
cat "$work/stderr" >&2
[ $status -eq 1 ] || fail "expected exit status 1 with a function unreached, got $status: $out"
[ "$out" = "impl/mini.cpp:8: mini::unreached_entry(int)" ] ||
  fail "expected exactly 'impl/mini.cpp:8: mini::unreached_entry(int)', got: $out"
echo "unreached, as it must be: $out"

# An exclusion with its reason takes it off the list; one without is an error.
echo 'function mini::unreached_entry(int)  # what the miniature leaves out' > "$work/exclusions"
out=$(run --exclusions "$work/exclusions" 2>&1) || fail "an excluded function still failed: $out"
grep -q "excluded: impl/mini.cpp:8: mini::unreached_entry(int): what the miniature" <<<"$out" ||
  fail "the exclusion was not reported with its reason: $out"
echo 'function mini::unreached_entry(int)' > "$work/exclusions"
status=0
out=$(run --exclusions "$work/exclusions" 2>&1) || status=$?
[ $status -eq 2 ] || fail "an exclusion without a reason was accepted (status $status): $out"

# Reset, then a run that calls it: nothing is unreached.
"$python" "$lister" --reset --build "$work/build" >/dev/null
[ -z "$(find "$work/build" -name '*.gcda')" ] || fail "--reset left count files"
MINI_CALL_ALL=1 ./mini
out=$(run 2>&1) || fail "expected exit status 0 with every function reached: $out"
echo "all reached: ${out##*$'\n'}"
