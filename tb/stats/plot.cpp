#include "tb/stats/plot.h"

#include <sys/wait.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "tb/stats/output_files.h"

namespace ibsc::tb {
namespace {

// gnuplot single-quoted strings take a quote as two quotes.
std::string gp_quote(const std::string& s) {
  std::string o = "'";
  for (char c : s) o += c == '\'' ? std::string("''") : std::string(1, c);
  return o + "'";
}
// A double-quoted gnuplot string: the only kind where a line break ("\n") is read as one. A
// backquote would run a shell command in it (gnuplot's substitution): written as a quote.
std::string gp_dquote(const std::string& s) {
  std::string o = "\"";
  for (char c : s)
    o += c == '\n'               ? std::string("\\n")
         : c == '"' || c == '\\' ? std::string("\\") + c
         : c == '`'              ? std::string("'")
                                 : std::string(1, c);
  return o + "\"";
}
std::string sh_quote(const std::string& s) {
  std::string o = "'";
  for (char c : s) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return o + "'";
}
std::string file_name(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Filled and open marker of each series (gnuplot point types: circle, square, triangle up,
// triangle down, diamond, pentagon), so lines differ by shape as well as colour.
constexpr int kFilled[] = {7, 5, 9, 11, 13, 15};
constexpr int kOpen[] = {6, 4, 8, 10, 12, 14};
constexpr int kShapes = 6;

// Everything after `set output`: the same for the script kept and the one run.
std::string script_body(const std::string& dat, const PlotLabel& label, const PlotAxes& axes,
                        const std::vector<const MarkedSeries*>& drawn) {
  std::ostringstream gp;
  std::string title = label.title + (label.quick ? " (quick)" : "");
  if (!label.subtitle.empty()) title += "\n" + label.subtitle;
  gp << "set title " << gp_dquote(title) << "\nset xlabel " << gp_quote(axes.xlabel) << "\nset ylabel "
     << gp_quote(axes.ylabel) << "\nset grid\nset key " << axes.key << "\n"
     << (axes.log_y ? "set logscale y\n" : "");
  const auto& colours = plot_colours();
  for (size_t i = 0; i < colours.size(); ++i)
    gp << "set linetype " << i + 1 << " lc rgb '" << colours[i] << "' lw 2 ps 1.2\n";
  gp << "set linetype cycle " << colours.size() << "\n";
  if (label.quick)
    gp << "set label 1 'QUICK RUN' at screen 0.015, screen 0.955 left tc rgb '#b00000' font 'sans,16' front\n";
  bool any_saturated = false;
  gp << "plot ";
  for (size_t i = 0; i < drawn.size(); ++i) {
    const std::string lt = " lt " + std::to_string(i % colours.size() + 1);
    const std::string src = (i ? "'' index " : dat + " index ") + std::to_string(i);
    // The line through every point, then the points: filled (in the key with the line) where
    // the fabric carried the load, open where it saturated.
    gp << (i ? ", \\\n     " : "") << src << " using 1:2 with lines" << lt << " notitle, \\\n     '' index " << i
       << " using 1:($3 > 0 ? NaN : $2) with linespoints" << lt << " pt " << kFilled[i % kShapes] << " title "
       << gp_quote(drawn[i]->first) << ", \\\n     '' index " << i << " using 1:($3 > 0 ? $2 : NaN) with points" << lt
       << " pt " << kOpen[i % kShapes] << " notitle";
    for (const PlotPoint& p : drawn[i]->second) any_saturated = any_saturated || p.saturated;
  }
  if (any_saturated) gp << ", \\\n     NaN with points lc rgb 'black' pt 6 ps 1.2 title 'open marker: saturated'";
  gp << "\n";
  return gp.str();
}

}  // namespace

const std::vector<std::string>& plot_colours() {
  // Okabe and Ito's colour-blind-safe set without its yellow, orange and sky blue (under 3:1 on
  // white; gnuplot's own default set has three such), with purple, brown, magenta and grey added.
  static const std::vector<std::string> c{"#0072b2", "#d55e00", "#009e73", "#7b3294",
                                          "#000000", "#a6611a", "#c51b7d", "#5e5e5e"};
  return c;
}

double contrast_on_white(const std::string& rgb) {
  double lum = 0;
  const double weight[3] = {0.2126, 0.7152, 0.0722};
  for (int k = 0; k < 3; ++k) {
    const double c = std::stoi(rgb.substr(1 + 2 * k, 2), nullptr, 16) / 255.0;
    lum += weight[k] * (c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4));
  }
  return 1.05 / (lum + 0.05);
}

void write_marked_plot(const std::string& svg, const PlotLabel& label, const PlotAxes& axes,
                       const std::vector<MarkedSeries>& series) {
  const bool has_ext = svg.size() > 4 && svg.compare(svg.size() - 4, 4, ".svg") == 0;
  const std::string base = has_ext ? svg.substr(0, svg.size() - 4) : svg;
  std::ostringstream dat;
  // Only series with points go in: gnuplot stops at an empty data block.
  std::vector<const MarkedSeries*> drawn;
  for (const auto& sp : series)
    if (!sp.second.empty()) drawn.push_back(&sp);
  dat << "# x y saturated(1: drawn with an open marker)\n";
  for (const auto* sp : drawn) {
    dat << "# " << sp->first << "\n";
    for (const PlotPoint& p : sp->second) dat << p.x << " " << p.y << " " << (p.saturated ? 1 : 0) << "\n";
    dat << "\n\n";
  }
  write_file_atomically(base + ".dat", dat.str());
  // The script cds to its own folder first (gnuplot sets ARG0 to the script's path, 5.0 on),
  // so the names below are plain file names and it replots from anywhere.
  const std::string name = file_name(base);
  auto head = [&](const std::string& out) {
    return "# " + label.title + "\n# Replot from any folder: gnuplot path/to/" + name + ".gp (it reads " + name +
           ".dat and writes " + file_name(out) +
           " beside itself).\n"
           "if (exists(\"ARG0\") && strlen(ARG0) > 0) { d = ARG0; i = strlen(d); "
           "while (i > 0 && d[i:i] ne \"/\") { i = i - 1 }; if (i > 0) { cd d[1:i] } }\n"
           // noenhanced: series names such as FX_1VL are text, not subscripts.
           "set terminal svg size 800,560 dynamic font 'sans,12' noenhanced background rgb 'white'\nset output " +
           gp_quote(file_name(out)) + "\n";
  };
  const std::string body = script_body(gp_quote(name + ".dat"), label, axes, drawn);
  write_file_atomically(base + ".gp", head(svg) + body);
  if (drawn.empty()) {  // no point has a measured packet: nothing to draw, and no stale plot
    std::remove(svg.c_str());
    return;
  }
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) {
    std::cerr << "ibsc: gnuplot not found (Debian package gnuplot-nox); wrote " << base << ".gp and " << base
              << ".dat instead of " << svg << "\n";
    return;
  }
  // gnuplot runs a copy writing a temporary output, renamed over `svg` once complete.
  const std::string tmp_svg = base + ".svg.partial", tmp_gp = base + ".gp.partial";
  write_file_atomically(tmp_gp, head(tmp_svg) + body);
  const std::string cmd = "gnuplot " + sh_quote(tmp_gp) + " 2>/dev/null";
  const int status = std::system(cmd.c_str());
  std::remove(tmp_gp.c_str());
  if (status == 0 && std::rename(tmp_svg.c_str(), svg.c_str()) == 0) return;
  std::remove(tmp_svg.c_str());
  // system() ignores SIGINT while gnuplot runs; a Ctrl-C that stopped gnuplot stops us too.
  if (status != -1 && WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM))
    raise(WTERMSIG(status));
  std::cerr << "ibsc: gnuplot failed on " << base << ".gp\n";
}

void write_xy_plot(const std::string& svg, const PlotLabel& label, const PlotAxes& axes,
                   const std::vector<PlotSeries>& series) {
  std::vector<MarkedSeries> marked;
  for (const auto& [name, xy] : series) {
    marked.push_back({name, {}});
    for (const auto& [x, y] : xy) marked.back().second.push_back({x, y, false});
  }
  write_marked_plot(svg, label, axes, marked);
}

}  // namespace ibsc::tb
