#!/usr/bin/env bash
# ctest helper (issue 37): two runs into one output folder, and --waves beside a sweep.
#   lock:  run A holds --out; run B into the same folder, started while A runs, is refused at
#          once naming A's pid, and A's results are complete afterwards (nothing lost), with no
#          lock file left behind.
#   waves: a --waves run without --out writes out/NAME-waves and leaves the sweep's
#          out/NAME/results.json byte for byte as it was.
# Usage: concurrent_writers.sh IBSC SCENARIO WORKDIR lock|waves
set -u
ibsc=$1 scenario=$2 work=$3 mode=$4
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
if [ "$mode" = lock ]; then
  "$ibsc" run "$scenario" --quiet --jobs 1 --out shared --set run.window_ns=100000000 >a.log 2>&1 &
  a=$!
  for _ in $(seq 400); do  # up to 20 s for A to take the folder
    [ "$(cat shared/.ibsc.lock 2>/dev/null)" = "$a" ] && break
    kill -0 "$a" 2>/dev/null || break
    sleep 0.05
  done
  [ "$(cat shared/.ibsc.lock 2>/dev/null)" = "$a" ] || { kill "$a"; fail "run A never held shared/.ibsc.lock"; }
  "$ibsc" run "$scenario" --quiet --jobs 1 --out shared >b.log 2>&1
  b_rc=$?
  kill -0 "$a" 2>/dev/null || fail "run A ended before run B was refused: the test proves nothing (A too short?)"
  wait "$a"
  a_rc=$?
  [ "$b_rc" -ne 0 ] || fail "run B into A's folder exited 0: $(cat b.log)"
  grep -q "^ibsc: error: --out shared: another ibsc (pid $a) is writing into this folder" b.log ||
    fail "run B's message: $(cat b.log)"
  [ "$a_rc" -eq 0 ] || fail "run A exited $a_rc: $(cat a.log)"
  grep -q '"window_ns": 100000000' shared/results.json || fail "A's results.json is not A's: $(head -c 600 shared/results.json)"
  [ -e shared/.ibsc.lock ] && fail "A left its lock file behind"
  echo "PASS: lock (B refused while A ran; A's results complete)"
else
  "$ibsc" run "$scenario" --quiet --jobs 1 >sweep.log 2>&1 || fail "the sweep: $(cat sweep.log)"
  name=$(sed -n 's/^name: *//p' "$scenario")
  [ -f "out/$name/results.json" ] || fail "no out/$name/results.json"
  before=$(sha256sum <"out/$name/results.json")
  "$ibsc" run "$scenario" --quiet --waves w.vcd >waves.log 2>&1 || fail "the waves run: $(cat waves.log)"
  [ "$(sha256sum <"out/$name/results.json")" = "$before" ] || fail "the waves run replaced out/$name/results.json"
  [ -f "out/$name-waves/results.json" ] || fail "the waves run wrote no out/$name-waves/results.json: $(cat waves.log)"
  [ -s w.vcd ] || fail "no w.vcd"
  echo "PASS: waves (out/$name kept, out/$name-waves written)"
fi
