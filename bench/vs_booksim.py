#!/usr/bin/env python3
"""IBSC against BookSim2, per packet-hop, side by side (issue 35).

    bench/vs_booksim.py [--booksim PATH] [--fabric-bench build/bench/fabric_bench] [--runs 5]
                        [--tori 8x8,4x4x4,16x16] [--record] [--sim-only] [--together]

The three tori of the issue, dimension-order routing (IBSC's e-cube, BookSim's dim_order_torus),
uniform traffic, 512-byte packets (BookSim: 16 flits of 32 bytes), each simulator at 50% of its
own saturation load. Runs alternate (IBSC, BookSim, IBSC, ...) so that the machine's drift
(the VM's neighbours) hits both alike; each figure is the median of --runs runs, and below it
the median and range of the run-by-run ratios (each IBSC run against the BookSim2 run after it).
--together runs both at once instead, one per core (taskset; the cores swap run by run): IBSC
runs over and over on one core for as long as a BookSim2 run lasts on the other, and its runs
are pooled. Both then meet the same neighbours at the same time, which on this VM moved the
one-after-the-other ratio by up to 2x from run to run; each pays for the other's use of the
shared cache and memory, as the two simulations of a study would.

What is matched (the rest is each simulator's own default):
  topology   one node per router (fabric_bench --hosts-per-switch 1), k-ary n-cube with wrap;
  buffers    2 VLs / VCs (the dateline needs two) of 2,048 bytes = 64 flits each, 4 packets;
  load       each at half of its own saturation load (bench/booksim_figures.json holds both,
             measured as "saturation" there says);
  length     runs of a few CPU seconds, so that set-up (routing, elaboration) is under 2%.
Packet-hops are counted alike on both sides: a packet crossing a router (switch) is one hop,
the source's and the destination's routers included, i.e. distance + 1 per packet.
  IBSC:    fabric_bench's hop count (one per switch grant) over the simulated interval.
  BookSim: the tail flit's router count (its "Hops average", one per router crossed) times
           the packets accepted: "Accepted packet rate average" (packets/cycle/node) x nodes x
           "Time taken" cycles (warm-up, measurement and drain alike: below saturation
           injection goes on at the offered rate throughout, and accepted equals offered).
Cost is the child process's CPU seconds (user + system, from wait4), whole process on both
sides, so set-up counts for both; ns per packet-hop = CPU s / packet-hops.
--sim-only: IBSC's cost is its simulation alone (fabric_bench's cpu_s: from time 0 to the end,
first touch of the queues included; not routing or elaboration), BookSim2's
still its whole process. For the large tori (10x10x10, 25x25x25: 1,000 and 15,625 nodes), where
IBSC's set-up (its LFTs: 4 bytes per switch and LID, 1.95 GB at 15,625 switches) takes tens of CPU
seconds that a run of a few seconds would not spread, while BookSim2 computes routes per packet.
The set-up is then printed apart.

Without --booksim (or when PATH has no binary) the script says so, runs IBSC alone and prints
its figures beside the last BookSim2 figures measured (bench/booksim_figures.json, dated).
--record writes the BookSim2 medians of this run into that file.
BookSim2 is built from its public source in a temporary folder (nothing of it is kept here):
  (cd /tmp/booksim/src && make)   # needs bison and flex; the binary is src/booksim
"""
import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "booksim_figures.json")

BOOKSIM_CONFIG = """
topology = torus;
k = {k};
n = {n};
routing_function = dim_order;
num_vcs = 2;
vc_buf_size = 64;
traffic = uniform;
packet_size = 16;
injection_rate = {rate};
injection_rate_uses_flits = 0;
sim_type = latency;
sample_period = {sample_period};
warmup_periods = 3;
max_samples = 10;
seed = 1;
"""


def run_child(cmd, ok=(0,), pin=None, meanwhile=None):
    """Runs cmd (on CPU `pin` when given), returns (stdout, CPU seconds of the child); exit codes
    other than ok fail. meanwhile(), when given, is called over and over (at least once) until
    the child has ended."""
    if pin is not None:
        cmd = ["taskset", "-c", str(pin)] + cmd
    with tempfile.TemporaryFile(mode="w+") as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        done = 0
        while meanwhile and not done:  # wait4, not poll(): only wait4 gives the child's CPU
            meanwhile()
            done, status, ru = os.wait4(p.pid, os.WNOHANG)
        if not done:
            _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read()
    if p.returncode not in ok:
        sys.exit("vs_booksim: %s failed (exit %d):\n%s" % (" ".join(cmd), p.returncode, text[-2000:]))
    return text, ru.ru_utime + ru.ru_stime


