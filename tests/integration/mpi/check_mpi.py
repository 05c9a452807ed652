#!/usr/bin/env python3
"""MPI end to end with Debian's Open MPI: `mpirun -np 4 rocprofv3 --marker-trace -d out/%rank%
-- mpi_app` writes one database per rank; `rocpd merge` makes one timeline of them. Checked with
sqlite3 and protoc: every rank's ranges once, rank ids right, the ranks' barrier exits within a
few ms of each other after alignment, `rocpd summary --summary-by-rank` equal to each rank's -S
table, and a merged Perfetto trace with one process per rank ("rank N (host, pid)") and its
threads. Also `--profile-mpi-ranks` (unselected ranks run unprofiled).

Usage: check_mpi.py --build-dir DIR --app MPI_APP --proto PROTO --work-dir DIR --case NAME
"""
import argparse
import csv
import glob
import os
import re
import shutil
import sqlite3
import subprocess
import sys

failures = []
RANKS = 4
ALIGNMENT_NS = 5_000_000  # "within a few ms"
CAUSALITY_NS = 100_000  # clock offsets are measured to well under a microsecond


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def run(cmd, **kw):
    print("running: " + " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)
    sys.stdout.write(p.stdout[-3000:])
    sys.stderr.write(p.stderr[-3000:])
    return p


def mpirun(a, work, extra):
    # Root in CI containers, more ranks than cores, shared-memory transport only.
    env = dict(os.environ, OMPI_MCA_btl="self,vader", OMPI_MCA_plm_rsh_agent="",
               OMPI_MCA_btl_vader_single_copy_mechanism="none",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    rocprofv3 = os.path.join(a.build_dir, "bin", "rocprofv3")
    return run(["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", str(RANKS), rocprofv3,
                *extra, "--", a.app], cwd=work, env=env)


def s_table(path):
    """MARKER_API rows of a -S summary file: name -> (calls, total ns)."""
    rows = {}
    with open(path) as f:
        for line in f:
            cells = [c.strip() for c in line.split("|")]
            if len(cells) > 5 and cells[2] == "MARKER_API":
                rows[cells[1]] = (int(cells[3]), int(cells[4]))
    return rows


def case_merge(a, work):
    p = mpirun(a, work, ["--marker-trace", "-S", "--summary-output-file", "summary",
                         "-d", "out/%rank%", "-o", "run"])
    check(p.returncode == 0, f"mpirun -np {RANKS} rocprofv3 exit 0 ({p.returncode})")
    dbs = [os.path.join(work, "out", str(r), "run_results.db") for r in range(RANKS)]
    check(all(os.path.exists(d) for d in dbs), "one database per rank under out/%rank%")
    rocpd = os.path.join(a.build_dir, "bin", "rocpd")
    p = run([rocpd, "merge", "-i", *dbs, "-d", os.path.join(work, "out"), "-o", "merged"])
    check(p.returncode == 0, "rocpd merge exit 0")
    merged = os.path.join(work, "out", "merged.db")
    db = sqlite3.connect(merged)

    ranks = [v for (v,) in db.execute("SELECT value FROM rocpd_metadata WHERE tag='mpi_rank'")]
    rank_of_pid = {}
    for r in range(RANKS):
        one = sqlite3.connect(dbs[r])
        pid = one.execute("SELECT pid FROM rocpd_info_process").fetchone()[0]
        rank = one.execute("SELECT value FROM rocpd_metadata WHERE tag='mpi_rank'").fetchone()
        check(rank is not None and int(rank[0]) == r, f"database of rank {r} says mpi_rank {r}")
        rank_of_pid[pid] = r
    check(sorted(int(k) for k in ranks) == list(range(RANKS)), f"merged ranks 0..{RANKS - 1}")

    rows = db.execute("SELECT pid, json_extract(extdata, '$.message'), start, end FROM "
                      "regions WHERE category LIKE 'MARKER_%'").fetchall()
    for r in range(RANKS):
        pid = [p for p, rk in rank_of_pid.items() if rk == r][0]
        names = sorted(m for p, m, _, _ in rows if p == pid and m.startswith("rank"))
        check(names == [f"rank{r}_compute_{i}" for i in range(3)],
              f"rank {r}'s ranges once each, on its own process ({names})")
        others = [m for p, m, _, _ in rows if p != pid and m.startswith(f"rank{r}_")]
        check(not others, f"rank {r}'s ranges on no other process")
    # Aligned clocks: no rank leaves a barrier before the last one entered it (a wrong offset
    # breaks this), and the exits lie within a few ms of each other. Ranks share two cores with
    # other work here, so a descheduled rank may leave one barrier late: the tightest barrier
    # counts for the spread.
    spreads = []
    for n in range(4):
        starts = {p: s for p, m, s, _ in rows if m == f"barrier_{n}"}
        ends = {p: e for p, m, _, e in rows if m == f"barrier_{n}"}
        check(len(ends) == RANKS, f"barrier_{n} recorded on every rank ({len(ends)})")
        if len(ends) != RANKS:
            continue
        check(min(ends.values()) >= max(starts.values()) - CAUSALITY_NS,
              f"barrier_{n}: every exit after the last entry (earliest exit - last entry = "
              f"{(min(ends.values()) - max(starts.values())) / 1e6:.3f} ms)")
        spreads.append(max(ends.values()) - min(ends.values()))
        print(f"     barrier_{n} exits spread over {spreads[-1] / 1e6:.3f} ms")
    check(spreads and min(spreads) < ALIGNMENT_NS,
          f"barrier exits of the {RANKS} ranks within {ALIGNMENT_NS / 1e6:.0f} ms "
          f"(tightest: {min(spreads or [0]) / 1e6:.3f} ms)")

    out = os.path.join(work, "summary")
    p = run([rocpd, "summary", "-i", merged, "--summary-by-rank", "-f", "csv", "-d", out])
    check(p.returncode == 0, "rocpd summary --summary-by-rank exit 0")
    per_rank = {}
    with open(os.path.join(out, "markers_summary_by_rank.csv"), newline="") as f:
        for row in csv.DictReader(f):
            per_rank.setdefault(int(row["ProcessID"]), {})[row["Name"]] = (
                int(row["Calls"]), int(row["DURATION (nsec)"]))
    for pid, r in rank_of_pid.items():
        expected = s_table(os.path.join(work, "out", str(r), "run_summary.txt"))
        check(per_rank.get(pid) == expected and expected,
              f"rank {r}: per-rank summary equals its -S table ({len(expected)} names)")

    p = run([rocpd, "convert", "-i", merged, "-f", "pftrace", "-d", os.path.join(work, "out"),
             "-o", "merged"])
    check(p.returncode == 0, "rocpd convert of the merged database to Perfetto")
    with open(os.path.join(work, "out", "merged_results.pftrace"), "rb") as f:
        d = subprocess.run(["protoc", f"--proto_path={os.path.dirname(a.proto)}",
                            "--decode=perfetto.protos.Trace", os.path.basename(a.proto)],
                           stdin=f, capture_output=True, text=True)
    check(d.returncode == 0, "protoc decodes the merged trace")
    names = re.findall(r'process_name: "([^"]*)"', d.stdout)
    thread_pids = set(int(x) for x in re.findall(r"thread \{\s*pid: (\d+)", d.stdout))
    host = sqlite3.connect(dbs[0]).execute("SELECT hostname FROM rocpd_info_node").fetchone()[0]
    for pid, r in rank_of_pid.items():
        check(f"rank {r} ({host}, {pid})" in names, f"process track 'rank {r} ({host}, {pid})'")
        check(pid in thread_pids, f"thread tracks of rank {r} (pid {pid})")


def case_select(a, work):
    p = mpirun(a, work, ["--marker-trace", "--profile-mpi-ranks", "1,3", "-d", "out/%rank%",
                         "-o", "run"])
    check(p.returncode == 0, "mpirun with --profile-mpi-ranks 1,3 exit 0")
    made = sorted(int(os.path.basename(os.path.dirname(d)))
                  for d in glob.glob(os.path.join(work, "out", "*", "run_results.db")))
    check(made == [1, 3], f"only ranks 1 and 3 profiled ({made})")


def main():
    ap = argparse.ArgumentParser()
    for opt in ("--build-dir", "--app", "--proto", "--work-dir", "--case"):
        ap.add_argument(opt, required=True)
    a = ap.parse_args()
    work = os.path.join(a.work_dir, a.case)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    if shutil.which("mpirun") is None:
        check(False, "mpirun found (scripts/setup.sh installs openmpi-bin)")
    else:
        globals()["case_" + a.case](a, work)
    print(f"mpi.{a.case}: {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
