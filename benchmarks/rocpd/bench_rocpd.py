#!/usr/bin/env python3
"""rocpd convert (CSV) and summary on one database of N records, timed with their peak memory,
beside AMD's Python rocpd on the same file in the same run when --amd-rocpd names a folder with
its package (rocprofiler-sdk's source/lib/python/rocpd; not shipped here).

AMD's package needs its C++ extension (libpyrocpd) for everything; its summary and query are
SQL plus pandas, so this script gives them a small stand-in module written here (connect, the
schema text, output paths). Its CSV conversion is C++ inside that extension and cannot run
without a ROCm build: the script then times AMD's query of the same rows exported to CSV by
pandas (labelled as such) as the Python-side reference.

Usage: bench_rocpd.py --rocpd BIN --make-db BIN --records N --work-dir DIR
                      [--amd-rocpd DIR --amd-sql DIR --amd-python PYTHON]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import textwrap
import time

SHIM = textwrap.dedent('''
    # Stand-in for AMD's C++ extension, written for this benchmark: only what the summary and
    # query paths use (connections, the schema text, output paths).
    import os, sqlite3
    SQL_DIR = os.environ["ROCPD_BENCH_SQL_DIR"]

    class RocpdImportData:
        def __init__(self, connection, filenames=None):
            if isinstance(connection, RocpdImportData):
                connection, filenames = connection.connection, connection.filenames
            self.connection, self.filenames = connection, filenames

    def connect(path):
        return sqlite3.connect(path)

    class schema_jinja_variables:
        uuid = ""
        guid = ""

    class sql_engine:
        sqlite3 = 0

    class sql_option:
        none = 0
        sqlite3_pragma_foreign_keys = 1

    class sql_schema:
        rocpd_tables, rocpd_indexes = "rocpd_tables", "rocpd_indexes"
        rocpd_views, data_views = "rocpd_views", "data_views"
        summary_views, marker_views = "summary_views", "marker_views"

    def load_schema(engine, kind, options, variables):
        path = os.path.join(SQL_DIR, kind + ".sql")
        if not os.path.exists(path):
            return ""
        text = open(path).read()
        return text.replace("{{uuid}}", variables.uuid).replace("{{guid}}", variables.guid)

    def format_path(path, tag=""):
        return path

    class agent_indexing:
        node, logical_node, logical_node_type = 0, 1, 2

    class output_config:
        # Every setting the Python side sets or reads exists (None until set).
        def __getattr__(self, name):
            return None
''')


def timed(cmd, env=None):
    """Runs cmd; returns (CPU seconds (user + system), peak RSS in MiB, exit code) and prints
    the wall-clock time too. CPU time is what the comparisons use: on a shared, loaded machine
    the wall clock mostly measures the wait for a core."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    out, err = proc.stdout.read(), proc.stderr.read()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.stderr.write(f"{' '.join(cmd)} failed ({code}):\n{err[-2000:]}\n")
    cpu = usage.ru_utime + usage.ru_stime
    print(f"  ({os.path.basename(cmd[0])} {' '.join(cmd[1:3])}: wall {elapsed:.2f} s, "
          f"CPU {cpu:.2f} s)")
    return cpu, usage.ru_maxrss / 1024.0, code


