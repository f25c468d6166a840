// Plots that explain themselves: an SVG drawn by gnuplot, with its script (.gp) and data (.dat)
// kept beside it. The image says what it shows (title: topology, routing, pattern, packet size;
// or a second line with them), marks saturated points with open markers and a key entry saying
// so, says "quick" in the image when made by `ibsc reproduce --quick`, and uses colours with at
// least 3:1 contrast on its white background (WCAG's figure for graphics). The script names its
// files relative to its own folder, so `gnuplot path/to/latency.gp` replots from anywhere.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace ibsc::tb {

struct PlotAxes {
  std::string xlabel, ylabel;
  bool log_y = false;
  std::string key = "top left";  // gnuplot's key position
};

// What the image says about where it comes from.
struct PlotLabel {
  PlotLabel(std::string t = {}, std::string sub = {}, bool q = false)
      : title(std::move(t)), subtitle(std::move(sub)), quick(q) {}
  PlotLabel(const char* t) : title(t) {}  // NOLINT(google-explicit-constructor): a plain title
  std::string title;
  std::string subtitle;  // second title line (topology, pattern, packet size...); empty: none
  bool quick = false;    // made by --quick: "(quick)" in the title, "QUICK RUN" in the corner
};

struct PlotPoint {
  double x = 0, y = 0;
  bool saturated = false;  // drawn with an open marker
};
using MarkedSeries = std::pair<std::string, std::vector<PlotPoint>>;
using PlotSeries = std::pair<std::string, std::vector<std::pair<double, double>>>;

// svg_path (+ .gp, .dat beside it; ".svg" is the expected ending), one line per series; empty
// series stay out. Without gnuplot the data and script are still written and a note goes to
// stderr. Each file goes through a temporary file renamed over the old one.
void write_marked_plot(const std::string& svg_path, const PlotLabel& label, const PlotAxes& axes,
                       const std::vector<MarkedSeries>& series);
void write_xy_plot(const std::string& svg_path, const PlotLabel& label, const PlotAxes& axes,
                   const std::vector<PlotSeries>& series);

// The line colours, in series order (8; the ninth series takes the first again).
const std::vector<std::string>& plot_colours();
// WCAG 2.1 contrast ratio of an "#rrggbb" colour against white (1 to 21).
double contrast_on_white(const std::string& rgb);

}  // namespace ibsc::tb
