# Build-time check of a user's RTL arbiter against IBSC's pin bundle (models/arbiter_pins.h), run
# by ibsc_add_rtl_arbiter() for each port count before its registration file compiles:
#   cmake -DXML=<verilator --xml-only output> -DSV=<file.sv> -DPORTS=<NUM_PORTS> -DVLS=<NUM_VLS>
#         -DCREDIT_W=<n> -DPRIO_W=<n> -DSTAMP=<file written when all match> -P ibsc_rtl_pins_check.cmake
# Every port of the bundle must be on the top module with the bundle's direction and exact width
# (the adapter's static_asserts see only a port's C++ storage class: 33 and 64 bits look alike).
# A port missing, of another direction or width fails naming the port, its line and both widths.
foreach(v XML SV PORTS VLS CREDIT_W PRIO_W STAMP)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "ibsc_rtl_pins_check.cmake: -D${v}= missing")
  endif()
endforeach()

# The RTL's localparam rule for an index width: $clog2(n), at least 1 (models/arbiter_pins.h).
function(index_width n out)
  set(w 0)
  set(v 1)
  while(v LESS n)
    math(EXPR v "${v} * 2")
    math(EXPR w "${w} + 1")
  endwhile()
  if(w LESS 1)
    set(w 1)
  endif()
  set(${out} ${w} PARENT_SCOPE)
endfunction()
index_width(${PORTS} port_w)
index_width(${VLS} vl_w)
math(EXPR cand "${PORTS} * ${PORTS}")
math(EXPR prio "${PORTS} * ${PORTS} * ${PRIO_W}")
math(EXPR vl "${PORTS} * ${vl_w}")
math(EXPR len "${PORTS} * ${CREDIT_W}")
math(EXPR credits "${PORTS} * ${VLS} * ${CREDIT_W}")
math(EXPR gport "${PORTS} * ${port_w}")
# name direction width (how the width is made)
set(bundle
    "clk|input|1|1" "rst_n|input|1|1" "req_valid|input|${PORTS}|NUM_PORTS"
    "req_cand|input|${cand}|NUM_PORTS x NUM_PORTS" "req_prio|input|${prio}|NUM_PORTS x NUM_PORTS x PRIO_W"
    "req_vl|input|${vl}|NUM_PORTS x clog2(NUM_VLS)" "req_len|input|${len}|NUM_PORTS x CREDIT_W"
    "out_busy|input|${PORTS}|NUM_PORTS" "out_credits|input|${credits}|NUM_PORTS x NUM_VLS x CREDIT_W"
    "grant_valid|output|${PORTS}|NUM_PORTS" "grant_port|output|${gport}|NUM_PORTS x clog2(NUM_PORTS)")

file(READ ${XML} xml)
# The top module's element: its ports are the <var ... dir=...> in it.
string(REGEX MATCH "<module [^>]*topModule=\"1\"[^>]*>.*" top "${xml}")
string(FIND "${top}" "</module>" end)
if(end GREATER 0)
  string(SUBSTRING "${top}" 0 ${end} top)
endif()
string(REGEX MATCH "<typetable[^>]*>.*</typetable>" types "${xml}")
set(problems "")
foreach(entry IN LISTS bundle)
  string(REPLACE "|" ";" f "${entry}")
  list(GET f 0 name)
  list(GET f 1 dir)
  list(GET f 2 want)
  list(GET f 3 how)
  string(REGEX MATCH "<var [^>]*name=\"${name}\"[^>]*dir=\"[a-z]+\"[^>]*>" var "${top}")
  if(NOT var)
    string(APPEND problems "\n  ${SV}: port '${name}' (${dir}, ${want} bits: ${how}) is missing")
    continue()
  endif()
  string(REGEX REPLACE ".* loc=\"[a-z]+,([0-9]+),.*" "\\1" line "${var}")
  string(REGEX REPLACE ".* dir=\"([a-z]+)\".*" "\\1" got_dir "${var}")
  string(REGEX REPLACE ".* dtype_id=\"([0-9]+)\".*" "\\1" id "${var}")
  string(REGEX MATCH "<basicdtype [^>]* id=\"${id}\"[^>]*>" t "${types}")
  set(got 1)  # a basicdtype without left/right is one bit
  if(t MATCHES " left=\"([0-9]+)\" right=\"([0-9]+)\"")
    math(EXPR got "${CMAKE_MATCH_1} - ${CMAKE_MATCH_2} + 1")
  elseif(NOT t)
    set(got "not a plain vector")
  endif()
  if(NOT got_dir STREQUAL dir)
    string(APPEND problems "\n  ${SV}:${line}: port '${name}' is an ${got_dir}; the pin bundle's is an ${dir}")
  elseif(NOT got STREQUAL want)
    string(APPEND problems
           "\n  ${SV}:${line}: port '${name}' is ${got} bits wide; the pin bundle's is ${want} (${how}, NUM_PORTS=${PORTS})")
  endif()
endforeach()
if(problems)
  message(FATAL_ERROR "RTL arbiter ${SV} does not match IBSC's pin bundle (models/arbiter_pins.h):${problems}")
endif()
file(WRITE ${STAMP} "pins match\n")
