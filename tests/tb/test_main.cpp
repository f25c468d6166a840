// The tb_core test executable: destination patterns, injection processes, the latency
// histogram, results files and scenario reading. Plain C++, no SystemC, so one process runs
// every suite; ctest still lists each suite on its own.
#include <boost/test/unit_test.hpp>
