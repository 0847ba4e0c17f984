#!/usr/bin/env python3
"""fingerprint.py PRESET WORDS...: what a test stage's result depends on, as
one hash (ci/test keeps a stage's pass under it and, in a local re-run,
does not run the stage again while the hash is the same).

It covers:
- the stage itself (WORDS: its name, tier and ctest arguments);
- the machine: kernel release, CPU model name and flags, the versions of
  ctest and QEMU;
- the preset's build directory: every file but objects, archives, logs and
  Testing/, by content up to 1 MiB (a configure step rewrites its CTest and
  ninja files unchanged) and by size and modification time above (binaries:
  ninja relinks only what changed);
- the source tree's files that act on tests without being compiled into a
  binary (scripts, vector files, corpora, CMake files, the upstream mirror
  beside the checkout): path, size and modification time of every file git
  tracks or would track, minus C, C++ and assembly sources, which reach a
  test only through the binaries above.

Prints the hash; exit status 2 when the preset has no build directory.
"""
import hashlib
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMPILED = {".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".inc", ".S", ".s"}
NOT_READ_BY_TESTS = {".o", ".d", ".a", ".log", ".gch", ".pch"}  # in a build directory
BY_CONTENT = 1 << 20
# Sources a test compiles itself (`lockstep tree` builds the miniature trees
# with lockstep's kernel and U-Boot headers and its adapters): they act on
# tests without passing through a binary of the build.
COMPILED_AT_TEST_TIME = ("trees/", "include/lockstep/")
# Test labels whose tests read a second build: `lockstep tree` on the arm64
# miniatures runs the aarch64 build's suites under QEMU.
ALSO_READS = {"trees-arm64": "aarch64-max"}


def binary_dir(preset):
    """The preset's binaryDir, following `inherits`."""
    presets = {p["name"]: p for p in json.loads((ROOT / "CMakePresets.json").read_text())["configurePresets"]}
    test_presets = {p["name"]: p for p in json.loads((ROOT / "CMakePresets.json").read_text())["testPresets"]}
    name = test_presets.get(preset, {}).get("configurePreset", preset)
    todo = [name]
    while todo:
        p = presets[todo.pop(0)]
        if "binaryDir" in p:
            return Path(p["binaryDir"].replace("${sourceDir}", str(ROOT)).replace("${presetName}", name))
        todo += [p["inherits"]] if isinstance(p.get("inherits"), str) else p.get("inherits", [])
    return None


def tree_lines(directory, keep, by_content=False):
    for dirpath, dirnames, filenames in os.walk(directory):
        dirnames[:] = sorted(d for d in dirnames if keep(Path(dirpath, d), True))
        for f in sorted(filenames):
            path = Path(dirpath, f)
            if not keep(path, False) or not path.is_file():
                continue
            st = path.lstat()
            if by_content and st.st_size <= BY_CONTENT:
                yield f"{path.relative_to(directory)} {hashlib.sha256(path.read_bytes()).hexdigest()}"
            else:
                yield f"{path.relative_to(directory)} {st.st_size} {st.st_mtime_ns}"


def command_output(*cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=False).stdout.split("\n")[0]
    except OSError:
        return f"{cmd[0]}: absent"


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: fingerprint.py PRESET WORDS...")
    build = binary_dir(sys.argv[1])
    if build is None or not build.is_dir():
        print(f"fingerprint.py: {sys.argv[1]}: no build directory", file=sys.stderr)
        return 2
    h = hashlib.sha256()

    def add(line):
        h.update(line.encode() + b"\n")

    add(" ".join(sys.argv[1:]))
    add(platform.release())
    cpu = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    add("\n".join(sorted({ln for ln in cpu.splitlines() if ln.startswith(("model name", "flags"))})))
    for tool in ("ctest", "qemu-x86_64", "qemu-aarch64"):
        add(command_output(tool, "--version"))

    builds = [build] + [binary_dir(p) for label, p in ALSO_READS.items() if label in sys.argv[2:]]
    for b in builds:
        def build_file(path, is_dir, b=b):
            rel = path.relative_to(b).parts
            return not (rel[0] == "Testing" or path.name.startswith(".ninja")
                        or (not is_dir and path.suffix in NOT_READ_BY_TESTS))

        if b is None or not b.is_dir():
            add(f"no build {b}")
            continue
        for line in tree_lines(b, build_file, by_content=True):
            add(f"build {b.name} " + line)

    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            capture_output=True, check=True).stdout.decode().split("\0")
    for rel in sorted(f for f in listed if f):
        path = ROOT / rel
        if (path.suffix in COMPILED and not rel.startswith(COMPILED_AT_TEST_TIME)) or not path.is_file():
            continue
        st = path.lstat()
        add(f"source {rel} {st.st_size} {st.st_mtime_ns}")
    upstream = ROOT.parent / "shared" / "vectors-upstream"
    if upstream.is_dir():
        for line in tree_lines(upstream, lambda p, d: True):
            add("upstream " + line)
    print(h.hexdigest())
    return 0


if __name__ == "__main__":
    sys.exit(main())
