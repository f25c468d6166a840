#!/usr/bin/env bash
# ctest helper (label mpi): `mpirun -n 2` against one process.
#  1. `ibsc run` (a sweep to saturation with bisection) on 2 ranks, 1 and 2 processes each (as
#     wide as the one process, and twice as wide): results.json, results.csv, latency.dat, .gp
#     and .svg byte for byte those of one process; `ibsc route` and `ibsc run --waves` refuse; an
#     unknown key is said once, by rank 0; ranks of two different builds, or reading their
#     scenario from two places, are refused, once.
#     A rank left without an item waits without spinning (its CPU time, not rank 0's).
#  1b. A longer sweep (8x8 torus, 15 ms windows: about a second a point) on 2 ranks with rank 1
#     killed once a point is back while it holds one; the rerun keeps what had finished and
#     writes the results of one process.
#  2. `ibsc reproduce --quick` (seeds/001, 12 of its 20 experiments) on 2 ranks: every file byte for byte
#     that of one process, but for the clock figures (README.md's "in N s", wall and CPU seconds per
#     experiment, saturation.csv's wall_seconds), which differ between any two runs.
#  3. The same with rank 1 killed (SIGKILL) once 4 experiments are finished, while it holds one: mpirun fails, rank 0
#     names rank 1 and the experiment it held; the rerun, with another --jobs (which the record's
#     key leaves out), keeps the finished experiments (says how many), runs the rest and writes
#     the same report; OUT/mpi-progress goes at the end. An experiment finished but whose files
#     are gone runs again, its saturation search's probes taken back from the record.
# Each run writes to the same folder and is moved aside, so that the paths inside the gnuplot
# files match. Usage: mpi_ranks.sh IBSC MPIRUN SOURCE_DIR WORKDIR
set -u
ibsc=$1 mpirun=$2 src=$3 work=$4
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI runs as root
# Shared memory without cross-memory attach, which container sandboxes often forbid (ptrace):
# the ranks exchange an index or a result now and then, so the copy mechanism does not matter.
export OMPI_MCA_btl_vader_single_copy_mechanism=none
mpi=("$mpirun" -n 2 --oversubscribe)
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work"
out="$work/out"

sweep=(run "$src/scenarios/quickstart.yaml" --quiet --out "$out" --set run.warmup_ns=10000 --set run.window_ns=20000)
"$ibsc" "${sweep[@]}" --jobs 2 >"$work/sweep1.log" 2>&1 || fail "one-process sweep: $(tail -3 "$work/sweep1.log")"
mv "$out" "$work/sweep1"
"${mpi[@]}" "$ibsc" "${sweep[@]}" --jobs 1 >"$work/sweep2.log" 2>&1 || fail "2-rank sweep: $(tail -5 "$work/sweep2.log")"
mv "$out" "$work/sweep2"
diff -r "$work/sweep1" "$work/sweep2" || fail "the 2-rank sweep differs from one process"
"${mpi[@]}" "$ibsc" "${sweep[@]}" --jobs 2 >"$work/sweep3.log" 2>&1 || fail "2-rank sweep, 4 wide: $(tail -5 "$work/sweep3.log")"
mv "$out" "$work/sweep3"
diff -r "$work/sweep1" "$work/sweep3" || fail "the 2-rank sweep 4 points wide differs from one process 2 wide"
n=$(grep -c '"offered_load"' "$work/sweep1/results.json")
echo "sweep: $n load points, identical on 2 ranks, 2 and 4 points at once"

# A rank out of items waits without spinning: one load point (about 2 CPU s) on 2 ranks, so rank 1
# gets none and waits for rank 0's result; its CPU time (bash's `times`: its ibsc child) stays a
# small part of rank 0's. Open MPI's blocking calls poll at full speed: before, both took the same.
one=(run "$src/scenarios/quickstart.yaml" --quiet --out "$work/one" --set "sweep.loads=[0.2]" --set run.window_ns=400000000)
# (`times` in the shell itself: in a pipe or $(...) it would time a subshell's children.)
# LC_ALL=C: `times` writes the locale's decimal separator, which awk would not read.
LC_ALL=C "${mpi[@]}" bash -c '"$@" >"$0.log.$OMPI_COMM_WORLD_RANK" 2>&1 || echo "failed"; times >"$0.$OMPI_COMM_WORLD_RANK"' \
  "$work/times" "$ibsc" "${one[@]}" >"$work/one.log" 2>&1 || fail "2-rank one-point run: $(cat "$work/one.log")"
