#!/usr/bin/env bash
# ctest helper: starts `ibsc run` with two long load points, kills the parent alone with SIGNAL
# once both worker processes run, and passes when the workers die within 5 s and no
# ibsc-point-* file is left in TMPDIR (nor ever visible there).
# Usage: workers_die_with_parent.sh IBSC SCENARIO WORKDIR SIGNAL
set -um  # -m: a background job keeps SIGINT (non-interactive shells ignore it in background jobs)
ibsc=$1 scenario=$2 work=$3 sig=$4
rm -rf "$work" && mkdir -p "$work/tmp"
children() {  # pids whose parent is $1 (from /proc: no procps needed)
  local f pid comm state ppid rest
  for f in /proc/[0-9]*/stat; do
    read -r pid comm state ppid rest <"$f" 2>/dev/null || continue
    [ "$ppid" = "$1" ] && [ "$state" != Z ] && echo "$pid"
  done
}
alive() { [ -r "/proc/$1/stat" ] && ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null; }
TMPDIR="$work/tmp" "$ibsc" run "$scenario" --quiet --jobs 2 --out "$work/out" \
  --set "sweep.loads=[0.1,0.2]" --set run.window_ns=1000000000 &
parent=$!
kids=""
for _ in $(seq 200); do
  kids=$(children "$parent")
  [ "$(echo "$kids" | wc -w)" -ge 2 ] && break
  sleep 0.05
done
if [ "$(echo "$kids" | wc -w)" -lt 2 ]; then
  kill -KILL "$parent"
  echo "FAIL: the workers did not start"; exit 1
fi
sleep 0.3  # let them elaborate and simulate
leftover=$(ls -A "$work/tmp")
kill "-$sig" "$parent"
wait "$parent" 2>/dev/null
for _ in $(seq 100); do
  still=""
  for k in $kids; do alive "$k" && still="$still $k"; done
  [ -z "$still" ] && break
  sleep 0.05
done
if [ -n "$still" ]; then
  for k in $still; do kill -KILL "$k"; done
  echo "FAIL: workers$still outlived their parent (SIG$sig)"; exit 1
fi
if [ -n "$leftover$(ls -A "$work/tmp")" ]; then
  echo "FAIL: files in TMPDIR: $leftover $(ls -A "$work/tmp")"; exit 1
fi
echo "PASS: workers" $kids "died with their parent (SIG$sig); TMPDIR empty"
