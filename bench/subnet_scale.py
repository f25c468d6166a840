#!/usr/bin/env python3
"""Issue 35's memory goals at the size of one InfiniBand subnet: what `ibsc route --check` and
`ibsc run` (20 us of uniform traffic at 50% of link rate) cost on 16,384 hosts (the talk's
flattened butterfly, seeds/001) and on 32,768 hosts (a flattened butterfly 8x8x8x8 and a 3-level
fat tree of radix 64: 36,864 and 35,328 LIDs, near the unicast range's end at 49,151).

Each command runs in its own process; its wall time, CPU time (user + system, its forked load
point included) and peak RSS (the largest of the process and its children, as /usr/bin/time -v
reports it) come from wait4. The run uses scenarios/seeds001/model.yaml (the talk's switch: 8 VLs
of 4 KB in and out, crossbar at twice link rate, 4X QDR), 5 us warm-up, a 15 us window and no
drain. The goals: 16,384 hosts under 1 GB per run; 32,768 hosts within 4 GB and 5 CPU minutes
for route, check and run together. flatfly-16k-rc runs the 16,384 hosts with the reliable
transport (transport.mode reorder, seeds/003's rearranging NIC): its memory grows with the
(source, destination) pairs the traffic has used, about 480 bytes each, so it has no fixed goal
and is left out unless named with --only.

  bench/subnet_scale.py [--ibsc build/tb/ibsc] [--only NAME[,NAME]] [--load 0.5] [--sim-us 20]
"""
import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# name, hosts, topology spec, routing[, further --set]
CASES = [
    ("flatfly-16k", 16384, "flatfly:4x8x8x8:widths=2,1,1,1:hosts=8:ports=36", "dor"),
    ("flatfly-16k-rc", 16384, "flatfly:4x8x8x8:widths=2,1,1,1:hosts=8:ports=36", "dor", ["transport.mode=reorder"]),
    ("flatfly-32k", 32768, "flatfly:8x8x8x8:hosts=8:ports=36", "dor"),
    ("fattree-32k", 32768, "fattree:radix=64,size=32768", "fattree"),
]
GB = 1 << 30


def measure(cmd):
    """Wall s, CPU s and peak RSS (bytes) of one command and its children; its exit code."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    err = p.stderr.read().decode(errors="replace")
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.stderr.write(f"subnet_scale: {' '.join(cmd)} exited {p.returncode}:\n{err[-2000:]}\n")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss * 1024, p.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ibsc", default=os.path.join(ROOT, "build/tb/ibsc"))
    ap.add_argument("--only", default="", help="comma-separated case names: " + ", ".join(c[0] for c in CASES))
    ap.add_argument("--load", type=float, default=0.5)
    ap.add_argument("--sim-us", type=float, default=20.0, help="warm-up 5 us, then the rest as the window")
    args = ap.parse_args()
    if not os.access(args.ibsc, os.X_OK):
        sys.exit(f"subnet_scale: no ibsc at {args.ibsc} (--ibsc PATH)")
    if not 5 < args.sim_us:
        sys.exit("subnet_scale: --sim-us must exceed the 5 us warm-up")
    only = [n for n in args.only.split(",") if n]
    for n in only:
        if n not in [c[0] for c in CASES]:
            sys.exit(f"subnet_scale: --only {n}: not one of {', '.join(c[0] for c in CASES)}")
    print(f"ibsc route --check, then ibsc run ({args.sim_us:g} us, uniform, load {args.load:g}, "
          "scenarios/seeds001/model.yaml); wall s, CPU s, peak RSS")
    print(f"{'case':14} {'hosts':>6} | {'route+check wall':>16} {'CPU':>7} {'RSS MB':>7} | "
          f"{'run wall':>8} {'CPU':>7} {'RSS MB':>7} | goal")
    failed = False
    with tempfile.TemporaryDirectory(prefix="subnet_scale_") as tmp:
        for name, hosts, spec, routing, *more in CASES:
            extra = more[0] if more else []
            if (only and name not in only) or (not only and extra):
                continue
            rw, rc, rr, e1 = measure([args.ibsc, "route", "--topology", spec, "--routing", routing, "--check"])
            window_ns = int((args.sim_us - 5) * 1000)
            sets = [f"topology.spec={spec}", f"routing.algorithm={routing}", f"sweep.loads=[{args.load}]",
                    "run.warmup_ns=5000", f"run.window_ns={window_ns}", "run.drain_ns=0"] + extra
            cmd = [args.ibsc, "run", os.path.join(ROOT, "scenarios/seeds001/model.yaml"), "--jobs", "1", "--quiet",
                   "--out", os.path.join(tmp, name)]
            for s in sets:
                cmd += ["--set", s]
            uw, uc, ur, e2 = measure(cmd)
            if extra:
                ok = True
                goal = "grows with the pairs used: no fixed goal"
            elif hosts <= 16384:
                ok = ur < GB and rr < GB
                goal = "< 1 GB: " + ("met" if ok else "NOT met")
            else:
                ok = max(rr, ur) < 4 * GB and rc + uc < 300
                goal = f"< 4 GB, < 300 CPU s (here {rc + uc:.0f}): " + ("met" if ok else "NOT met")
            failed |= not ok or e1 != 0 or e2 != 0
            print(f"{name:14} {hosts:>6} | {rw:>16.1f} {rc:>7.1f} {rr / 2**20:>7.0f} | {uw:>8.1f} {uc:>7.1f} "
                  f"{ur / 2**20:>7.0f} | {goal}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