def ibsc_run(bench, torus, sat, sim_us, pin=None):
    """(packet-hops, whole process CPU s, simulation CPU s) of one fabric_bench point."""
    text, cpu = run_child([bench, "--dims", torus, "--hosts-per-switch", "1", "--only", "0.5", "--sat",
                           str(sat), "--sim-us", str(sim_us)], pin=pin)
    m = re.search(r"^hops (\S+) cpu_s (\S+)", text, re.M)
    if not m:
        sys.exit("vs_booksim: no hop count in fabric_bench's output:\n" + text)
    return float(m.group(1)), cpu, float(m.group(2))


def booksim_run(binary, torus, rate, sample_period, pin=None, meanwhile=None):
    dims = [int(x) for x in torus.split("x")]
    nodes = 1
    for d in dims:
        nodes *= d
    with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as f:
        f.write(BOOKSIM_CONFIG.format(k=dims[0], n=len(dims), rate=rate, sample_period=sample_period))
        cfg = f.name
    try:
        # BookSim2's main returns -1 (255) when its run succeeded, 0 when it did not.
        text, cpu = run_child([binary, cfg], ok=(0, 255), pin=pin, meanwhile=meanwhile)
    finally:
        os.unlink(cfg)
    if "unstable" in text or "Total run time" not in text:
        sys.exit("vs_booksim: BookSim2 found %s unstable at %g packets/cycle/node" % (torus, rate))
    figures = [re.findall(pattern, text) for pattern in
               (r"Time taken is (\d+) cycles", r"Accepted packet rate average = (\S+)", r"Hops average = (\S+)")]
    if not all(figures):
        sys.exit("vs_booksim: BookSim2's output on %s lacks its cycle count, accepted rate or hop average "
                 "(another BookSim2 version?); its last lines:\n%s" % (torus, "\n".join(text.splitlines()[-8:])))
    cycles, accepted, hops = (float(f[-1]) for f in figures)
    return accepted * nodes * cycles * hops, cpu


