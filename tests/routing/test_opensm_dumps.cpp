// OpenSM's native dumps, as the real OpenSM 3.3.23 wrote them on ibsim-simulated fabrics
// (tests/routing/data/opensm/README.md): the topology from opensm-subnet.lst, ibnetdiscover and
// ibnetdiscover --ports; the LFTs from opensm-lfts.dump and opensm.fdbs; LMC 1; two-port HCAs.
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include "routing/checks.h"
#include "routing/table_io.h"
#include "routing/topo_import.h"
#include "tests/routing/route_cli.h"
#include "tests/support/error_of.h"

using namespace ibsc;
using namespace ibsc::routing;

namespace {

using ibsc::testing::error_of;

const std::string kData = IBSC_OPENSM_DATA_DIR;

// The fabric as GUIDs: node GUID -> LID, and cables as ((GUID, port), (GUID, port)), so the
// three topology forms (whose node names and orders differ) can be compared.
struct Fabric {
  std::map<uint64_t, Lid> lids;
  std::set<std::tuple<uint64_t, int, uint64_t, int>> cables;
};

Fabric by_guid(const Topology& t) {
  Fabric f;
  for (int v = 0; v < static_cast<int>(t.nodes.size()); ++v) {
    const Node& n = t.nodes[v];
    f.lids[n.guid] = n.lid;
    for (int p = 1; p <= n.num_ports; ++p)
      if (n.ports[p].node >= 0) f.cables.insert({n.guid, p, t.nodes[n.ports[p].node].guid, n.ports[p].port});
  }
  return f;
}

// Follows the LFTs from `src` toward `dlid` by hand: the host reached, or -1 (no entry, a
// port without a cable, the switch itself, or more than 16 hops).
int walk(const Topology& t, const TableSet& ts, int src, Lid dlid) {
  int node = t.host_switch(src);
  for (int hop = 0; hop < 16; ++hop) {
    if (!t.is_switch(node)) return t.host_index(node);
    const Lft& lft = ts.switches[node].lft;
    if (dlid >= lft.size() || !lft[dlid].routed()) return -1;
    const int port = lft[dlid].primary();
    if (port == 0) return -1;
    node = t.nodes[node].ports[port].node;
    if (node < 0) return -1;
  }
  return -1;
}

struct Expect {
  const char* dir;
  int switches, hosts, cables, lmc;
};
const Expect kSets[] = {
    {"two_switch", 2, 2, 4, 0},  // 2 host cables, 2 between the switches
    {"fattree2", 6, 8, 16, 0},   // 8 host cables, 4 leaves x 2 spines
    {"fattree2_lmc1", 6, 8, 16, 1},
    {"two_port_hca", 2, 4, 6, 0},  // 2 HCAs x 2 cabled ports, 2 cables between the switches
    {"two_port_hca_lmc2", 2, 4, 6, 2},
    {"fattree2_sharp", 6, 8, 16, 1},  // fattree2 with an aggregation node per leaf, left out
};

int cables(const Topology& t) {
  int n = 0;
  for (const Node& v : t.nodes)
    for (int p = 1; p <= v.num_ports; ++p) n += v.ports[p].node >= 0;
  return n / 2;
}

}  // namespace

// Each topology form of each set: the counts of the fabric OpenSM swept, every node with its
// GUID and LID, and the three forms the same fabric.
BOOST_AUTO_TEST_CASE(three_topology_forms_give_one_fabric) {
  for (const Expect& e : kSets) {
    const std::string dir = kData + "/" + e.dir;
    const Topology lst = read_topology_file(dir + "/opensm-subnet.lst");
    BOOST_TEST(by_guid(read_topology_file(dir)).cables == by_guid(lst).cables);  // the dump folder itself
    BOOST_TEST_CONTEXT(e.dir) {
      BOOST_TEST(lst.num_switches == e.switches);
      BOOST_TEST(lst.num_hosts == e.hosts);
      BOOST_TEST(cables(lst) == e.cables);
      for (const Node& n : lst.nodes) {
        BOOST_TEST(n.guid != 0u);
        BOOST_TEST(n.lid != 0u);
      }
      const Fabric ref = by_guid(lst);
      BOOST_TEST(ref.lids.size() == lst.nodes.size());  // GUIDs are unique
      for (const char* other : {"ibnetdiscover.txt", "ibnetdiscover-ports.txt"}) {
        const Topology t = read_topology_file(dir + "/" + other);
        const Fabric f = by_guid(t);
        BOOST_TEST((f.lids == ref.lids), other);
        BOOST_TEST((f.cables == ref.cables), other);
      }
    }
  }
  // Names: descriptions, and "desc/pN" for each cabled port of a two-port HCA.
  const Topology two = read_topology_file(kData + "/two_port_hca/opensm-subnet.lst");
  std::set<std::string> hosts;
  for (int h = 0; h < two.num_hosts; ++h) hosts.insert(two.nodes[two.host_node(h)].name);
  BOOST_TEST((hosts == std::set<std::string>{"Hca1/p1", "Hca1/p2", "Hca2/p1", "Hca2/p2"}));
  const Topology ports = read_topology_file(kData + "/two_port_hca/ibnetdiscover-ports.txt");
  std::set<std::string> port_hosts;
  for (int h = 0; h < ports.num_hosts; ++h) port_hosts.insert(ports.nodes[ports.host_node(h)].name);
  BOOST_TEST((port_hosts == hosts));
}

