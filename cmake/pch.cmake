# One precompiled header for every target that uses SystemC: <systemc> and nlohmann/json take
# seconds to parse and most of our files include them, so each file would parse them anew (in
# both of CI's trees). Targets adopt it with ibsc_use_pch(); routing/ never does (no SystemC
# there). Boost.Test stays out: its header defines main() in the file that sets the module.
add_library(ibsc_pch OBJECT ${CMAKE_CURRENT_LIST_DIR}/pch.cpp)
target_link_libraries(ibsc_pch PRIVATE PkgConfig::SYSTEMC nlohmann_json::nlohmann_json)
target_precompile_headers(ibsc_pch PRIVATE
  <systemc> <tlm> <nlohmann/json.hpp>
  <algorithm> <functional> <map> <memory> <string> <vector>)

function(ibsc_use_pch target)
  if(IBSC_PCH)
    target_precompile_headers(${target} REUSE_FROM ibsc_pch)
  endif()
endfunction()
