# ibsc_tb_core: traffic patterns, injection, latency statistics, channel-load bounds, results,
# scenario reading.
# Plain C++ (no SystemC), so its tests are quick.
add_library(ibsc_tb_core STATIC
  ${CMAKE_CURRENT_LIST_DIR}/traffic/traffic.cpp
  ${CMAKE_CURRENT_LIST_DIR}/traffic/injection.cpp
  ${CMAKE_CURRENT_LIST_DIR}/traffic/disk_workload.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stats/latency_histogram.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stats/batch_means.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stats/steady_warmup.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stats/results.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stats/plot.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stats/transport_result.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stats/channel_load.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stats/minimal_bound.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stats/output_files.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scenario/config_reader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scenario/param_key.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scenario/yaml_guard.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fabric/huge_pages.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run/mpi_progress.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run/probe_journal.cpp
)
target_include_directories(ibsc_tb_core PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_LIST_DIR}/..>)  # includes read "tb/x.h"
target_link_libraries(ibsc_tb_core PUBLIC ibsc_routing yaml-cpp nlohmann_json::nlohmann_json fmt::fmt)