// The dump pair OpenSM wrote: every (source, destination) pair, by every LID of the
// destination (2^LMC of them), walks to the destination; the check agrees; fdbs and lfts give
// the same tables.
BOOST_AUTO_TEST_CASE(real_dumps_walk_to_the_right_host) {
  for (const Expect& e : kSets) {
    const std::string dir = kData + "/" + e.dir;
    BOOST_TEST_CONTEXT(e.dir) {
      for (const char* form : {"opensm-subnet.lst", "ibnetdiscover.txt", "ibnetdiscover-ports.txt"}) {
        BOOST_TEST_CONTEXT(form) {
          const Topology t = read_topology_file(dir + "/" + form);
          const TableSet ts = import_opensm_dump_dir(t, dir);
          long walked = 0;
          for (int h = 0; h < t.num_hosts; ++h) {
            BOOST_TEST(ts.hosts[h].lmc == e.lmc);
            BOOST_TEST(ts.hosts[h].base_lid == t.nodes[t.host_node(h)].lid);
            for (int q = 0; q < t.num_hosts; ++q) {
              if (q == h) continue;
              BOOST_TEST(ts.hosts[h].paths[q].size() == (1u << e.lmc));
              for (int c = 0; c < (1 << e.lmc); ++c) {
                BOOST_TEST(walk(t, ts, h, static_cast<Lid>(ts.hosts[q].base_lid + c)) == q);
                ++walked;
              }
            }
          }
          BOOST_TEST(walked == (static_cast<long>(e.hosts) * (e.hosts - 1) << e.lmc));
          const CheckReport rep = check_tables(t, ts);
          BOOST_TEST(rep.ok(), rep.text());
          BOOST_TEST(rep.routed_pairs == static_cast<long>(e.hosts) * (e.hosts - 1));
          // Each switch LID goes to port 0 at that switch.
          for (int s = 0; s < t.num_switches; ++s) BOOST_TEST(ts.switches[s].lft[ts.switches[s].lid].primary() == 0);

          const TableSet fdbs = import_opensm_tables(t, dir + "/opensm.fdbs");
          BOOST_TEST(fdbs.max_lid == ts.max_lid);
          for (int s = 0; s < t.num_switches; ++s) {
            BOOST_TEST(fdbs.switches[s].lid == ts.switches[s].lid);
            for (Lid l = 0; l <= ts.max_lid; ++l) {
              BOOST_TEST(fdbs.switches[s].lft[l].routed() == ts.switches[s].lft[l].routed());
              if (ts.switches[s].lft[l].routed())
                BOOST_TEST(fdbs.switches[s].lft[l].primary() == ts.switches[s].lft[l].primary());
            }
          }
          for (int h = 0; h < t.num_hosts; ++h) BOOST_TEST(fdbs.hosts[h].lmc == e.lmc);
        }
      }
    }
  }
}

