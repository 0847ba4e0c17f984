#!/usr/bin/env python3
"""List the public functions of impl/, host/ and include/ that no check reached.

    unreached.py --source DIR --build DIR [--library-objects DIR] [--exclusions FILE]
    unreached.py --reset --build DIR

Reads the gcov notes (.gcno) and counts (.gcda) of a build made with
--coverage after its checks ran (coverage/README.md), and prints every
function with external linkage defined in a file under DIR/impl, DIR/host or
DIR/include whose call count is 0, one a line:

    impl/chacha/chacha.cpp:80: lockstep::chacha::xchacha20(...)

Exit status: 0 when the list is empty, 1 when it is not, 2 on a usage or
input error (no counts at all, a malformed exclusion). --reset deletes the
counts of earlier runs, so that the next list is of the next run only.

Which objects count: every one that ran (it has a .gcda), and every one
under --library-objects (default BUILD/impl) whether it ran or not, so an
implementation file that no checked binary linked shows as unreached
rather than not at all. Other objects that did not run (a tool built in
the same tree but not part of the checks) are left out.

Linkage comes from the object's symbol table (nm): a global or weak
symbol is external; a local one (static, anonymous namespace, a template
instance over such a type, a lambda in a function) is not. An inline
function is counted over every object that has a copy, since the linker
keeps one copy and only its counters move. Template instances count one
by one: Hash<Sha224>::digest is an entry point of its own.

The exclusions file: one a line, its reason after '#', required.
    function GLOB                 demangled names matching GLOB
    emitted-by GLOB               functions that only objects compiled from
                                  sources matching GLOB (relative to DIR) define
    ... when-cpu-lacks FLAG       either, only on a CPU whose /proc/cpuinfo
                                  flags lack FLAG
Excluded functions are printed to standard error with their reasons.
"""

import argparse
import fnmatch
import json
import os
import shlex
import subprocess
import sys
from collections import defaultdict

PUBLIC_DIRS = ("impl", "include", "host")


def fail(message):
    print(f"unreached: {message}", file=sys.stderr)
    sys.exit(2)


def cpu_flags():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith(("flags", "Features")):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def read_exclusions(path):
    """[(kind, glob, reason)] of the exclusions that apply on this CPU."""
    if not path:
        return []
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    flags = None
    rules = []
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        rule, sep, reason = line.partition("#")
        words = rule.split()
        if not sep or not reason.strip():
            fail(f"{path}:{number}: an exclusion needs its reason after '#'")
        if len(words) not in (2, 4) or words[0] not in ("function", "emitted-by") or \
                (len(words) == 4 and words[2] != "when-cpu-lacks"):
            fail(f"{path}:{number}: expected 'function GLOB' or 'emitted-by GLOB', "
                 "optionally followed by 'when-cpu-lacks FLAG'")
        if len(words) == 4:
            flags = cpu_flags() if flags is None else flags
            if words[3] in flags:
                continue
        # A GLOB has no blanks: a demangled name's ", " and "> >" match as "*".
        rules.append((words[0], words[1], reason.strip()))
    return rules


def matches(name, glob):
    return fnmatch.fnmatchcase(name.replace(" ", ""), glob)


def notes_files(build, library_objects):
    chosen = []
    for root, _, files in os.walk(build):
        for name in files:
            if not name.endswith(".gcno"):
                continue
            path = os.path.join(root, name)
            ran = os.path.exists(path[: -len(".gcno")] + ".gcda")
            mandatory = os.path.commonpath([library_objects, path]) == library_objects
            if ran or mandatory:
                chosen.append(path)
    return sorted(chosen)


def object_sources(build):
    """Object file -> the source it is compiled from (compile_commands.json)."""
    path = os.path.join(build, "compile_commands.json")
    if not os.path.exists(path):
        return {}
    sources = {}
    for c in json.load(open(path, encoding="utf-8")):
        output = c.get("output")
        if output is None:  # CMake before 3.20 names the object only in the command
            words = shlex.split(c.get("command", ""))
            output = next((b for a, b in zip(words, words[1:]) if a == "-o"), None)
        if output is not None:
            sources[os.path.realpath(os.path.join(c["directory"], output))] = \
                os.path.realpath(os.path.join(c["directory"], c["file"]))
    return sources


def external_symbols(obj):
    """The mangled names of the functions `obj` defines with external linkage."""
    if not os.path.exists(obj):
        return None
    out = subprocess.run(["nm", "--defined-only", obj], capture_output=True, text=True)
    if out.returncode != 0:
        fail(f"nm {obj}: {out.stderr.strip()}")
    names = set()
    for line in out.stdout.splitlines():
        parts = line.split()
        # "address type name": T global, W/V weak, u unique, i indirect.
        if len(parts) == 3 and parts[1] in ("T", "W", "V", "u", "i"):
            names.add(parts[2])
    return names


