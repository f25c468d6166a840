# Hardening of the run/output side of `ibsc` (issue 19): numbers on the command line, outputs,
# table checks before a run. Uses ibsc_cli_error / ibsc_cli_rejects of CMakeLists.txt.

# Whole-number options: CLI11 alone read "-1" as 2^64-1 (cosim ran for ever) and "010" as 8.
ibsc_cli_error(cosim_negative_cycles "--cycles: expected a whole number in 0..1000000000, found '-1'"
               cosim --ports 4 --vls 2 --cycles -1)
ibsc_cli_error(cosim_absurd_cycles "--cycles: expected a whole number in 0..1000000000, found '1000000001'"
               cosim --ports 4 --vls 2 --cycles 1000000001)
ibsc_cli_error(cosim_negative_seed "--seed: expected a whole number in 0..18446744073709551615, found '-1'"
               cosim --ports 4 --vls 2 --seed -1)
ibsc_cli_error(cosim_seed_above_64_bits "--seed: expected a whole number .*, found '18446744073709551616'"
               cosim --ports 4 --vls 2 --seed 18446744073709551616)
ibsc_cli_error(cosim_negative_trace_from "--trace-from: expected a whole number"
               cosim --ports 4 --vls 2 --vcd ${CMAKE_CURRENT_BINARY_DIR}/neg.vcd --trace-from -3)
ibsc_cli_error(cosim_dump_too_long "--vcd would dump 1000[0-9]+ cycles, about .* GB .*narrow the window"
               cosim --ports 4 --vls 2 --cycles 1000000 --vcd ${CMAKE_CURRENT_BINARY_DIR}/long.vcd)
ibsc_cli_error(route_negative_seed "--seed: expected a whole number" route --topology torus:4x4 --seed -1)
ibsc_cli_error(run_negative_seed "--seed: expected a whole number" run ${_small} --seed -1 ${_o})
ibsc_cli_error(run_negative_jobs "--jobs: expected a whole number in 0..1024, found '-2'" run ${_small} --jobs -2 ${_o})
ibsc_cli_error(reproduce_negative_jobs "--jobs: expected a whole number in 0..1024, found '-1'"
               reproduce ${PROJECT_SOURCE_DIR}/scenarios/seeds000/torus-routing.yaml --jobs -1 --out ${CMAKE_CURRENT_BINARY_DIR}/rep)
# Leading zeros are decimal: 010 random cycles, not 8 (octal).
add_test(NAME ibsc_cli_cosim_cycles_decimal COMMAND ibsc cosim --ports 2 --vls 1 --no-directed --cycles 010)
set_tests_properties(ibsc_cli_cosim_cycles_decimal PROPERTIES PASS_REGULAR_EXPRESSION ": 10 cycles compared")

# Outputs: an unwritable --out is found before any load point runs (a regression would
# simulate the 1-second window first and time out), and sweep workers die with their parent
# leaving no ibsc-point-* file behind (they once kept simulating and left their files in /tmp).
ibsc_cli_error(out_not_writable "--out /proc: cannot write in the output folder"
               run ${_small} --set run.window_ns=1000000000 --quiet --out /proc)
set_tests_properties(ibsc_cli_out_not_writable PROPERTIES TIMEOUT 20)
foreach(sig KILL TERM INT)
  add_test(NAME ibsc_cli_workers_die_with_parent_${sig}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/workers_die_with_parent.sh $<TARGET_FILE:ibsc> ${_small}
                   ${CMAKE_CURRENT_BINARY_DIR}/orphans_${sig} ${sig})
  set_tests_properties(ibsc_cli_workers_die_with_parent_${sig} PROPERTIES PASS_REGULAR_EXPRESSION "PASS: workers" TIMEOUT 60)
endforeach()

# `run` checks the tables as `route --check` does before simulating: an imported LFT dump with
# a loop (ring4_loop_lfts.dump: S(1) sends DLID 3 back to S(0), which sends it to S(1)) and a
# deadlock-prone computed routing (dimension order on one VL around a ring) are refused.
set(_ring4 --set topology.spec=ring:4:hosts=1 --set routing.algorithm=file --set routing.lft_file=${_data}/ring4_loop_lfts.dump)
ibsc_cli_error(run_refuses_looping_lfts
               "key 'routing.lft_file': the tables of routing 'file' fail the checks of .ibsc route --check. .routing loops.; not simulated:.*H0 -> H2: DLID 3 loops at switch S.0."
               run ${_small} ${_ring4} ${_o})
ibsc_cli_error(run_refuses_deadlock_prone_routing
               "key 'routing.algorithm': the tables of routing 'dor1vl' fail .* .a channel dependency cycle: deadlock possible.*cycle .switch port VL"
               run ${_small} --set topology.spec=ring:8 --set routing.algorithm=dor1vl ${_o})

# Fabrics whose tables do not fit are refused at once, with the estimate: voqsw on
# hypercube:8:hosts=128 keeps a path record row per host, 4.4 GB (refused on any machine under
# 8.8 GB); torus:64x64 needs 0.6 GB.
ibsc_cli_error(route_refuses_tables_too_big
               "256 switches and 32768 hosts: the routing tables would need about 4.4 GB .*above the limit of 2.0 GB"
               route --topology hypercube:8:hosts=128 --routing voqsw --max-memory-gb 2)
ibsc_cli_error(run_refuses_tables_too_big
               "key 'routing.algorithm': 4096 switches and 16384 hosts: the routing tables would need about 0.6 GB .*above the limit of 0.5 GB"
               run ${_small} --set topology.spec=torus:64x64 --max-memory-gb 0.5 ${_o})