// SHARP aggregation nodes (one per leaf, an HCA inside the switch) are left out of every
// topology form with a note; their LIDs stay in the LFTs as OpenSM wrote them (Leaf1 sends its
// own aggregation node's LIDs 0x18, 0x19 to port 8), and from opensm.fdbs, which names no LID's
// owner, H8's LIDs 22, 23 are still told from the aggregation node's 24, 25 after them.
BOOST_AUTO_TEST_CASE(aggregation_nodes_are_left_out) {
  const std::string dir = kData + "/fattree2_sharp";
  for (const char* form : {"opensm-subnet.lst", "ibnetdiscover.txt", "ibnetdiscover-ports.txt"}) {
    const Topology t = read_topology_file(dir + "/" + form);
    bool noted = false;
    for (const std::string& n : t.notes)
      noted |= n == dir + "/" + form +
                        ": 4 SHARP aggregation node(s) ('Mellanox Technologies Aggregation Node') left out: not "
                        "compute hosts";
    BOOST_TEST(noted, form);
    for (int s = 0; s < t.num_switches; ++s) BOOST_TEST(t.nodes[s].num_ports == 8);
  }
  const Topology t = read_topology_file(dir + "/opensm-subnet.lst");
  int leaf1 = -1, h8 = -1;
  for (int v = 0; v < static_cast<int>(t.nodes.size()); ++v) {
    if (t.nodes[v].name == "Leaf1") leaf1 = v;
    if (t.nodes[v].name == "H8") h8 = t.host_index(v);
  }
  BOOST_REQUIRE(leaf1 >= 0);
  BOOST_REQUIRE(h8 >= 0);
  for (const char* dump : {"opensm-lfts.dump", "opensm.fdbs"}) {
    const TableSet ts = import_opensm_tables(t, dir + "/" + dump);
    BOOST_TEST(ts.switches[leaf1].lft[0x18].primary() == 8);
    BOOST_TEST(ts.switches[leaf1].lft[0x19].primary() == 8);
    BOOST_TEST(ts.max_lid == 0x1f);
    BOOST_TEST(ts.hosts[h8].base_lid == 22);
    BOOST_TEST(ts.hosts[h8].lmc == 1);
  }
}