def gcov_json(gcov, notes):
    """gcov's JSON for each notes file, one document at a time."""
    out = subprocess.run([gcov, "--json-format", "--stdout", "--demangled-names", *notes],
                         capture_output=True, text=True, cwd=os.path.dirname(notes[0]))
    if out.returncode != 0:
        fail(f"{gcov} failed: {out.stderr.strip()}")
    decoder = json.JSONDecoder()
    text, pos = out.stdout, 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            return
        document, pos = decoder.raw_decode(text, pos)
        yield document


def reset(build):
    removed = 0
    for root, _, files in os.walk(build):
        for name in files:
            if name.endswith(".gcda"):
                os.remove(os.path.join(root, name))
                removed += 1
    print(f"unreached: removed {removed} count files (.gcda) under {build}")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", help="the source tree (holds impl/ and include/)")
    parser.add_argument("--build", required=True, help="the build tree with .gcno and .gcda files")
    parser.add_argument("--library-objects", help="objects that count even if they never ran (default BUILD/impl)")
    parser.add_argument("--exclusions", help="functions left out, each with its reason")
    parser.add_argument("--reset", action="store_true", help="delete the counts of earlier runs")
    parser.add_argument("--gcov", default="gcov")
    args = parser.parse_args()

    build = os.path.realpath(args.build)
    if args.reset:
        return reset(build)
    if not args.source:
        parser.error("--source is required")
    source = os.path.realpath(args.source)
    library_objects = os.path.realpath(args.library_objects or os.path.join(build, "impl"))
    rules = read_exclusions(args.exclusions)
    sources = object_sources(build)

    notes = notes_files(build, library_objects)
    if not any(os.path.exists(n[: -len(".gcno")] + ".gcda") for n in notes):
        fail(f"no coverage counts (.gcda) under {build}: did the checks run in a --coverage build?")

    # (file, line, demangled name) -> summed call count over every copy, and
    # the sources of the objects that define it.
    calls = defaultdict(int)
    emitted_by = defaultdict(set)
    for batch_start in range(0, len(notes), 64):
        batch = notes[batch_start:batch_start + 64]
        symbols = {n: external_symbols(n[: -len(".gcno")] + ".o") for n in batch}
        for document in gcov_json(args.gcov, batch):
            cwd = document.get("current_working_directory", build)
            data = os.path.realpath(os.path.join(cwd, document["data_file"]))
            stem = data[: -len(".gcda")]
            external = symbols.get(stem + ".gcno")
            origin = sources.get(stem + ".o", stem)
            for entry in document["files"]:
                path = os.path.realpath(os.path.join(cwd, entry["file"]))
                relative = os.path.relpath(path, source)
                if relative.split(os.sep, 1)[0] not in PUBLIC_DIRS:
                    continue
                for function in entry["functions"]:
                    # Without an object (a precompiled header's notes) there is
                    # no linkage to read; its functions are in other objects too.
                    if external is None or function["name"] not in external:
                        continue
                    key = (relative, function["start_line"], function.get("demangled_name", function["name"]))
                    calls[key] += function["execution_count"]
                    emitted_by[key].add(os.path.relpath(origin, source))

    if not calls:
        fail(f"no function of {' or '.join(PUBLIC_DIRS)}/ in the notes under {build}")

    def exclusion(key):
        for kind, glob, reason in rules:
            if kind == "function" and matches(key[2], glob):
                return reason
            if kind == "emitted-by" and all(fnmatch.fnmatchcase(s, glob) for s in emitted_by[key]):
                return reason
        return None

    unreached = sorted(k for k, n in calls.items() if n == 0)
    listed = []
    excluded = 0
    for key in unreached:
        reason = exclusion(key)
        if reason is None:
            listed.append(key)
        else:
            excluded += 1
            print(f"unreached: excluded: {key[0]}:{key[1]}: {key[2]}: {reason}", file=sys.stderr)
    for relative, line, name in listed:
        print(f"{relative}:{line}: {name}")
    print(f"unreached: {len(calls)} public functions of {' and '.join(d + '/' for d in PUBLIC_DIRS)}, "
          f"{len(calls) - len(unreached)} reached, {excluded} excluded, {len(listed)} unreached",
          file=sys.stderr)
    return 1 if listed else 0


if __name__ == "__main__":
    sys.exit(main())
