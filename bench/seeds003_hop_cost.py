#!/usr/bin/env python3
"""Issue 13's speed budget on the seeds/003 model: CPU per packet-hop of adaptive routing, and of
adaptive routing with the rearranging NIC (transport.mode: reorder), over the deterministic fabric
(up*/down*, no escape queues, no transport), each the median of --repeat runs.

Each run is one `ibsc run` process of scenarios/seeds003/model.yaml at one load below DET's
saturation (sweep.loads), its CPU time (user + system, routing tables and elaboration included,
as reports/in-order-adaptive/ counts it) over the packet-hops results.json reports: every packet
a switch forwarded, ACKs included. The budget: ADAP+NIC at most x1.5 of DET. Beside it, CPU per
data packet delivered to a host, where the NIC's ACKs count as cost, not as work: one ACK per
delivery doubles the packets. Coalescing ACKs (transport.ack_coalesce) does not change that here:
under uniform traffic at this load a connection sees one packet per ~800 us, so every ACK leaves
alone (measured: 8 packets or 10 us per ACK, 2.86 M packet-hops against 2.88 M).

  bench/seeds003_hop_cost.py [--ibsc build/tb/ibsc] [--load 0.08] [--window-ns 1e8]
                             [--switches 16] [--repeat 3] [--out DIR]
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

CONFIGS = [
    ("DET", ["routing.algorithm=updown-escape", "switch.escape_queue_bytes=0"]),
    ("ADAP", ["routing.algorithm=adaptive-updown", "switch.escape_queue_bytes=256"]),
    ("ADAP+NIC", ["routing.algorithm=adaptive-updown", "switch.escape_queue_bytes=256", "transport.mode=reorder"]),
]


def run_once(args, name, sets, out):
    cmd = [args.ibsc, "run", os.path.join(ROOT, "scenarios/seeds003/model.yaml"), "--jobs", "1", "--quiet",
           "--out", out, "--set", f"sweep.loads=[{args.load}]", "--set", f"run.window_ns={int(args.window_ns)}",
           "--set", f"topology.spec=irregular:{args.switches}:seed=1:hosts=4:ports=8"]
    for s in sets:
        cmd += ["--set", s]
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    with open(os.path.join(out, "results.json")) as f:
        point = json.load(f)["points"][0]
    if point["saturated"]:
        sys.exit(f"{name}: saturated at load {args.load}; choose a lower --load")
    data = point["transport"]["host_packets_delivered"] if "transport" in point else point["packets_delivered"]
    return cpu, point["packet_hops"], data


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ibsc", default=os.path.join(ROOT, "build/tb/ibsc"))
    ap.add_argument("--load", type=float, default=0.08, help="offered load, fraction of link capacity")
    ap.add_argument("--window-ns", type=float, default=1e8, help="run.window_ns")
    ap.add_argument("--switches", type=int, default=16)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default=None, help="keep each run's results here (default: a temporary folder)")
    args = ap.parse_args()
    base = args.out or tempfile.mkdtemp(prefix="seeds003_hop_cost.")
    ns = {}
    per_data = {}
    print("| routing | packet-hops | CPU s (median) | CPU ns per packet-hop | over DET | CPU ns per data packet | over DET |")
    print("|---|---|---|---|---|---|---|")
    for name, sets in CONFIGS:
        runs = [run_once(args, name, sets, os.path.join(base, f"{name}.{i}")) for i in range(args.repeat)]
        cpu = statistics.median(c for c, _, _ in runs)
        hops, data = runs[0][1], runs[0][2]
        ns[name] = cpu / hops * 1e9
        per_data[name] = cpu / data * 1e9
        print(f"| {name} | {hops} | {cpu:.3f} | {ns[name]:.0f} | x{ns[name] / ns['DET']:.2f} "
              f"| {per_data[name]:.0f} | x{per_data[name] / per_data['DET']:.2f} |", flush=True)
    ratio = ns["ADAP+NIC"] / ns["DET"]
    print(f"\nADAP+NIC over DET: x{ratio:.3f} per packet-hop (budget x1.50): {'within' if ratio <= 1.5 else 'OVER'}")


if __name__ == "__main__":
    main()
