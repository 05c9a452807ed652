#!/usr/bin/env python3
"""The installed sample tools as tools of a ROCTx program (consumer/roctx_consumer.cpp, built
against the install), loaded both ways rocprofv3 loads tools: preloaded, and named in
ROCP_TOOL_LIBRARIES with the core preloaded. Checks their records against what the program does,
and that a tool which asked only for vendor-neutral kinds hears nothing from the CUDA backend.

usage: check_samples_markers.py WORK
"""
import collections
import os
import sys

from samples_checks import checker, layout, named, of, one, preloaded, run_with_tool


def check_buffered(c, how, p, lines):
    c.eq(p.returncode, 0, f"buffered tracing ({how}): program exit status")
    names = one(lines, "names")
    c.check(int(names.get("operations", "0")) > 20, f"buffered tracing ({how}): a name table")
    ranges = collections.Counter(f.get("message") for f in of(
        lines, "record", kind="MARKER_CORE_RANGE_API", op="roctxThreadRangeA"))
    # The tool traces through the pause: it has no control context.
    c.eq(dict(ranges), {"outer": 3, "inner": 3, "paused": 1},
         f"buffered tracing ({how}): thread ranges by message")
    c.eq(len(of(lines, "record", op="roctxProcessRangeA", message="process")), 1,
         f"buffered tracing ({how}): the process range")
    c.eq(len(of(lines, "record", op="roctxMarkA", message="done")), 1,
         f"buffered tracing ({how}): the mark")
    c.eq(one(lines, "summary").get("dropped"), "0", f"buffered tracing ({how}): nothing dropped")
    c.eq(of(lines, "error"), [], f"buffered tracing ({how}): no error lines")


def main():
    work = sys.argv[1]
    w = layout(work)
    c = checker("samples_markers")
    app = [os.path.join(w.consumer, "roctx_consumer")]
    out = os.path.join(work, "markers")
    os.makedirs(out, exist_ok=True)

    for how, env in (("LD_PRELOAD", preloaded(w.tool("buffered-tracing"))),
                     ("ROCP_TOOL_LIBRARIES", named(w.core, w.tool("buffered-tracing")))):
        p, lines = run_with_tool(app, env, os.path.join(out, f"buffered-{how}.txt"))
        check_buffered(c, how, p, lines)

    p, lines = run_with_tool(app, preloaded(w.tool("callback-tracing")),
                             os.path.join(out, "callback.txt"))
    c.eq(p.returncode, 0, "callback tracing: program exit status")
    c.eq(one(lines, "version").get("matches"), "1", "callback tracing: version triplet matches")
    pushes = of(lines, "callback", kind="MARKER_CORE_API", op="roctxRangePushA", phase="enter")
    c.eq(collections.Counter(f["args"] for f in pushes),
         {"(message=outer)": 3, "(message=inner)": 3},
         "callback tracing: pushes with their argument (none while paused)")
    c.eq(len(of(lines, "callback", op="roctxRangePushA", phase="exit")), 6,
         "callback tracing: an EXIT per ENTER")
    c.eq([f["args"] for f in of(lines, "callback", op="roctxNameOsThread", phase="enter")],
         ["(name=consumer)"], "callback tracing: the thread name")
    stops = of(lines, "callback", op="roctxRangeStop", phase="enter")
    c.check(len(stops) == 1 and stops[0]["args"].startswith("(id="),
            "callback tracing: roctxRangeStop with its id")

    for tool in ("code-object-tracing", "external-correlation"):
        p, lines = run_with_tool(app, preloaded(w.tool(tool)), os.path.join(out, tool + ".txt"))
        c.eq(p.returncode, 0, f"{tool}: program exit status")
        c.check(one(lines, "summary") != {}, f"{tool}: ran to its summary")
        c.eq(of(lines, "error"), [], f"{tool}: no error lines")
        # It asked for kernel dispatches only, not for the CUDA API: no word from the CUDA
        # backend, whatever this machine's CUDA stack.
        cuda = [l for l in p.stderr.splitlines() if "[cuda]" in l]
        c.eq(cuda, [], f"{tool}: no CUDA backend messages")
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
