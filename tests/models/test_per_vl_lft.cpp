// One LFT per input VL in the switch (seeds/001's AR hardware): two switches joined by two
// parallel cables (sw_0 p1 and p3), hosts 0 and 1 on sw_0 sending on VL 0 and VL 1 (SL = VL,
// VL2VL tables keep the VL). With per-VL LFTs whose VL 0 copy names p1 and VL 1 copy p3 for
// the remote hosts, each packet leaves by its own VL's cable; swapped copies swap the cables;
// with a single LFT (p1 only) both take p1, as every switch without per-VL copies does. The
// per-VL copies stored compact (one shared pool) route as the plain copies.
// Each fabric is elaborated in its own forked process.
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/fabric/arbiter_factory.h"
#include "tb/fabric/fabric.h"
#include "tb/run/sweep.h"
#include "tests/support/manual_fabric.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;

namespace {
testing::ScStrict strict;

enum class Lfts { PerVl, Swapped, Single, Compact, CompactUncabled };

// Bytes sent per VL (0, 1) on sw_0's ports 1 and 3 and packets delivered, as JSON.
nlohmann::json run(Lfts kind) {
  return nlohmann::json::parse(tb::run_forked(1, 1, [&](int) {
    routing::Topology topo = testing::parallel_pair(2);  // hosts 0, 1 on sw_0; 2, 3 on sw_1
    routing::TableSet tables = testing::chain_tables(topo, 2);
    for (int s = 0; s < 2; ++s) {
      routing::SwitchTables& st = tables.switches[s];
      const int n = topo.nodes[s].num_ports;
      st.sl2vl.reset(n, routing::Sl2VlTable::Key::InputVl);
      for (int i = 0; i <= n; ++i)
        for (int o = 1; o <= n; ++o)
          for (int v = 0; v < 2; ++v) st.sl2vl.set(i, o, v, static_cast<Vl>(v));
      const PortNum first = s == 0 ? 1 : 2;
      for (int h = 0; h < topo.num_hosts; ++h)
        if (topo.host_switch(h) != s) st.lft.set(h + 1, first);
      if (kind == Lfts::Single) continue;
      st.lft_per_input_vl.assign(2, st.lft);
      for (int v = 0; v < 2; ++v)
        for (int h = 0; h < topo.num_hosts; ++h)
          if (topo.host_switch(h) != s)
            st.lft_per_input_vl[v].set(h + 1, static_cast<PortNum>(first + 2 * ((v == 1) != (kind == Lfts::Swapped))));
    }
    // sw_0's VL 1 copy sends host 3 (LID 4) out of port 2, which has no cable on sw_0.
    if (kind == Lfts::CompactUncabled) tables.switches[0].lft_per_input_vl[1].set(4, 2);
    if (kind == Lfts::Compact || kind == Lfts::CompactUncabled)
      routing::compact_per_vl(tables);  // read in place by the switches
    testing::ScriptedTraffic traffic(topo.num_hosts, {{0, 0, 2, 512}, {0, 1, 3, 512}});
    tb::FabricParams params;
    params.sw.num_vls = 2;
    params.sw.vl2vl = true;
    tb::Fabric fabric(topo, tables, params, traffic, tb::make_arbiter_factory({}));
    nlohmann::json j;
    try {
      sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_US));
    } catch (const std::exception& e) {
      j["error"] = e.what();
      return j.dump();
    }
    for (const tb::LinkInfo& l : fabric.links()) {
      if (l.from_node != 0 || l.to_node != 1) continue;
      const auto& b = l.link->bytes_per_vl();
      j["p" + std::to_string(l.from_port)] = {b.at(0), b.at(1)};  // bytes on VL 0, VL 1
    }
    j["delivered"] = traffic.deliveries.size();
    return j.dump();
  })[0]);
}
}  // namespace

BOOST_AUTO_TEST_CASE(input_vl_selects_the_lft) {
  const nlohmann::json per_vl = run(Lfts::PerVl), swapped = run(Lfts::Swapped), single = run(Lfts::Single);
  BOOST_TEST(run(Lfts::Compact) == per_vl);  // the compact form (routing/vl_lft.h) routes alike
  for (const auto* j : {&per_vl, &swapped, &single}) BOOST_TEST((*j)["delivered"].get<int>() == 2);
  using B = std::vector<uint64_t>;
  BOOST_TEST((per_vl["p1"].get<B>() == B{512, 0}));  // host 0 on VL 0
  BOOST_TEST((per_vl["p3"].get<B>() == B{0, 512}));  // host 1 on VL 1
  BOOST_TEST((swapped["p1"].get<B>() == B{0, 512}));
  BOOST_TEST((swapped["p3"].get<B>() == B{512, 0}));
  BOOST_TEST((single["p1"].get<B>() == B{512, 512}));
  BOOST_TEST((single["p3"].get<B>() == B{0, 0}));
}

// A compact column naming a port without a cable at one switch: that switch keeps a flat copy
// with the entry empty, and the packet is refused with the port named, not sent to no cable.
BOOST_AUTO_TEST_CASE(compact_entry_naming_an_uncabled_port_stops_the_run) {
  const nlohmann::json j = run(Lfts::CompactUncabled);
  const std::string msg = j.value("error", "");
  BOOST_TEST(msg.find("sw_0: LFT entry for DLID 4 names port 2, which has no cable") != std::string::npos, msg);
}
