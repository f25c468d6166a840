#!/usr/bin/env python3
"""Replays the saturation search's stepping on the talk-scale cells already searched.

    bench/search_replay.py [--points reports/large-direct/talk-scale-adaptive/points.csv]

For each cell of points.csv (every probe of a talk-scale search: offered load, accepted
fraction, verdict), a fabric is modelled from the probes: saturation at the highest carried
step, and a saturated probe's accepted traffic interpolated between the probes' (the highest
probe's beyond them). The search of tb/run/saturation_search.cpp (mirrored here, the gallop
only) runs from the cell's guess, its stand-in's step in reports/large-direct/saturation.csv,
under three rules for a saturated probe's accepted step:
  gallop    not used (the search before 2026-11-30);
  restart   the gallop starts again there whenever it is below the next step;
  knee      only when the probe also carried less than 80% of its load (the rule in use).
Prints each cell's probe count under each rule and the totals; every rule must find the cell's
own result (the replay asserts it). A model: a real probe's accepted traffic between the probes
run is not known, so these are counts to compare rules, not a prediction of a run.
"""
import argparse
import collections
import csv
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
GRID = 128


def search(guess, probe, rule):
    b = {"lo": 0, "hi": GRID + 1, "acc": -1, "n": 0}

    def run(step):
        sat, acc = probe(step)
        b["n"] += 1
        b["hi" if sat else "lo"] = step
        b["acc"] = acc if sat else -1
        return sat

    start = guess
    while b["lo"] < start < b["hi"]:
        up = not run(start)
        start, d = -1, 1
        while b["hi"] - b["lo"] > 1:
            lo, hi, acc = b["lo"], b["hi"], b["acc"]
            nxt = min(lo + d, hi - 1) if up else max(hi - d, lo + 1)
            if not up and lo < acc < nxt and (rule == "restart" or (rule == "knee" and 5 * acc < 4 * hi)):
                start = acc
                break
            if run(nxt) == up:
                break
            d *= 2
    while b["hi"] - b["lo"] > 1:
        run((b["lo"] + b["hi"]) // 2)
    return b["lo"], b["n"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--points", default=os.path.join(HERE, "..", "reports", "large-direct", "talk-scale-adaptive",
                                                     "points.csv"))
    ap.add_argument("--stand-ins", default=os.path.join(HERE, "..", "reports", "large-direct", "saturation.csv"))
    a = ap.parse_args()
    stand = {(r["routing"], r["pattern"]): int(r["ours_step"]) for r in csv.DictReader(open(a.stand_ins))}
    cells = collections.defaultdict(list)
    for r in csv.DictReader(open(a.points)):
        cells[r["experiment"]].append((float(r["offered_load"]), float(r["accepted_fraction"]), r["saturated"] == "true"))
    rules = ("gallop", "restart", "knee")
    total = collections.Counter()
    print("%-32s %5s %5s  %s" % ("cell", "step", "guess", "  ".join("%7s" % r for r in rules)))
    for name, pts in cells.items():
        _, routing, pattern, _ = name.split("-")
        pts.sort()
        carried = [o for o, _, sat in pts if not sat]
        threshold = round(max(carried) * GRID) if carried else 0

        def accepted_at(load):
            if load <= pts[0][0]:
                return pts[0][1] * load / pts[0][0]
            for (x0, a0, _), (x1, a1, _) in zip(pts, pts[1:]):
                if x0 <= load <= x1:
                    return a0 + (a1 - a0) * (load - x0) / (x1 - x0) if x1 > x0 else a0
            return pts[-1][1]

        def probe(step):
            sat = step > threshold
            return sat, int(math.floor(min(accepted_at(step / GRID), 1.0) * GRID)) if sat else -1

        counts = []
        for rule in rules:
            found, n = search(stand[(routing, pattern)], probe, rule)
            assert found == threshold, (name, rule, found, threshold)
            counts.append(n)
            total[rule] += n
        print("%-32s %5d %5d  %s" % (name, threshold, stand[(routing, pattern)], "  ".join("%7d" % n for n in counts)))
    print("%-32s %11s  %s" % ("total probes", "", "  ".join("%7d" % total[r] for r in rules)))


if __name__ == "__main__":
    main()
