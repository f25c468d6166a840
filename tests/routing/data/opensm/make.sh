#!/bin/sh
# Regenerates one dump set: the real OpenSM (3.3.23, Debian) on an ibsim-simulated fabric, in a
# private network namespace so parallel runs cannot share ibsim's socket.
#   usage: make.sh NETFILE OUTDIR [opensm options, e.g. -R ftree -l 1]
# Keeps OpenSM's opensm-subnet.lst, opensm-lfts.dump and opensm.fdbs, ibnetdiscover's output
# with and without --ports, and the log line naming the engine that configured the tables.
set -e
net=$(readlink -f "$1"); out=$(readlink -f "$2"); shift 2
work=$(mktemp -d)
trap "rm -rf $work" EXIT
opensm -c "$work/opensm.conf" >/dev/null 2>&1 || true
# Every file the default config names lives in the run folder: /etc and /var are never touched.
sed -i -e "s|/etc/opensm/[a-z0-9-]*\.conf|$work/none.conf|" -e "s|^log_file .*|log_file $work/opensm.log|" \
       -e "s|^dump_files_dir .*|dump_files_dir $work|" "$work/opensm.conf"
sim=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so
cd "$work"
# OpenSM keeps its LID assignment (guid2lid) in OSM_CACHE_DIR, /var/cache/opensm unless told:
# a fresh one per run, so the LIDs depend on this fabric alone.
export OSM_CACHE_DIR="$work/cache"
mkdir -p "$OSM_CACHE_DIR"
unshare -rn sh -c "ip link set lo up; ibsim -s -N 4096 -S 1024 -P 65536 -n '$net' >ibsim.log 2>&1 & sleep 1
  LD_PRELOAD=$sim timeout 60 opensm -o -F $work/opensm.conf -f $work/opensm.log -D 0x43 --dump_files_dir $work $* >osm.out 2>&1
  LD_PRELOAD=$sim ibnetdiscover >ibnetdiscover.txt 2>ibnd.err
  LD_PRELOAD=$sim ibnetdiscover -p >ibnetdiscover-ports.txt 2>ibnd.err
  kill %1 2>/dev/null || true"
mkdir -p "$out"
cp opensm-subnet.lst opensm-lfts.dump opensm.fdbs ibnetdiscover.txt ibnetdiscover-ports.txt "$out/"
grep -o "[A-Za-z0-9-]* tables configured on all switches" opensm.log > "$out/engine.txt"
