#!/bin/sh
# ctest's vectors.upstream: `lockstep vectors MIRROR [ARGS...]` over the
# mirror of upstream vector files; skipped (exit 77, the test's
# SKIP_RETURN_CODE) with the reason when there is no mirror.
set -eu
if [ $# -lt 2 ]; then
  echo "usage: $0 LOCKSTEP MIRROR [ARGS...]" >&2
  exit 2
fi
lockstep=$1
mirror=$2
shift 2
if [ ! -d "$mirror" ]; then
  echo "SKIP: no upstream vector mirror at $mirror: set the CMake cache variable" \
       "LOCKSTEP_UPSTREAM_VECTORS, or fetch one with vectors/fetch-upstream DIR"
  exit 77
fi
exec "$lockstep" vectors "$mirror" "$@"