for r in 0 1; do echo "rank $r cpu $(tail -1 "$work/times.$r")" >>"$work/one.log"; done
grep -q failed "$work/one.log" && fail "2-rank one-point run: $(cat "$work/one.log" "$work"/times.log.*)"
# "rank R cpu XmY.YYYs XmZ.ZZZs": user + system seconds.
cpu_of() { awk -v r="$1" '$1 == "rank" && $2 == r { t = 0; for (i = 4; i <= 5; ++i) { split($i, a, "m"); t += a[1] * 60 + a[2] } print t }' "$work/one.log"; }
busy=$(cpu_of 0) idle=$(cpu_of 1)
awk -v b="$busy" -v i="$idle" 'BEGIN { exit !(b > 0.5 && i < 0.3 * b) }' ||
  fail "the rank without an item took $idle CPU s while rank 0 took $busy: $(cat "$work/one.log")"
echo "one point on 2 ranks: rank 0 $busy CPU s, rank 1 (no item, waiting) $idle CPU s"

# Commands with nothing to spread refuse rather than run twice over the same files.
"${mpi[@]}" "$ibsc" route "$src/scenarios/quickstart.yaml" >"$work/route.log" 2>&1 && fail "2-rank ibsc route ran"
grep -q "only \`ibsc run\` and \`ibsc reproduce\` spread their work; start \`ibsc route\` without mpirun" "$work/route.log" ||
  fail "2-rank ibsc route: $(cat "$work/route.log")"
"${mpi[@]}" "$ibsc" run "$src/scenarios/quickstart.yaml" --waves w.vcd --out "$work/waves" >"$work/waves.log" 2>&1 &&
  fail "2-rank ibsc run --waves ran"
