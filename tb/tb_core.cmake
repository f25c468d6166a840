# ibsc_tb_core: traffic patterns, injection, latency statistics, results, scenario reading.
# Plain C++ (no SystemC), so its tests are quick.
add_library(ibsc_tb_core STATIC
  ${CMAKE_CURRENT_LIST_DIR}/traffic.cpp
  ${CMAKE_CURRENT_LIST_DIR}/injection.cpp
  ${CMAKE_CURRENT_LIST_DIR}/disk_workload.cpp
  ${CMAKE_CURRENT_LIST_DIR}/latency_histogram.cpp
  ${CMAKE_CURRENT_LIST_DIR}/batch_means.cpp
  ${CMAKE_CURRENT_LIST_DIR}/steady_warmup.cpp
  ${CMAKE_CURRENT_LIST_DIR}/results.cpp
  ${CMAKE_CURRENT_LIST_DIR}/transport_result.cpp
  ${CMAKE_CURRENT_LIST_DIR}/output_files.cpp
  ${CMAKE_CURRENT_LIST_DIR}/config_reader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/param_key.cpp
  ${CMAKE_CURRENT_LIST_DIR}/yaml_guard.cpp
  ${CMAKE_CURRENT_LIST_DIR}/huge_pages.cpp
)
target_include_directories(ibsc_tb_core PUBLIC ${CMAKE_CURRENT_LIST_DIR}/..)  # includes read "tb/x.h"
target_link_libraries(ibsc_tb_core PUBLIC ibsc_routing yaml-cpp nlohmann_json::nlohmann_json)