// What LMC is for: with LMC 2 OpenSM's minhop spreads a host's 4 LIDs over both cables
// between the two switches (ports 3 and 5 of either), two LIDs each.
BOOST_AUTO_TEST_CASE(lmc_spreads_lids_over_parallel_cables) {
  const std::string dir = kData + "/two_port_hca_lmc2";
  const Topology t = read_topology_file(dir + "/opensm-subnet.lst");
  const TableSet ts = import_opensm_dump_dir(t, dir);
  for (int h = 0; h < t.num_hosts; ++h)
    for (int s = 0; s < t.num_switches; ++s) {
      if (t.host_switch(h) == s) continue;
      std::map<int, int> lids_per_port;
      for (int c = 0; c < 4; ++c) ++lids_per_port[ts.switches[s].lft[ts.hosts[h].base_lid + c].primary()];
      BOOST_TEST((lids_per_port == std::map<int, int>{{3, 2}, {5, 2}}), t.nodes[t.host_node(h)].name);
    }
}

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `text` with the first `from` replaced by `to` (which must be there).
std::string edited(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  BOOST_REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

std::string all_of(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

std::string scratch(const std::string& leaf) {
  auto d = std::filesystem::temp_directory_path() / ("ibsc_opensm_dumps_" + leaf);
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d.string();
}

std::string write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

}  // namespace

// A malformed or contradictory line of opensm-subnet.lst or ibnetdiscover --ports names the
// file, the line and what is wrong.
BOOST_AUTO_TEST_CASE(bad_topology_lines_name_file_and_line) {
  const std::string dir = scratch("topo");
  const std::string lst = read_text(kData + "/two_switch/opensm-subnet.lst");
  const std::string line1 = lst.substr(0, lst.find('\n') + 1);
  const std::string f = dir + "/subnet.lst";
  auto err = [&](const std::string& text) {
    write(f, text);
    return error_of([&] { read_topology_file(f); });
  };
  BOOST_TEST(err(line1 + edited(line1, "Ports:02", "Ports:0G")) ==
             f + ":2: Ports '0G' is not a hexadecimal number up to 0xfe");
  BOOST_TEST(err(edited(line1, "{ CA Ports", "{ CA-X Ports")) ==
             f + ":1: node type 'CA-X' (expected SW, CA or Rt, with -SM on the SM's node)");
  BOOST_TEST(err(edited(line1, "PHY=4x", "PHY=3x")) ==
             f + ":1: link width PHY=3x is not an IBA width (1x, 2x, 4x, 8x or 12x)");
  BOOST_TEST(err(edited(line1, "LOG=ACT", "LOG=UP")) == f + ":1: link state LOG=UP (expected ACT, ARM, INI or DWN)");
  BOOST_TEST(err(edited(line1, "SPD=2.5", "SPD=2.5 junk")) == f + ":1: unexpected 'junk' at the end of the line");
  BOOST_TEST(err(edited(line1, "LID:0001 PN:01", "LID:0001 PN:09")) ==
             f + ":1: port 9 of switch 0x0000000000200000 beyond its 8 ports");
  BOOST_TEST(err(edited(line1, " PN:01 } {", " } {")).rfind(f + ":1: expected 'PN:'", 0) == 0);
  BOOST_TEST(err(edited(edited(line1, "{Hca1} LID", "{Hca1 LID"), "{Switch1} LID", "{Switch1 LID")) ==
             f + ":1: node description without '} LID:' after it");
  // The second line contradicts the first: the switch's LID, then the peer of a port.
  BOOST_TEST(
      err(line1 + edited(line1, "LID:0001 PN:01", "LID:0005 PN:02")) ==
      f + ":2: switch 0x0000000000200000 has GUID/LID 0x0000000000200000/5 here but 0x0000000000200000/1 on line 1");
  BOOST_TEST(err(line1 + edited(line1, "LID:0001 PN:01", "LID:0001 PN:02")) ==
             f + ":2: port 1 of 0x0000000000100000 is also cabled elsewhere (line 1)");
  BOOST_TEST(err(line1 + edited(line1, "{Hca1}", "{Hca9}")) ==
             f + ":2: HCA 0x0000000000100000 has description 'Hca9' here but 'Hca1' on line 1");
  BOOST_TEST(error_of([&] { read_topology_file(dir); }) ==
             dir + ": a directory without opensm-subnet.lst (OpenSM's --dump_files_dir output)");
  BOOST_TEST(err("\n\n") == f + ": not a topology file: no opensm-subnet.lst link ('{ '), ibnetdiscover (Switch/Ca, "
                                "or SW/CA with --ports) or edge list (switch/host/link) line");

  // Quirks that are read: descriptions with braces and spaces, CRLF, a link not ACTIVE (kept,
  // with a note), a width OpenSM does not know (PHY=??), one description on two switches.
  std::string odd = edited(lst, "{Switch2}", "{leaf {2} of rack 1}");
  for (size_t at = odd.find("{Switch2}"); at != std::string::npos; at = odd.find("{Switch2}"))
    odd.replace(at, 9, "{leaf {2} of rack 1}");
  odd = edited(odd, "LOG=ACT", "LOG=INI");
  odd = edited(odd, "PHY=4x", "PHY=??");
  for (size_t at = odd.find('\n'); at != std::string::npos; at = odd.find('\n', at + 2)) odd.insert(at, "\r");
  const Topology t = read_topology_file(write(f, odd));
  BOOST_TEST(t.num_switches == 2);
  BOOST_TEST(t.nodes[1].name == "leaf {2} of rack 1");
  bool noted_state = false;
  for (const std::string& n : t.notes) noted_state |= n.find("1 link line(s) in state INI") != std::string::npos;
  BOOST_TEST(noted_state);
  std::string same = lst;
  for (size_t at = same.find("{Switch2}"); at != std::string::npos; at = same.find("{Switch2}"))
    same.replace(at, 9, "{Switch1}");
  const Topology twins = read_topology_file(write(f, same));
  BOOST_TEST(twins.nodes[0].name == "S-0000000000200000");
  BOOST_TEST(twins.nodes[1].name == "S-0000000000200001");
  // HCAs alike are named by node GUID, as ibnetdiscover names them.
  const Topology hca_twins = read_topology_file(write(f, all_of(lst, "{Hca2}", "{Hca1}")));
  BOOST_TEST(hca_twins.nodes[hca_twins.host_node(0)].name == "H-0000000000100000");
  BOOST_TEST(hca_twins.nodes[hca_twins.host_node(1)].name == "H-0000000000100003");

  // Without descriptions (as in some ibdiagnet2.lst): nodes named by GUID.
  const Topology bare = read_topology_file(write(f, all_of(all_of(lst, " {Switch1}", ""), " {Switch2}", "")));
  BOOST_TEST(bare.nodes[0].name == "S-0000000000200000");
  BOOST_TEST(bare.notes.front() == f + ": 2 nodes have no description: named by GUID (S-/H-<guid>)");

  // A router's cables are left out, with a note.
  const Topology routed = read_topology_file(write(f, lst + all_of(line1, "{ CA Ports", "{ Rt Ports")));
  BOOST_TEST(routed.num_hosts == 2);
  BOOST_TEST(routed.notes.front() == f + ": 1 link line(s) of a router (Rt) left out: routers are not modelled");

  // ibnetdiscover --ports.
  const std::string ports = read_text(kData + "/two_switch/ibnetdiscover-ports.txt");
  const std::string p1 = ports.substr(0, ports.find('\n') + 1);
  const std::string pf = dir + "/ports.txt";
  auto perr = [&](const std::string& text) {
    write(pf, text);
    return error_of([&] { read_ibnetdiscover_ports(pf); });
  };
  BOOST_TEST(perr(edited(p1, "CA     4", "XX     4")) == pf + ":1: node type 'XX' is neither SW, CA nor RT");
  BOOST_TEST(perr(edited(p1, "CA     4", "CA     x")) == pf + ":1: LID 'x' is not a number in 0..65535");
  BOOST_TEST(perr(edited(p1, "'Switch2' )", "'Switch2'")) ==
             pf + ":1: expected ( 'DESC' - 'PEER DESC' ) at the end of the line");
  BOOST_TEST(perr(edited(p1, "4x SDR", "5x SDR")) ==
             pf + ":1: link width '5x' is not an IBA width (1x, 2x, 4x, 8x or 12x)");
  BOOST_TEST(perr(edited(p1, "0x0000000000100004", "0000000000100004")) ==
             pf + ":1: GUID '0000000000100004' without 0x");
}

// A malformed line of opensm.fdbs or opensm-lfts.dump, and dumps that do not fit the topology.
BOOST_AUTO_TEST_CASE(bad_lft_dumps_name_file_and_line) {
  const std::string dir = scratch("lft");
  const Topology t = read_topology_file(kData + "/two_switch/opensm-subnet.lst");
  const std::string fdbs = read_text(kData + "/two_switch/opensm.fdbs");
  const std::string f = dir + "/opensm.fdbs";
  auto err = [&](const std::string& text) {
    write(f, text);
    return error_of([&] { import_opensm_tables(t, f); });
  };
  BOOST_TEST(err(edited(fdbs, "0x0002 : 001", "0x0002 : zz")) ==
             f + ":4: cannot read '0x0002 : zz  : 01   : yes' (expected 0xLID : PORT or UNREACHABLE)");
  BOOST_TEST(err(edited(fdbs, "0x0002 : 001", "0x00G2 : 001")) ==
             f + ":4: LID '0x00G2' is not a 16-bit hexadecimal LID");
  BOOST_TEST(err(edited(fdbs, "Switch 0x0000000000200000", "Switch 0x0000000000300000")) ==
             f + ":1: guid 0x0000000000300000 is not a switch of this topology");
  BOOST_TEST(err(edited(fdbs, "0x0002 : 001", "0x0002 : 009")) == f + ":4: port 9 beyond the 8 ports of Switch1");
  BOOST_TEST(err("0x0001 : 000  : 00   : yes\n") == f + ":1: LFT entry before any 'dump_ucast_routes: Switch' header");
  BOOST_TEST(err(edited(fdbs, "LID    : Port", "Hello")) == f + ":2: unexpected line 'Hello : Hops : Optimal'");
  // The switch's own LID (its port 0 entry) must be the topology's.
  BOOST_TEST(err(edited(edited(fdbs, "0x0001 : 000", "0x0001 : 001"), "0x0002 : 001", "0x0002 : 000")) ==
             f + ":1: switch Switch1 has Lid 2, neither its LID in the topology file (1) nor the LID ibsc assigns with "
                 "LMC 0 (3)");
  // Quirks that are read: UNREACHABLE, "No N hop path possible via port P!" (the port is kept).
  const TableSet ts = import_opensm_tables(
      t, write(f, edited(edited(fdbs, "0x0004 : 003  : 02   : yes",
                                "0x0004 : 003  : 02   : No 1 hop path possible via port 5!"),
                         "0x0003 : 005  : 01   : yes", "0x0003 : 005  : 01   : yes\n0x0007 : UNREACHABLE")));
  BOOST_TEST(ts.switches[0].lft[4].primary() == 3);
  BOOST_TEST(ts.max_lid == 4);

  // opensm-lfts.dump: a LID OpenSM says no port has is kept (the table as written).
  const std::string lfts = read_text(kData + "/two_switch/opensm-lfts.dump");
  const std::string l = dir + "/opensm-lfts.dump";
  const TableSet stale = import_opensm_tables(
      t, write(l, edited(lfts, "4 lids dumped", "0x0030 001 # unknown node and type\n4 lids dumped")));
  BOOST_TEST(stale.max_lid == 0x30);
  BOOST_TEST(stale.switches[0].lft[0x30].primary() == 1);
  BOOST_TEST(check_tables(t, stale).ok());
  BOOST_TEST(error_of([&] {
               import_opensm_tables(
                   t, write(l, all_of(lfts, "portguid 0x0000000000100001", "portguid 0x0000000000100009")));
             }) == l + ": LID 2 is host Hca1's in the topology but port 0x0000000000100009's in the dump: are they of "
                       "the same fabric?");
  BOOST_TEST(
      error_of([&] {
        import_opensm_tables(t, write(l, edited(lfts, "portguid 0x0000000000100004", "portguid 0x0000000000100009")));
      }) == l + ":11: LID 4 belongs to port 0x0000000000100004 here but to 0x0000000000100009 in an earlier block");

  // LMC: every host has 2^LMC aligned LIDs, the same LMC for all.
  const Topology ft = read_topology_file(kData + "/fattree2_lmc1/opensm-subnet.lst");
  std::string lmc = read_text(kData + "/fattree2_lmc1/opensm-lfts.dump");
  for (size_t at = lmc.find("\n0x0003 "); at != std::string::npos; at = lmc.find("\n0x0003 "))
    lmc.erase(at, lmc.find('\n', at + 1) - at);
  BOOST_TEST(error_of([&] { import_opensm_tables(ft, write(l, lmc)); }) ==
             l + ": host H2 has 2 LIDs in the dump but H1 has 1: OpenSM gives every HCA port the same LMC");
  // The ibsim net file OpenSM ran on has no GUIDs: the message says where to find them.
  const Topology net = read_topology_file(std::string(IBSC_FABRICS_DIR) + "/ibsim_net.2sw2path");
  BOOST_TEST(error_of([&] { import_opensm_dump_dir(net, kData + "/two_switch"); }) ==
             kData +
                 "/two_switch/opensm-lfts.dump:1: guid 0x0000000000200000 is not a switch of this topology (it "
                 "has no GUIDs: read it from the same fabric's opensm-subnet.lst or ibnetdiscover output)");
  // A host the dump does not route at all (H8, LIDs 22 and 23, gone from every switch) keeps the
  // others' LMC; the check names the 7 pairs toward it unrouted (its own packets still go out).
  std::string gone = read_text(kData + "/fattree2_lmc1/opensm-lfts.dump");
  for (const char* lid : {"\n0x0016 ", "\n0x0017 "})
    for (size_t at = gone.find(lid); at != std::string::npos; at = gone.find(lid))
      gone.erase(at, gone.find('\n', at + 1) - at);
  const TableSet partial = import_opensm_tables(ft, write(l, gone));
  for (const HostTables& h : partial.hosts) BOOST_TEST(h.lmc == 1);
  const CheckReport rep = check_tables(ft, partial);
  BOOST_TEST(rep.unrouted_pairs == 7);
  BOOST_TEST(rep.routed_pairs == 56 - 7);

  BOOST_TEST(error_of([&] { import_opensm_dump_dir(ft, l); }) ==
             l + ": not a directory (OpenSM's --dump_files_dir output)");
}

// `ibsc route --topology file:opensm-subnet.lst --import-opensm DIR --check` on each real set
// (the lfts file, and the fdbs one named directly): the figures of the walks above.
BOOST_AUTO_TEST_CASE(route_command_checks_real_dumps) {
  for (const Expect& e : kSets) {
    const std::string dir = kData + "/" + e.dir;
    for (const std::string& tables : {dir, dir + "/opensm.fdbs"}) {
      std::string out;
      BOOST_TEST(run_route({"--topology", "file:" + dir + "/opensm-subnet.lst", "--import-opensm", tables, "--check",
                            "--json"},
                           out) == 0,
                 out);
      const auto j = nlohmann::json::parse(out);
      BOOST_TEST(j["routing"] == "file");
      BOOST_TEST(j["deadlock_free"] == true);
      BOOST_TEST(j["routed_pairs"] == static_cast<long>(e.hosts) * (e.hosts - 1));
    }
  }
}
