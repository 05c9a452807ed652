"""Shared helpers of the sample-tool checks: where install_and_build.py put things, running a
program with a sample tool loaded, and reading the tool's lines ("<tag> key=value ...")."""
import os
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cuda"))
from cuda_checks import SKIP, checker, gpu_available, require_gpu, summary_from  # noqa: E402,F401

TOOLS = ["buffered-tracing", "callback-tracing", "code-object-tracing", "external-correlation"]


class layout:
    """The work folder of install_and_build.py."""

    def __init__(self, work):
        self.work = work
        self.prefix = os.path.join(work, "prefix")
        self.samples = os.path.join(work, "samples-build")
        self.consumer = os.path.join(work, "consumer-build")
        self.core = os.path.join(self.prefix, "lib", "librocprofiler-sdk.so")
        self.cuda_plugin = os.path.join(self.prefix, "lib", "rocprofiler-sdk",
                                        "librocprofiler-sdk-cuda.so")

    def tool(self, name):
        return os.path.join(self.samples, f"librocprof-sample-{name}.so")


def run_with_tool(command, tool_env, output, extra_env=None, timeout=120):
    """Runs `command` with the tool environment; returns (process, the tool's lines)."""
    if os.path.exists(output):
        os.remove(output)
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    env.update(tool_env)
    env["ROCPROF_SAMPLE_OUTPUT"] = output
    env.update(extra_env or {})
    p = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
    lines = []
    if os.path.exists(output):
        with open(output) as f:
            lines = [parse(l) for l in f if l.strip()]
    return p, lines


def preloaded(tool):
    """rocprofv3's first way of loading a tool: LD_PRELOAD (the tool pulls the core in)."""
    return {"LD_PRELOAD": tool}


def named(core, tool):
    """rocprofv3's other way: the core preloaded, the tool in ROCP_TOOL_LIBRARIES."""
    return {"LD_PRELOAD": core, "ROCP_TOOL_LIBRARIES": tool}


def parse(line):
    words = shlex.split(line)
    fields = {}
    for w in words[1:]:
        key, _, value = w.partition("=")
        fields[key] = value
    return words[0], fields


def of(lines, tag, **match):
    """The fields of every line with `tag` whose fields equal `match`."""
    return [f for t, f in lines if t == tag and all(f.get(k) == v for k, v in match.items())]


def one(lines, tag):
    found = of(lines, tag)
    return found[0] if len(found) == 1 else {}
