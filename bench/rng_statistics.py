#!/usr/bin/env python3
"""Does a change of random generator change the statistics? Runs each golden scenario
(tests/golden/*.yaml, at its own fixed loads: sweep.refine=0) over many seeds with two ibsc
binaries and compares, per scenario, load and metric, the means over seeds: the difference and
its 95% confidence interval (Welch's t). A difference whose interval holds 0 is "unchanged
within its confidence interval"; at 95% about one comparison in 20 misses by chance alone, so
the script prints how many missed against how many chance would explain.

Written for issue 35's generator change (mt19937_64 -> PCG64, models/random_stream.h): keep the
binary of the commit before the change (the results of a golden are byte-identical only for one
generator) and pass it as --before.

  bench/rng_statistics.py --before /tmp/ibsc_mt --after build/tb/ibsc [--seeds 20] [--only NAME]
"""
import argparse
import glob
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
METRICS = [
    ("accepted_fraction", "accepted", 4),
    ("avg_latency_ns", "avg ns", 0),
    ("p99_latency_ns", "p99 ns", 0),
    ("max_link_utilisation", "max link", 4),
]
# Two-sided 97.5% quantiles of Student's t for small degrees of freedom; 1.96 above 120.
T975 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23,
        12: 2.18, 15: 2.13, 20: 2.09, 25: 2.06, 30: 2.04, 40: 2.02, 60: 2.00, 120: 1.98}


def t975(df):
    for k in sorted(T975):
        if df <= k:
            return T975[k]
    return 1.96


def run(ibsc, scenario, seed, out):
    cmd = [ibsc, "run", scenario, "--seed", str(seed), "--set", "sweep.refine=0", "--quiet",
           "--jobs", "1", "--out", out]
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stderr}")
    with open(os.path.join(out, "results.json")) as f:
        return {p["offered_load"]: p for p in json.load(f)["points"]}


def welch(a, b):
    """Difference of means b - a and the half-width of its 95% interval."""
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
    se = math.sqrt(va + vb)
    if se == 0:
        return mb - ma, 0.0
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    return mb - ma, t975(df) * se


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True, help="ibsc binary with the old generator")
    ap.add_argument("--after", default=os.path.join(ROOT, "build/tb/ibsc"), help="ibsc binary with the new one")
    ap.add_argument("--seeds", type=int, default=20, help="seeds per scenario and binary (default 20)")
    ap.add_argument("--only", default="", help="golden scenarios whose name contains this")
    args = ap.parse_args()
    for b in (args.before, args.after):
        if not os.access(b, os.X_OK):
            sys.exit(f"rng_statistics: {b} is not an executable ibsc")
    scenarios = [s for s in sorted(glob.glob(os.path.join(ROOT, "tests/golden/*.yaml"))) if args.only in s]
    compared = missed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for scen in scenarios:
            name = os.path.splitext(os.path.basename(scen))[0]
            runs = {"before": [], "after": []}
            for seed in range(1, args.seeds + 1):
                for side, binary in (("before", args.before), ("after", args.after)):  # alternate
                    runs[side].append(run(binary, scen, seed, os.path.join(tmp, side)))
            print(f"\n{name}: {args.seeds} seeds each; mean before, mean after, difference +- 95% interval")
            for load in sorted(runs["before"][0]):
                cells = []
                for key, label, digits in METRICS:
                    a = [r[load][key] for r in runs["before"]]
                    b = [r[load][key] for r in runs["after"]]
                    d, hw = welch(a, b)
                    ok = abs(d) <= hw
                    compared += 1
                    missed += not ok
                    cells.append(f"{label} {statistics.fmean(a):.{digits}f} {statistics.fmean(b):.{digits}f} "
                                 f"{d:+.{digits}f}+-{hw:.{digits}f}{'' if ok else ' OUTSIDE'}")
                print(f"  load {load:.3f}: " + "; ".join(cells))
    print(f"\n{compared} comparisons, {missed} outside their 95% interval (chance alone: about "
          f"{compared * 0.05:.1f}, and up to {compared * 0.05 + 2 * math.sqrt(compared * 0.05 * 0.95):.1f} "
          f"in 97.5% of trials)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
