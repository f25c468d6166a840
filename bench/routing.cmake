# Routing benchmark: tables, checks and metrics on 2,048-switch fabrics (goal: < 10 s each).
add_executable(routing_bench ${CMAKE_CURRENT_LIST_DIR}/routing_bench.cpp)
target_link_libraries(routing_bench PRIVATE ibsc_routing)