[ "$(grep -c -- "--waves runs one load point in one process; start \`ibsc run --waves\` without mpirun" "$work/waves.log")" = 1 ] ||
  fail "2-rank ibsc run --waves, not refused once: $(cat "$work/waves.log")"
[ -e "$work/waves" ] && fail "2-rank ibsc run --waves wrote $work/waves"
# An error every rank meets (a bad key) is said once, by rank 0.
"${mpi[@]}" "$ibsc" run "$src/scenarios/quickstart.yaml" --set no.such_key=1 --out "$work/badkey" >"$work/badkey.log" 2>&1 &&
  fail "2-rank ibsc run with an unknown key ran"
[ "$(grep -c "error: --set no.such_key: key 'no.such_key': unknown key" "$work/badkey.log")" = 1 ] &&
  grep -q "^ibsc: error: --set no.such_key" "$work/badkey.log" || fail "the unknown key, not said once by rank 0: $(cat "$work/badkey.log")"
# Ranks running different builds (here one byte appended to a copy) are refused, once, before
# any work: on a cluster a node left with an older ibsc would give other results unseen.
cp "$ibsc" "$work/ibsc-other" && printf x >>"$work/ibsc-other"
"$mpirun" --oversubscribe -n 1 "$ibsc" "${sweep[@]:0:2}" --out "$work/builds" : -n 1 "$work/ibsc-other" "${sweep[@]:0:2}" \
  --out "$work/builds" >"$work/builds.log" 2>&1 && fail "ranks of two builds ran"
[ "$(grep -c "^ibsc: error: the ranks run different ibsc builds (digests of their binaries: rank 0 .*, rank 1 " \
  "$work/builds.log")" = 1 ] || fail "two builds, not refused once: $(cat "$work/builds.log")"
[ -e "$work/builds" ] && fail "ranks of two builds wrote $work/builds"
# Ranks reading their scenario from other places (each its own working folder, as on two nodes
# whose copies differ) are refused before the first point, naming the file.
mkdir -p "$work/node0" "$work/node1" && cp "$src/scenarios/quickstart.yaml" "$work/node0/s.yaml" &&
  cp "$src/scenarios/quickstart.yaml" "$work/node1/s.yaml"
"$mpirun" --oversubscribe -n 1 --wdir "$work/node0" "$ibsc" run s.yaml --out "$work/inputs" : \
  -n 1 --wdir "$work/node1" "$ibsc" run s.yaml --out "$work/inputs" >"$work/inputs.log" 2>&1 && fail "ranks of two inputs ran"
[ "$(grep -c "^ibsc: error: the ranks read different input files: rank 1 (.*) has 'read $work/node1/s.yaml: " \
  "$work/inputs.log")" = 1 ] || fail "two inputs, not refused once: $(cat "$work/inputs.log")"
[ -e "$work/inputs/results.json" ] && fail "ranks of two inputs wrote results"

# Rank 1 killed (SIGKILL) once it holds an item, and once N items are back (the record in $out).
kill_rank1_after() {
  local n=$1 log=$2 job rank1
  "${mpi[@]}" "$ibsc" "${@:3}" >"$log" 2>&1 &
  job=$!
  for _ in $(seq 1500); do
    [ "$(cat "$out/mpi-progress/finished.jsonl" 2>/dev/null | wc -l)" -ge "$n" ] &&
      grep -A1 '"1": \[' "$out/mpi-progress/held.json" 2>/dev/null | grep -q '"[a-z]' && break
    sleep 0.02
  done
  rank1=$(sed -n 's/.*"[^"]* pid \([0-9]*\)".*/\1/p' "$out/mpi-progress/held.json" 2>/dev/null | sed -n 2p)
  [ -n "$rank1" ] || { kill "$job"; fail "no record of rank 1 in $out/mpi-progress/held.json"; }
  kill -KILL "$rank1"
  wait "$job" && fail "mpirun succeeded with rank 1 killed (did the run end before the kill?)"
  grep -qE "^ibsc: rank 1 \([^)]*pid $rank1\) held: " "$log" || fail "rank 0 did not name rank 1 and what it held: $(cat "$log")"
}

long=(run "$src/scenarios/quickstart.yaml" --quiet --out "$out" --set run.warmup_ns=10000 --set run.window_ns=15000000
  --set topology.spec=torus:8x8:hosts=4:ports=8)
"$ibsc" "${long[@]}" --jobs 2 >"$work/long1.log" 2>&1 || fail "one-process long sweep: $(tail -3 "$work/long1.log")"
mv "$out" "$work/long1"
kill_rank1_after 1 "$work/long2.log" "${long[@]}" --jobs 1
"${mpi[@]}" "$ibsc" "${long[@]}" --jobs 1 >"$work/long3.log" 2>&1 || fail "the sweep's rerun: $(tail -5 "$work/long3.log")"
kept=$(sed -n 's/.*did not finish; \([0-9]*\) finished item(s) are kept.*/\1/p' "$work/long3.log")
[ -n "$kept" ] && [ "$kept" -ge 1 ] || fail "the sweep's rerun did not resume: $(cat "$work/long3.log")"
[ -e "$out/mpi-progress" ] && fail "$out/mpi-progress is left after the sweep's results"
mv "$out" "$work/long3"
diff -r "$work/long1" "$work/long3" || fail "the resumed sweep differs from one process"
echo "sweep rerun: $kept load point(s) kept from the killed run, results those of one process"

# The clock figures and the count of processes out (the rerun below has another --jobs),
# every other byte kept.
normalise() {
  sed -E -i 's/ in [0-9]+ s \([0-9.]+ min\) on [0-9]+ processes;/ in T s (T min) on P processes;/; s/^(\| [^|]+ \| [0-9]+ \| )[0-9.]+ \| [0-9.]+ \|$/\1T | T |/' "$1/README.md"
  awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_seconds") c = i } NR > 1 && c { $c = "T" } 1' \
    "$1/saturation.csv" >"$1/saturation.tmp" && mv "$1/saturation.tmp" "$1/saturation.csv"
}
study=(reproduce "$src/scenarios/seeds001/large-direct.yaml" --quick --out "$out" --only "q-hypercube-*,q-flatfly-DOR-*")
"$ibsc" "${study[@]}" --jobs 2 >"$work/study1.log" 2>&1 || fail "one-process study: $(tail -3 "$work/study1.log")"
mv "$out" "$work/study1" && normalise "$work/study1"
"${mpi[@]}" "$ibsc" "${study[@]}" --jobs 1 >"$work/study2.log" 2>&1 || fail "2-rank study: $(tail -5 "$work/study2.log")"
mv "$out" "$work/study2" && normalise "$work/study2"
diff -r "$work/study1" "$work/study2" || fail "the 2-rank study differs from one process"
echo "study: $(ls "$work/study1/runs" | wc -l) experiments, identical on 2 ranks"

# Rank 1 killed once 4 experiments are back.
kill_rank1_after 4 "$work/study3.log" "${study[@]}" --jobs 1
# Each record line is written after its runs/NAME and without the per-link figures runs/NAME holds.
rec="$out/mpi-progress/finished.jsonl"
[ "$(grep -c 'runs_written' "$rec")" -ge 4 ] || fail "records without runs_written: $(head -c 300 "$rec")"
grep -q 'links\\":\[{' "$rec" && fail "a record keeps per-link figures"
for name in $(grep -o '"key":"q-[^"]*"' "$rec" | cut -d'"' -f4); do
  [ -f "$out/runs/$name/results.json" ] || fail "$name recorded as finished without runs/$name/results.json"
done
# One finished experiment's files lost (say, a `git clean`): the rerun runs it again.
lost=$(grep -o '"key":"q-[^"]*"' "$rec" | head -1 | cut -d'"' -f4)
# Another, kept: its CPU seconds are only in the record, which the rerun removes; the report's
# run-times table must carry them over. The one of most CPU seconds, so that a lost figure
# cannot pass for a small one (0.0).
keep="" keep_cpu=0
for name in $(grep -o '"key":"q-[^"]*"' "$rec" | cut -d'"' -f4); do
  [ "$name" = "$lost" ] && continue
  cpu=$(grep "\"key\":\"$name\"" "$rec" | grep -o 'cpu_seconds\\":[0-9.e+-]*' | cut -d: -f2)
  [ -n "$cpu" ] || fail "no cpu_seconds in the record of $name: $(grep "$name" "$rec" | head -c 300)"
  awk -v a="$cpu" -v b="$keep_cpu" 'BEGIN { exit !(a > b) }' && keep=$name keep_cpu=$cpu
done
keep_cpu=$(LC_ALL=C printf '%.1f' "$keep_cpu")
[ -n "$keep" ] && [ "$keep_cpu" != 0.0 ] || fail "no kept experiment with CPU seconds in the record: $(head -c 300 "$rec")"
rm -r "$out/runs/$lost"
"${mpi[@]}" "$ibsc" "${study[@]}" --jobs 2 >"$work/study4.log" 2>&1 || fail "the rerun: $(tail -5 "$work/study4.log")"
grep -q "^ibsc: $lost: finished by the earlier run, but .*runs/$lost/results.json is missing: it runs again" \
  "$work/study4.log" || fail "the rerun did not run $lost again: $(cat "$work/study4.log")"
kept=$(sed -n 's/.*did not finish; \([0-9]*\) finished item(s) are kept.*/\1/p' "$work/study4.log")
[ -n "$kept" ] && [ "$kept" -ge 4 ] || fail "the rerun did not resume: $(cat "$work/study4.log")"
# Its saturation search's probes were kept as they finished (OUT/mpi-progress/probes): the rerun
# takes them back instead of running them again, and writes the same results.
grep -qE "^ibsc: $lost: [1-9][0-9]* probe\(s\) a stopped run had finished taken back" "$work/study4.log" ||
  fail "the rerun ran the probes of $lost again: $(cat "$work/study4.log")"
ran=$(grep -c '^\[' "$work/study4.log")
echo "rerun: $kept experiments kept from the killed run; $ran reported done"
[ -e "$out/mpi-progress" ] && fail "$out/mpi-progress is left after the report"
grep -qE "^\| $keep \| [0-9]+ \| [0-9.]+ \| $keep_cpu \|$" "$out/README.md" ||
  fail "the report lost $keep's CPU seconds ($keep_cpu in the record): $(grep "^| $keep " "$out/README.md")"
echo "rerun: $keep keeps its recorded $keep_cpu CPU s in the run-times table"
mv "$out" "$work/study4" && normalise "$work/study4"
diff -r "$work/study1" "$work/study4" || fail "the resumed study differs from one process"
echo "PASS"