def booksim_saturation(binary, torus, sample_period=1000, steps=7):
    """BookSim2's own saturation: bisection of the packet rate (0 .. 1/16 packets/cycle/node, a
    flit per cycle) between the runs it finishes and those it calls unstable (its latency above
    latency_thres, 500 cycles, or accepted traffic short of the offered)."""
    lo, hi = 0.0, 1.0 / 16
    dims = [int(x) for x in torus.split("x")]
    for _ in range(steps):
        mid = (lo + hi) / 2
        with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as f:
            f.write(BOOKSIM_CONFIG.format(k=dims[0], n=len(dims), rate=mid, sample_period=sample_period))
            cfg = f.name
        try:
            p = subprocess.run([binary, cfg], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        finally:
            os.unlink(cfg)
        # Its main returns -1 (255) after a run, 0 when the run did not end (unstable, judged
        # below); anything else is a crash or a bad configuration, not a saturated network.
        if p.returncode not in (0, 255):
            sys.exit("vs_booksim: BookSim2 exited with %d on %s at %g packets/cycle/node:\n%s"
                     % (p.returncode, torus, mid, "\n".join(p.stdout.splitlines()[-8:])))
        acc = re.findall(r"Accepted packet rate average = (\S+)", p.stdout)
        stable = "unstable" not in p.stdout and acc and float(acc[-1]) >= 0.95 * mid
        lo, hi = (mid, hi) if stable else (lo, mid)
    return hi


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--booksim", help="BookSim2's binary, or its folder (src/booksim inside)")
    ap.add_argument("--fabric-bench", default=os.path.join(HERE, "..", "build", "bench", "fabric_bench"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--tori", default="8x8,4x4x4,16x16")
    ap.add_argument("--record", action="store_true", help="keep this run's BookSim2 figures in " + DATA)
    ap.add_argument("--together", action="store_true",
                    help="run both at once, one per core (cores swapped run by run): IBSC over and over "
                         "while each BookSim2 run lasts, so both meet the same machine")
    ap.add_argument("--sim-only", action="store_true",
                    help="IBSC's cost without its set-up (routing, elaboration), which is printed apart")
    ap.add_argument("--find-saturation", action="store_true",
                    help="BookSim2's saturation of each torus by bisection (printed; with --record kept)")
    a = ap.parse_args()
    with open(DATA) as f:
        data = json.load(f)
    if not os.path.exists(a.fabric_bench):
        sys.exit("vs_booksim: no %s (configure with -DIBSC_BENCH=ON and build fabric_bench)" % a.fabric_bench)
    binary = None
    if a.booksim:
        for c in (a.booksim, os.path.join(a.booksim, "booksim"), os.path.join(a.booksim, "src", "booksim")):
            if os.path.isfile(c) and os.access(c, os.X_OK):
                binary = c
                break
        if not binary:
            print("vs_booksim: no BookSim2 binary at %s; IBSC alone, beside the last BookSim2 figures" % a.booksim)
    else:
        print("vs_booksim: no --booksim PATH given; IBSC alone, beside the last BookSim2 figures")
    if a.record and not binary:
        sys.exit("vs_booksim: --record keeps BookSim2's figures of this run, and there are none without --booksim")
    if a.find_saturation:
        if not binary:
            sys.exit("vs_booksim: --find-saturation needs --booksim")
        for torus in a.tori.split(","):
            sat = booksim_saturation(binary, torus)
            print("%s: BookSim2 saturation %.5f packets/cycle/node" % (torus, sat))
            data["tori"][torus]["booksim_saturation"] = round(sat, 5)
        if a.record:
            with open(DATA, "w") as f:
                json.dump(data, f, indent=2)
                f.write("\n")
        return
    print("%-7s %12s %12s %9s   %s" % ("torus", "IBSC ns/hop", "BookSim ns", "ratio", "BookSim2 figure from"))
    pairs_note = False
    for torus in a.tori.split(","):
        t = data["tori"].get(torus)
        if not t:
            sys.exit("vs_booksim: %s is not in %s" % (torus, DATA))
        ibsc, bs, setup = [], [], []
        for k in range(a.runs):
            if a.together and binary:
                # IBSC on one core for as long as BookSim2 runs on the other: its runs pooled.
                pooled = [0.0, 0.0, 0.0]

                def one_ibsc():
                    h, c, sc = ibsc_run(a.fabric_bench, torus, t["ibsc_saturation"], t["ibsc_sim_us"], pin=1 - k % 2)
                    pooled[0] += h
                    pooled[1] += sc if a.sim_only else c
                    pooled[2] += c - sc

                hops, cpu = booksim_run(binary, torus, 0.5 * t["booksim_saturation"], t["booksim_sample_period"],
                                        pin=k % 2, meanwhile=one_ibsc)
                bs.append(cpu * 1e9 / hops)
                ibsc.append(pooled[1] * 1e9 / pooled[0])
                setup.append(pooled[2])
                continue
            hops, cpu, sim_cpu = ibsc_run(a.fabric_bench, torus, t["ibsc_saturation"], t["ibsc_sim_us"])
            ibsc.append((sim_cpu if a.sim_only else cpu) * 1e9 / hops)
            setup.append(cpu - sim_cpu)
            if binary:
                hops, cpu = booksim_run(binary, torus, 0.5 * t["booksim_saturation"], t["booksim_sample_period"])
                bs.append(cpu * 1e9 / hops)
        i = statistics.median(ibsc)
        if binary:
            b, source = statistics.median(bs), "this run (median of %d)" % a.runs
            if a.record:
                t["booksim_ns_per_hop"] = round(b, 1)
                t["booksim_runs"] = sorted(round(x, 1) for x in bs)
                t["measured"] = datetime.date.today().isoformat()  # per torus: --tori may name a few
                data["measured"] = t["measured"]
                data["machine"] = "%s, %d cores (%s)" % (platform.processor() or platform.machine(), os.cpu_count(),
                                                         platform.node())
        else:
            b, source = t["booksim_ns_per_hop"], "measured %s on %s" % (t.get("measured", data["measured"]),
                                                                          data.get("machine", "?"))
        if not b:
            print("%-7s %12.1f %12s %9s   none measured yet" % (torus, i, "-", "-"))
            continue
        print("%-7s %12.1f %12.1f %8.1fx   %s" % (torus, i, b, b / i, source))
        if binary and a.runs > 1:
            # Each IBSC run and the BookSim2 run after it (or, --together, beside it): their
            # ratio cancels a drift of the machine that the medians above each take whole.
            r = sorted(y / x for x, y in zip(ibsc, bs))
            print("%-7s run by run: %.1fx (median), %.1fx to %.1fx" % ("", statistics.median(r), r[0], r[-1]))
            pairs_note = True
        if a.sim_only:
            print("%-7s IBSC set-up (not counted above): %.1f CPU s, median of %d" % ("", statistics.median(setup), a.runs))
        sys.stdout.flush()
    if pairs_note:
        print("run by run: each IBSC run's ratio to the BookSim2 run that followed it" if not a.together else
              "run by run: each BookSim2 run against the IBSC runs made on the other core while it ran")
    if a.record and binary:
        with open(DATA, "w") as f:
            json.dump(data, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
