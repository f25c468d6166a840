// Plots that explain themselves (tb/stats/plot.h): the title names topology, routing, pattern and
// packet size; saturated points get open markers and a key entry; --quick shows in the image;
// colours keep 3:1 contrast on white; the kept script replots from any folder.
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <regex>

#include "tb/stats/plot.h"
#include "tb/stats/results.h"
#include "tb_test_util.h"

using namespace ibsc;
using tb::test::scratch;
using tb::test::slurp;

namespace {

bool have_gnuplot() { return std::system("command -v gnuplot >/dev/null 2>&1") == 0; }

// Four points, the last two saturated, as a sweep past the knee gives them.
std::vector<tb::LoadPointResult> knee() {
  std::vector<tb::LoadPointResult> pts(4);
  for (int i = 0; i < 4; ++i) {
    pts[i].offered_load = 0.1 * (i + 1);
    pts[i].accepted_bytes_per_ns_per_switch = 0.1 * (i + 1);
    pts[i].avg_latency_ns = 1000.0 * (i + 1);
    pts[i].measured_packets = 100;
    pts[i].saturated = i >= 2;
  }
  return pts;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(plot)

// The quick start's resolved keys give the title's second line; what a scenario lacks is left out.
BOOST_AUTO_TEST_CASE(title_names_topology_routing_pattern_and_length) {
  nlohmann::ordered_json s;
  s["name"] = "quickstart";
  s["topology"]["spec"] = "torus:4x4:hosts=4:ports=8";
  s["routing"]["algorithm"] = "ecube";
  s["traffic"]["pattern"] = "uniform";
  s["traffic"]["length"] = 512;
  tb::PlotLabel l = tb::scenario_plot_label(s);
  BOOST_TEST(l.title == "quickstart");
  BOOST_TEST(l.subtitle == "torus:4x4:hosts=4:ports=8, ecube routing, uniform traffic, 512-byte packets");
  s["traffic"]["workload"] = "disk";
  s["traffic"]["lengths"] = nlohmann::ordered_json::array({256, 1, 4096, 3});
  BOOST_TEST(tb::scenario_plot_label(s).subtitle ==
             "torus:4x4:hosts=4:ports=8, ecube routing, disk workload, packet lengths [256,1,4096,3]");
  BOOST_TEST(tb::scenario_plot_label(nlohmann::ordered_json::object()).subtitle == "");

  // write_results puts both lines in the script's title, and names the line by its routing.
  const std::string dir = scratch("plot_title");
  s["traffic"].erase("workload");
  s["traffic"].erase("lengths");
  tb::write_results(dir, s, 1, knee());
  const std::string gp = slurp(dir + "/latency.gp");
  BOOST_TEST(gp.find("set title \"quickstart\\ntorus:4x4:hosts=4:ports=8, ecube routing, uniform traffic, "
                     "512-byte packets\"") != std::string::npos,
             gp);
  BOOST_TEST(gp.find("title 'ecube'") != std::string::npos, gp);
  std::filesystem::remove_all(dir);
}

// Saturated points carry a 1 in the data's third column and are drawn by their own open-marker
// element; the key says what an open marker means only when there is one.
BOOST_AUTO_TEST_CASE(saturated_points_drawn_open) {
  const std::string dir = scratch("plot_sat");
  std::filesystem::create_directories(dir);
  tb::write_plot(dir + "/knee.svg", "knee", {{"a", knee()}});
  const std::string dat = slurp(dir + "/knee.dat");
  BOOST_TEST(dat.find("0.1 1000 0\n0.2 2000 0\n0.3 3000 1\n0.4 4000 1\n") != std::string::npos, dat);
  const std::string gp = slurp(dir + "/knee.gp");
  BOOST_TEST(gp.find("using 1:($3 > 0 ? NaN : $2) with linespoints lt 1 pt 7 title 'a'") != std::string::npos, gp);
  BOOST_TEST(gp.find("using 1:($3 > 0 ? $2 : NaN) with points lt 1 pt 6 notitle") != std::string::npos, gp);
  BOOST_TEST(gp.find("title 'open marker: saturated'") != std::string::npos, gp);
  auto calm = knee();
  for (auto& p : calm) p.saturated = false;
  tb::write_plot(dir + "/calm.svg", "calm", {{"a", calm}});
  BOOST_TEST(slurp(dir + "/calm.gp").find("open marker") == std::string::npos);
  if (have_gnuplot()) {
    // In the image: gnuplot's SVG places each marker as a <use> of its shape (pt 7 filled
    // circle: #gpPt6, pt 6 open circle: #gpPt5). Knee: 2 filled + 1 in the key, 2 open + 1 in
    // the key; calm: 4 filled + 1 in the key, none open.
    auto placed = [](const std::string& svg, const std::string& shape) {
      const std::string use = "xlink:href='#" + shape + "' transform";
      int n = 0;
      for (size_t at = svg.find(use); at != std::string::npos; at = svg.find(use, at + 1)) ++n;
      return n;
    };
    const std::string k = slurp(dir + "/knee.svg"), c = slurp(dir + "/calm.svg");
    BOOST_TEST(k.find("open marker: saturated") != std::string::npos);
    BOOST_TEST(placed(k, "gpPt6") == 3);
    BOOST_TEST(placed(k, "gpPt5") == 3);
    BOOST_TEST(placed(c, "gpPt6") == 5);
    BOOST_TEST(placed(c, "gpPt5") == 0);
  }
  std::filesystem::remove_all(dir);
}

// --quick: "(quick)" after the title and "QUICK RUN" in the corner; not otherwise.
BOOST_AUTO_TEST_CASE(quick_marked_in_the_image) {
  const std::string dir = scratch("plot_quick");
  std::filesystem::create_directories(dir);
  tb::write_xy_plot(dir + "/q.svg", tb::PlotLabel("Figure 8", "routings in the key", true), {"x", "y"},
                    {{"r", {{1, 2}, {2, 3}}}});
  const std::string gp = slurp(dir + "/q.gp");
  BOOST_TEST(gp.find("set title \"Figure 8 (quick)\\nroutings in the key\"") != std::string::npos, gp);
  BOOST_TEST(gp.find("QUICK RUN") != std::string::npos, gp);
  if (have_gnuplot()) {
    const std::string svg = slurp(dir + "/q.svg");
    BOOST_TEST(svg.find("QUICK RUN") != std::string::npos);
    BOOST_TEST(svg.find("Figure 8 (quick)") != std::string::npos);
  }
  tb::write_xy_plot(dir + "/full.svg", "Figure 8", {"x", "y"}, {{"r", {{1, 2}}}});
  BOOST_TEST(slurp(dir + "/full.gp").find("quick") == std::string::npos);
  // ibsc reproduce --quick's per-experiment results: the latency plot says so too.
  nlohmann::ordered_json scen;
  scen["name"] = "exp";
  tb::write_results(dir + "/run", scen, 1, knee(), nullptr, true);
  BOOST_TEST(slurp(dir + "/run/latency.gp").find("set title \"exp (quick)") != std::string::npos);
  tb::write_results(dir + "/full_run", scen, 1, knee());
  BOOST_TEST(slurp(dir + "/full_run/latency.gp").find("quick") == std::string::npos);
  std::filesystem::remove_all(dir);
}

// Every line colour has at least WCAG's 3:1 contrast for graphics on the white background, and
// the script uses exactly those. (gnuplot's own default set has a yellow at 1.3:1.)
BOOST_AUTO_TEST_CASE(colours_readable_on_white) {
  BOOST_TEST(tb::contrast_on_white("#000000") == 21.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(tb::contrast_on_white("#ffffff") == 1.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(tb::contrast_on_white("#f0e442") < 1.5);  // gnuplot's default yellow
  BOOST_TEST(tb::plot_colours().size() == 8u);
  for (const std::string& c : tb::plot_colours()) BOOST_TEST(tb::contrast_on_white(c) >= 3.0, c);
  const std::string dir = scratch("plot_colours");
  std::filesystem::create_directories(dir);
  std::vector<tb::PlotSeries> nine;
  for (int i = 0; i < 9; ++i) nine.push_back({"s" + std::to_string(i), {{1, 1.0 + i}}});
  tb::write_xy_plot(dir + "/c.svg", "c", {"x", "y"}, nine);
  const std::string gp = slurp(dir + "/c.gp");
  BOOST_TEST(gp.find("background rgb 'white'") != std::string::npos);
  const std::regex lt(R"(set linetype (\d+) lc rgb '(#[0-9a-f]{6})')");
  int n = 0;
  for (auto it = std::sregex_iterator(gp.begin(), gp.end(), lt); it != std::sregex_iterator(); ++it, ++n)
    BOOST_TEST((*it)[2].str() == tb::plot_colours()[std::stoul((*it)[1].str()) - 1]);
  BOOST_TEST(n == 8);
  BOOST_TEST(gp.find("set linetype cycle 8") != std::string::npos);
  BOOST_TEST(gp.find("index 8 using 1:2 with lines lt 1 notitle") != std::string::npos);  // the ninth wraps
  std::filesystem::remove_all(dir);
}

// The kept script names its files relative to its own folder: run from elsewhere, it reads its
// data and writes its SVG beside itself (not in the current folder).
BOOST_AUTO_TEST_CASE(script_replots_from_any_folder) {
  const std::string dir = scratch("plot_replot");
  std::filesystem::create_directories(dir + "/elsewhere");
  tb::write_plot(dir + "/latency.svg", "r", {{"a", knee()}});
  const std::string gp = slurp(dir + "/latency.gp");
  BOOST_TEST(gp.find("set output 'latency.svg'") != std::string::npos, gp);
  BOOST_TEST(gp.find("plot 'latency.dat' index 0") != std::string::npos, gp);
  BOOST_TEST(gp.find(dir) == std::string::npos, gp);  // no path of this machine
  if (!have_gnuplot()) {
    BOOST_TEST_MESSAGE("gnuplot not installed: replot not run");
    std::filesystem::remove_all(dir);
    return;
  }
  std::filesystem::remove(dir + "/latency.svg");
  const std::string cmd = "cd " + dir + "/elsewhere && gnuplot ../latency.gp 2>&1";
  BOOST_TEST(std::system(cmd.c_str()) == 0);
  BOOST_TEST(std::filesystem::exists(dir + "/latency.svg"));
  BOOST_TEST(!std::filesystem::exists(dir + "/elsewhere/latency.svg"));
  // And by absolute path from the root.
  std::filesystem::remove(dir + "/latency.svg");
  BOOST_TEST(std::system(("cd / && gnuplot " + dir + "/latency.gp 2>&1").c_str()) == 0);
  BOOST_TEST(slurp(dir + "/latency.svg").find("<svg") != std::string::npos);
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
