#!/usr/bin/env python3
"""The installed SDK as a tool author meets it: `cmake --install` of this build into a fresh
prefix; the package files (CMake configs with versions, pkg-config); a C program built with
pkg-config; a separate CMake project (consumer/) that uses find_package of both packages, their
targets, variables and helpers, compiles every installed header and builds a ROCTx program; and
the installed sample tools (share/rocprofiler-sdk/samples) built with find_package, warnings as
errors. The other sample checks run what this builds (CTest fixture sdk_install).

usage: install_and_build.py BUILD_DIR WORK CONSUMER_SOURCE CMAKE GENERATOR CC CXX
"""
import os
import shutil
import subprocess
import sys

from samples_checks import checker, layout


def run(c, what, command, env=None):
    p = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
    if p.returncode != 0:
        print(p.stdout[-4000:], p.stderr[-4000:])
    c.eq(p.returncode, 0, what)
    return p


def main():
    build, work, consumer_source, cmake, generator, cc, cxx = sys.argv[1:8]
    c = checker("install_and_build")
    w = layout(work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    run(c, "cmake --install into a fresh prefix", [cmake, "--install", build, "--prefix", w.prefix])
    lib = os.path.join(w.prefix, "lib")
    for path in ["cmake/rocprofiler-sdk/rocprofiler-sdk-config.cmake",
                 "cmake/rocprofiler-sdk/rocprofiler-sdk-config-version.cmake",
                 "cmake/rocprofiler-sdk/rocprofiler-sdk-targets.cmake",
                 "cmake/rocprofiler-sdk/Modules/rocprofiler-sdk-utilities.cmake",
                 "cmake/rocprofiler-sdk/Modules/Findlibdw.cmake",
                 "cmake/rocprofiler-sdk-roctx/rocprofiler-sdk-roctx-config.cmake",
                 "cmake/rocprofiler-sdk-roctx/rocprofiler-sdk-roctx-config-version.cmake",
                 "cmake/rocprofiler-sdk-roctx/rocprofiler-sdk-roctx-targets.cmake",
                 "pkgconfig/rocprofiler-sdk.pc", "pkgconfig/rocprofiler-sdk-roctx.pc"]:
        c.check(os.path.isfile(os.path.join(lib, path)), f"installed lib/{path}")

    # pkg-config, relocatable: the .pc files find the prefix from their own place.
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(lib, "pkgconfig"))
    for package in ("rocprofiler-sdk", "rocprofiler-sdk-roctx"):
        p = run(c, f"pkg-config {package}", ["pkg-config", "--modversion", package], env=env)
        c.eq(p.stdout.strip(), "1.0.0", f"pkg-config version of {package}")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "rocprofiler-sdk"], env=env,
                           capture_output=True, text=True).stdout.split()
    program = os.path.join(work, "version.c")
    with open(program, "w") as f:
        f.write("#include <rocprofiler-sdk/rocprofiler.h>\n#include <stdio.h>\n"
                "int main(void) { rocprofiler_version_triplet_t v;\n"
                "  if (rocprofiler_get_version_triplet(&v) != ROCPROFILER_STATUS_SUCCESS) return 1;\n"
                "  printf(\"%u.%u.%u\\n\", v.major, v.minor, v.patch); return 0; }\n")
    exe = os.path.join(work, "version")
    run(c, "a C program built with pkg-config", [cc, program, "-o", exe] + flags)
    p = run(c, "the C program runs against the install", [exe],
            env=dict(os.environ, LD_LIBRARY_PATH=lib))
    c.eq(p.stdout.strip(), "1.0.0", "rocprofiler_get_version_triplet through pkg-config")

    common = ["-G", generator, f"-DCMAKE_PREFIX_PATH={w.prefix}", f"-DCMAKE_C_COMPILER={cc}",
              f"-DCMAKE_CXX_COMPILER={cxx}", "-DCMAKE_BUILD_TYPE=Release"]
    p = run(c, "configure the consumer project (find_package)",
            [cmake, "-S", consumer_source, "-B", w.consumer] + common)
    c.check("consumer: rocprofiler-sdk 1.0.0 at " + w.prefix in p.stdout,
            "find_package(rocprofiler-sdk) found the install, version 1.0.0")
    run(c, "build the consumer project (every header, a ROCTx program)",
        [cmake, "--build", w.consumer])

    samples_source = os.path.join(w.prefix, "share", "rocprofiler-sdk", "samples")
    c.check(os.path.isfile(os.path.join(samples_source, "CMakeLists.txt")), "samples installed")
    run(c, "configure the installed samples", [cmake, "-S", samples_source, "-B", w.samples] +
        common + ["-DROCPROF_SAMPLES_WERROR=ON"])
    run(c, "build the installed samples", [cmake, "--build", w.samples])
    for tool in ("buffered-tracing", "callback-tracing", "code-object-tracing",
                 "external-correlation"):
        path = w.tool(tool)
        c.check(os.path.isfile(path), f"sample tool {os.path.basename(path)} built")
        nm = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True, text=True)
        c.check("rocprofiler_configure" in nm.stdout, f"{tool} exports rocprofiler_configure")
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
