// Reading tables back: our own export, a dump with a real fabric's GUIDs and LIDs, errors.
#include <boost/test/unit_test.hpp>

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include "routing/checks.h"
#include "routing/routing.h"
#include "routing/table_io.h"
#include "routing/topo_import.h"
#include "routing/topo_spec.h"
#include "tests/support/error_of.h"

using namespace ibsc;
using namespace ibsc::routing;

namespace {

using ibsc::testing::error_of;

std::string tmp_dir(const std::string& leaf) {
  auto d = std::filesystem::temp_directory_path() / ("ibsc_table_io_" + leaf);
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d.string();
}

void write_file(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

void same_tables(const TableSet& a, const TableSet& b) {
  BOOST_TEST(a.max_lid == b.max_lid);
  BOOST_TEST(a.sls_used == b.sls_used);
  BOOST_TEST(a.vls_used == b.vls_used);
  BOOST_REQUIRE(a.switches.size() == b.switches.size());
  for (size_t s = 0; s < a.switches.size(); ++s) {
    BOOST_TEST(a.switches[s].lid == b.switches[s].lid);
    for (size_t lid = 0; lid < a.switches[s].lft.size(); ++lid)
      BOOST_TEST(a.switches[s].lft[lid].primary() == b.switches[s].lft[lid].primary());
    const Sl2VlTable &x = a.switches[s].sl2vl, &y = b.switches[s].sl2vl;
    BOOST_TEST((x.key() == y.key()));
    for (int i = 0; i <= x.num_ports(); ++i)
      for (int o = 1; o <= x.num_ports(); ++o)
        for (int k = 0; k < kNumSls; ++k)
          if (i != o) BOOST_TEST(x.get(i, o, k) == y.get(i, o, k));
  }
  BOOST_REQUIRE(a.hosts.size() == b.hosts.size());
  for (size_t h = 0; h < a.hosts.size(); ++h) {
    BOOST_TEST(a.hosts[h].base_lid == b.hosts[h].base_lid);
    BOOST_TEST(a.hosts[h].lmc == b.hosts[h].lmc);
    for (int k = 0; k < kNumSls; ++k) BOOST_TEST(a.hosts[h].sl2vl[k] == b.hosts[h].sl2vl[k]);
    for (size_t q = 0; q < a.hosts.size(); ++q) {
      BOOST_REQUIRE(a.hosts[h].paths[q].size() == b.hosts[h].paths[q].size());
      for (size_t r = 0; r < a.hosts[h].paths[q].size(); ++r) {
        BOOST_TEST(a.hosts[h].paths[q][r].dlid == b.hosts[h].paths[q][r].dlid);
        BOOST_TEST(a.hosts[h].paths[q][r].sl == b.hosts[h].paths[q][r].sl);
      }
    }
  }
}

}  // namespace

// e-cube (2 VLs, 4 SLs) and up*/down* with destination renaming (LMC > 0) both come back
// identical through export_tables -> import_opensm_tables.
BOOST_AUTO_TEST_CASE(export_then_import_is_identical) {
  for (const char* spec : {"torus:4x4:hosts=2", "irregular:32:seed=5:hosts=2"}) {
    Topology t = build_topology_spec(spec);
    RoutingOptions o;
    o.algorithm = t.kind == "torus" ? Algorithm::Ecube : Algorithm::UpdownDfs;
    TableSet ts = compute_routing(t, o);
    const std::string dir = tmp_dir(ibsc::enum_name(o.algorithm));
    export_tables(t, ts, dir);
    o.algorithm = Algorithm::File;
    o.lft_file = dir;
    TableSet back = compute_routing(t, o);
    BOOST_TEST(back.algorithm == "file");
    same_tables(ts, back);
    BOOST_TEST(check_tables(t, back).ok());
  }
}

// A dump as OpenSM writes it on the real cluster: its switch GUIDs and LIDs, as in the
// ibnetdiscover file. The tables keep those LIDs.
BOOST_AUTO_TEST_CASE(real_guid_dump_of_an_ibnetdiscover_fabric_imports) {
  const std::string file = std::string(IBSC_FABRICS_DIR) + "/ibnetdiscover_real_PSMN_X5_QDR.topofile";
  Topology t = read_ibnetdiscover(file);
  BOOST_TEST(t.nodes[0].guid == 0x0008f10500200b50ULL);
  BOOST_TEST(t.nodes[0].lid == 9);
  for (const Node& n : t.nodes) BOOST_TEST(n.lid != 0);
  RoutingOptions o;
  o.algorithm = Algorithm::Minhop;
  o.max_lmc = 0;  // one LID per host, as the dump below maps them
  TableSet ours = compute_routing(t, o);
  // Our LID -> the fabric's real LID, to write the dump in the fabric's own numbering.
  std::map<Lid, Lid> real;
  Lid max_real = 0;
  for (int s = 0; s < t.num_switches; ++s) real[ours.switches[s].lid] = t.nodes[s].lid;
  for (int h = 0; h < t.num_hosts; ++h) real[ours.hosts[h].base_lid] = t.nodes[t.host_node(h)].lid;
  for (auto [a, b] : real) max_real = std::max(max_real, b);
  std::string dump;
  char buf[200];
  for (int s = 0; s < t.num_switches; ++s) {
    std::snprintf(buf, sizeof buf, "Unicast lids [0x0-0x%x] of switch Lid %u guid 0x%016" PRIx64 " ('%s'):\n", max_real,
                  t.nodes[s].lid, t.nodes[s].guid, t.nodes[s].name.c_str());
    dump += buf;
    for (auto [a, b] : real) {
      if (ours.switches[s].lft[a].primary() == kNoPort) continue;
      std::snprintf(buf, sizeof buf, "0x%04x %03u : (Channel Adapter portguid 0x0: 'x')\n", b,
                    ours.switches[s].lft[a].primary());
      dump += buf;
    }
    dump += std::to_string(real.size()) + " lids dumped\n";
  }
  const std::string path = tmp_dir("real") + "/lfts.dump";
  write_file(path, dump);
  TableSet ts = import_opensm_tables(t, path);
  BOOST_TEST(ts.max_lid == max_real);
  BOOST_TEST(ts.switches[0].lid == 9);
  for (int h = 0; h < t.num_hosts; ++h) BOOST_TEST(ts.hosts[h].base_lid == t.nodes[t.host_node(h)].lid);
  // The same walks as our own tables, in the fabric's numbering.
  CheckReport rep = check_tables(t, ts), ref = check_tables(t, ours);
  BOOST_TEST(rep.routed_pairs == ref.routed_pairs);
  BOOST_TEST(rep.routed_pairs > 0);
  BOOST_TEST(rep.max_hops == ref.max_hops);
}

BOOST_AUTO_TEST_CASE(bad_dumps_name_file_and_line) {
  Topology t = build_topology_spec("torus:3x3:hosts=1");
  const std::string dir = tmp_dir("bad");
  const std::string lid = std::to_string(t.num_hosts + 1);  // switch 0's LID with LMC 0
  auto err = [&](const std::string& text) {
    write_file(dir + "/d", text);
    return error_of([&] { import_opensm_tables(t, dir + "/d"); });
  };
  BOOST_TEST(err("Unicast lids [0-20] of switch Lid 10 guid 0x0002c903000000ff ('x'):\n") ==
             dir + "/d:1: guid 0x0002c903000000ff is not a switch of this topology");
  BOOST_TEST(err("Unicast lids [0-20] of switch Lid " + lid + " guid 0x0002c90300000000 ('x'):\n0x0001 zz\n") ==
             dir + "/d:2: cannot read '0x0001 zz' (expected 0xLID PORT)");
  BOOST_TEST(err("0x0001 001\n") == dir + "/d:1: LFT entry before any switch header");
  BOOST_TEST(err("Unicast lids [0-20] of switch Lid 77 guid 0x0002c90300000000 ('x'):\n") ==
             dir +
                 "/d:1: switch S(0,0) has Lid 77, neither its LID in the topology file (0) nor the LID ibsc "
                 "assigns with LMC 0 (" +
                 lid + ")");
  BOOST_TEST(err("Unicast lids [0-20] of switch Lid " + lid + " guid 0x0002c90300000000 ('x'):\n0x0100 001\n") ==
             dir + "/d:2: LID 256 above the largest LID of the fabric, 18");
  BOOST_TEST(err("hello\n") == dir + "/d:1: unexpected line 'hello'");
  // LID 0 is nobody's; a LID sent to two ports in one switch is ambiguous (issue 19). The same
  // entry twice is harmless.
  const std::string hdr = "Unicast lids [0-20] of switch Lid " + lid + " guid 0x0002c90300000000 ('x'):\n";
  BOOST_TEST(err(hdr + "0x0000 001\n") == dir + "/d:2: LID 0 is reserved (no port has it), so it has no LFT entry");
  BOOST_TEST(err(hdr + "0x0001 001\n0x0002 002\n0x0001 003 # again\n") ==
             dir + "/d:4: LID 1 of switch S(0,0) goes to port 3 here but to port 1 on line 2");
  BOOST_TEST(err(hdr + "0x0001 001\n0x0001 001\n").find("LID") == std::string::npos);
  // Whole tokens only: "3junk" is not port 3, "0x1g" not LID 1, "Lid 5x" not Lid 5.
  BOOST_TEST(err(hdr + "0x0001 3junk\n") == dir + "/d:2: cannot read '0x0001 3junk' (expected 0xLID PORT)");
  BOOST_TEST(err(hdr + "0x1g 3\n") == dir + "/d:2: LID '0x1g' is not a 16-bit hexadecimal LID");
  BOOST_TEST(err(hdr + "0x10000 3\n") == dir + "/d:2: LID '0x10000' is not a 16-bit hexadecimal LID");
  BOOST_TEST(err("Unicast lids [0-20] of switch Lid 5x guid 0x0002c90300000000 ('x'):\n")
                 .find("d:1: switch header without 'Lid N guid 0xGUID'") != std::string::npos);
  BOOST_TEST(err("Unicast lids [0-20] of switch Lid 0 guid 0x0002c90300000000 ('x'):\n") ==
             dir + "/d:1: switch Lid 0 is not a unicast LID (1..49151)");
  // SL2VL and path-record files beside a dump: whole tokens, nothing after the last field.
  const std::string exp = tmp_dir("strict");
  {
    RoutingOptions o;
    o.algorithm = Algorithm::UpdownBfs;
    o.max_lmc = 0;
    export_tables(t, compute_routing(t, o), exp);
  }
  BOOST_TEST(error_of([&] { import_opensm_tables(t, exp); }) == "");
  auto edit = [&](const std::string& file, const std::string& from, const std::string& to) {
    std::ifstream in(exp + "/" + file);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    const size_t at = text.find(from);
    BOOST_REQUIRE(at != std::string::npos);
    write_file(exp + "/" + file + ".bak", text);
    write_file(exp + "/" + file, text.replace(at, from.size(), to));
    const std::string e = error_of([&] { import_opensm_tables(t, exp); });
    std::filesystem::rename(exp + "/" + file + ".bak", exp + "/" + file);
    return e;
  };
  BOOST_TEST(edit("sl2vl.txt", "switch 0 ", "switch 0x ").find("sl2vl.txt:2: expected 'switch INDEX LID'") !=
             std::string::npos);
  BOOST_TEST(edit("sl2vl.txt", "switch 0 " + lid, "switch 0 " + lid + "junk").find("expected 'switch INDEX LID'") !=
             std::string::npos);
  BOOST_TEST(edit("path-records.txt", "path 0 1 ", "path 0 +1 ").find("path-records.txt:3: expected 'path") !=
             std::string::npos);
  BOOST_TEST(edit("path-records.txt", "path 0 1 2 0\n", "path 0 1 2 0 9\n").find("path-records.txt:3: expected") !=
             std::string::npos);
  BOOST_TEST(error_of([&] { import_opensm_tables(t, dir + "/missing"); }) ==
             dir + "/missing: cannot open the LFT dump (No such file or directory)");
}