def amd_env(a, work):
    """A copy of AMD's package with the stand-in extension beside it."""
    pkg = os.path.join(work, "amd_pkg", "rocpd")
    shutil.rmtree(os.path.dirname(pkg), ignore_errors=True)
    shutil.copytree(a.amd_rocpd, pkg, ignore=shutil.ignore_patterns("*.so", "*.cpp", "*.hpp",
                                                                     "source", "CMakeLists.txt"))
    with open(os.path.join(pkg, "libpyrocpd.py"), "w") as f:
        f.write(SHIM)
    # The package's __init__.py is a CMake template: fill its @VARIABLES@ as a configure would.
    init = os.path.join(pkg, "__init__.py")
    with open(init) as f:
        text = f.read()
    text = re.sub(r'int\("@[A-Z_]+@"\)', "0", text)
    text = re.sub(r"@[A-Z_]+@", "", text)
    with open(init, "w") as f:
        f.write(text)
    if not os.path.exists(os.path.join(pkg, "version_info.py")):
        with open(os.path.join(pkg, "version_info.py"), "w") as f:
            f.write("def main(*a, **k):\n    pass\n")
    env = dict(os.environ, PYTHONPATH=os.path.dirname(pkg), ROCPD_BENCH_SQL_DIR=a.amd_sql)
    return env


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rocpd", required=True)
    ap.add_argument("--make-db", required=True)
    ap.add_argument("--records", type=int, default=10_000_000)
    ap.add_argument("--work-dir", required=True)
    ap.add_argument("--amd-rocpd", help="folder of AMD's rocpd Python package")
    ap.add_argument("--amd-sql", help="folder of AMD's rocpd schema .sql files")
    ap.add_argument("--amd-python", default="/usr/bin/python3")
    a = ap.parse_args()
    work = os.path.abspath(a.work_dir)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    start = time.perf_counter()
    made = subprocess.run([a.make_db, "--records", str(a.records), "--out", work],
                          capture_output=True, text=True)
    if made.returncode != 0:
        sys.exit("make_bench_db failed: " + made.stderr)
    db = made.stdout.strip()
    size = os.path.getsize(db) / 2**20
    print(f"database: {a.records} records ({2 * a.records} rows: regions/samples + events), "
          f"{size:.0f} MiB, written in {time.perf_counter() - start:.1f} s")

    results = {}
    results["ours csv"] = timed([a.rocpd, "convert", "-i", db, "-f", "csv", "-d",
                                 os.path.join(work, "ours_csv"), "-o", "out"])
    results["ours summary"] = timed([a.rocpd, "summary", "-i", db, "-f", "csv", "-d",
                                     os.path.join(work, "ours_summary")])
    rows = a.records
    for name in ("ours csv", "ours summary"):
        seconds, rss, code = results[name]
        print(f"{name:14}: {seconds:8.2f} CPU s  {rows / seconds / 1e6:6.2f} M records/s per "
              f"core  peak RSS {rss:7.1f} MiB  exit {code}")
    failed = any(r[2] != 0 for r in results.values())

    if a.amd_rocpd:
        can = subprocess.run([a.amd_python, "-c", "import pandas"], capture_output=True)
        if can.returncode != 0:
            print("AMD rocpd: not run (pandas missing for " + a.amd_python + ")")
        else:
            env = amd_env(a, work)
            base = [a.amd_python, "-m", "rocpd"]
            amd = {
                "AMD summary": timed(base + ["summary", "-i", db, "-f", "csv", "-d",
                                             os.path.join(work, "amd_summary")], env),
                # The rows AMD's CSV writer selects for these records, exported by pandas.
                "AMD query->csv": timed(base + ["query", "-i", db, "--format", "csv", "-d",
                                                os.path.join(work, "amd_csv"), "--query",
                                                "SELECT * FROM regions_and_samples ORDER BY "
                                                "start ASC, end DESC"], env),
            }
            for name, (seconds, rss, code) in amd.items():
                print(f"{name:14}: {seconds:8.2f} CPU s  {rows / seconds / 1e6:6.2f} M "
                      f"records/s per core  peak RSS {rss:7.1f} MiB  exit {code}")
            if amd["AMD summary"][2] == 0:
                print(f"summary speed-up: {amd['AMD summary'][0] / results['ours summary'][0]:.1f}x")
            if amd["AMD query->csv"][2] == 0:
                print(f"CSV speed-up vs AMD's query->csv: "
                      f"{amd['AMD query->csv'][0] / results['ours csv'][0]:.1f}x")
            print("AMD CSV conversion itself: not run (C++ extension libpyrocpd.write_csv)")
    else:
        print("AMD rocpd: not run (give --amd-rocpd DIR --amd-sql DIR)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
