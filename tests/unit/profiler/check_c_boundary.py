#!/usr/bin/env python3
"""Every exported C entry point runs its body through the C-boundary guard
(rocprof/common/c_boundary.hpp): a definition marked ROCPROFILER_API, ROCTX_API or
visibility("default") in the core, ROCTx, the CUDA plugin, the v2 library or the tool library
whose body does not call guarded(), guarded_or(), guarded_call() (or a guarded_* wrapper of
them) fails this check, naming it.
The Kokkos connector is left out: its entry points forward to ROCTx (guarded) and guard the
ones that allocate themselves.

usage: check_c_boundary.py SOURCE_ROOT
"""
import os
import re
import sys

FOLDERS = ["libprofiler/src", "libprofiler/roctx/src", "libprofiler/backends/cuda",
           "libprofiler/v2/src", "libtool/tool", "libtool/nvtx"]
EXPORTED = re.compile(r'^(extern "C" )?(ROCPROFILER_API|ROCTX_API|'
                      r'(extern "C" )?__attribute__\(\(visibility\("default"\)\)\))\s')
ATTRIBUTE = re.compile(r'__attribute__\(\(visibility\("default"\)\)\)')
NAME = re.compile(r"(\w+)\s*\(")
GUARD = re.compile(r"\bguarded\w*\s*\(")
# Entry points that only forward to a core marker entry, which is guarded itself: a guard of
# their own would cost the tail call on the hot path (libprofiler/roctx/src/roctx.cpp).
FORWARDERS = {"roctxMarkA", "roctxRangeStop"}


def exported_functions(text):
    """(name, body) of each exported function definition in a C++ source."""
    start = 0
    for line in text.split("\n"):
        line_start, start = start, start + len(line) + 1
        if not EXPORTED.match(line):
            continue
        start_of_definition = line_start
        brace = text.find("{", start_of_definition)
        semicolon = text.find(";", start_of_definition)
        if brace < 0 or (0 <= semicolon < brace):
            continue  # a declaration
        name = NAME.search(ATTRIBUTE.sub("", text[start_of_definition:brace])).group(1)
        depth, end = 0, brace
        for end in range(brace, len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if depth == 0:
                break
        yield name, text[brace:end + 1]


def main():
    root = sys.argv[1]
    checked, missing = 0, []
    for folder in FOLDERS:
        for dirpath, _, files in os.walk(os.path.join(root, folder)):
            for f in sorted(files):
                if not f.endswith(".cpp"):
                    continue
                path = os.path.join(dirpath, f)
                with open(path) as source:
                    for name, body in exported_functions(source.read()):
                        checked += 1
                        if not GUARD.search(body) and name not in FORWARDERS:
                            missing.append("{}: {}".format(os.path.relpath(path, root), name))
    print("{} exported functions checked".format(checked))
    for m in missing:
        print("not guarded: " + m)
    if checked < 50:
        print("too few exported functions found: the check no longer sees the sources")
        return 1
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
