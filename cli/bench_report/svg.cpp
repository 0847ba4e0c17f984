// The SVG chart of one algorithm: MB/s against message length, both on log
// scales, a line per series and a legend.
#include <algorithm>
#include <cmath>
#include <iterator>

#include <fmt/format.h>

#include "bench_report/report.h"
#include "bench_report/report_internal.h"
#include "partition.h"
#include "xml_escape.h"

namespace lockstep::cli::bench_report {
namespace {

using detail::mbps_text;

// The chart's frame, in pixels.
constexpr double kWidth = 1000, kHeight = 560;
constexpr double kLeft = 80, kRight = 740, kTop = 78, kBottom = 480;
constexpr double kLegendX = 765;

// Backends in a colour each, generic in grey; anchors dashed, OpenSSL black.
std::string colour(const Series& s, size_t backend_index) {
  static constexpr const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                             "#9467bd", "#17becf", "#e377c2", "#bcbd22"};
  if (s.anchor) return s.id == "openssl" ? "#000000" : s.id == "cryptopp" ? "#8c564b" : "#e377c2";
  if (s.generic()) return "#7f7f7f";
  return kPalette[backend_index % std::size(kPalette)];
}

struct LogRange {
  double lo, hi;  // log10 of the ends
};

LogRange x_range(const Algorithm& a) {
  if (a.lengths.empty()) return {0, 1};
  double lo = std::log10(static_cast<double>(std::max<size_t>(a.lengths.front(), 1)));
  double hi = std::log10(static_cast<double>(std::max<size_t>(a.lengths.back(), 1)));
  if (hi - lo < 1e-9) lo -= 0.5, hi += 0.5;
  const double pad = (hi - lo) * 0.03;  // keeps end markers off the axes
  return {lo - pad, hi + pad};
}

// The nearest steps of 1, 2 and 5 per decade around every value, which are
// also where the grid lines go.
LogRange y_range(const Algorithm& a) {
  double lo = INFINITY, hi = -INFINITY;
  for (const Series& s : a.series)
    for (const auto& [len, v] : s.mbps)
      if (v > 0) lo = std::min(lo, std::log10(v)), hi = std::max(hi, std::log10(v));
  if (lo > hi) return {0, 1};
  const double steps[] = {0, std::log10(2.0), std::log10(5.0), 1};
  const double lo_decade = std::floor(lo), hi_decade = std::floor(hi);
  double bottom = lo_decade, top = hi_decade + 1;
  for (const double s : steps)
    if (lo_decade + s <= lo + 1e-9) bottom = lo_decade + s;
  for (auto it = std::rbegin(steps); it != std::rend(steps); ++it)
    if (hi_decade + *it >= hi - 1e-9) top = hi_decade + *it;
  if (top - bottom < 0.3) top = bottom + 1;  // one value, or all alike
  return {bottom, top};
}

double y_position(LogRange y, double v) {
  return kBottom - (std::log10(v) - y.lo) / (y.hi - y.lo) * (kBottom - kTop);
}

bool power_of_two(size_t n) { return n && !(n & (n - 1)); }

// Appends one formatted piece of the chart.
template <class... Args>
void svg_put(std::string& out, fmt::format_string<Args...> f, Args&&... args) {
  fmt::format_to(std::back_inserter(out), f, std::forward<Args>(args)...);
}

// The opening tag, the white ground, the title, and what ran it underneath.
void put_head(std::string& out, const Algorithm& a, const Results& r) {
  svg_put(out, R"svg(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" )svg"
           R"svg(font-family="sans-serif" font-size="12">)svg" "\n", kWidth, kHeight);
  svg_put(out, R"svg(<rect width="{}" height="{}" fill="#ffffff"/>)svg" "\n", kWidth, kHeight);
  svg_put(out, R"svg(<text x="{}" y="28" font-size="18" font-weight="bold">{}</text>)svg" "\n", kLeft,
      xml_escape(a.display + " throughput by message length"));
  std::string sub;
  for (const auto& [k, v] : r.context)
    if (k == "CPU" || k == "OpenSSL" || k == "Crypto++") sub += (sub.empty() ? "" : "; ") + (k == "CPU" ? v : k + " " + v);
  svg_put(out, R"svg(<text x="{}" y="48" fill="#555555">{}</text>)svg" "\n", kLeft, xml_escape(sub));
}

// Horizontal grid at 1, 2 and 5 of each decade.
void put_y_grid(std::string& out, LogRange y) {
  for (int k = static_cast<int>(std::floor(y.lo)); k <= static_cast<int>(std::ceil(y.hi)); ++k) {
    for (const double m : {1.0, 2.0, 5.0}) {
      const double v = m * std::pow(10.0, k);
      if (std::log10(v) < y.lo - 1e-9 || std::log10(v) > y.hi + 1e-9) continue;
      const double py = y_position(y, v);
      svg_put(out, R"svg(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="{}" stroke-width="1"/>)svg" "\n",
          kLeft, py, kRight, py, m == 1 ? "#cccccc" : "#eeeeee");
      svg_put(out, R"svg(<text x="{:.1f}" y="{:.1f}" text-anchor="end">{}</text>)svg" "\n", kLeft - 6, py + 4,
          v >= 1 ? fmt::format("{:.0f}", v) : fmt::format("{:g}", v));
    }
  }
}

// A vertical grid line and tick at every length; labels where they fit,
// powers of two first (127 and 128 are a pixel apart).
void put_x_grid(std::string& out, const Algorithm& a) {
  std::vector<size_t> order = a.lengths;
  partition_stably(order, power_of_two);
  std::vector<std::pair<double, double>> placed;  // label centre, half width
  for (const size_t len : a.lengths) {
    const double px = x_position(a, len);
    svg_put(out, R"svg(<line x1="{0:.1f}" y1="{1:.1f}" x2="{0:.1f}" y2="{2:.1f}" stroke="#eeeeee" stroke-width="1"/>)svg" "\n",
        px, kTop, kBottom);
    svg_put(out, R"svg(<line x1="{0:.1f}" y1="{1:.1f}" x2="{0:.1f}" y2="{2:.1f}" stroke="#333333" stroke-width="1"/>)svg" "\n",
        px, kBottom, kBottom + 5);
  }
  for (const size_t len : order) {
    const double px = x_position(a, len);
    const double half = 3.5 * static_cast<double>(std::to_string(len).size()) + 2;
    const bool clash = std::any_of(placed.begin(), placed.end(), [&](const auto& p) {
      return std::abs(p.first - px) < p.second + half;
    });
    if (clash) continue;
    placed.emplace_back(px, half);
    svg_put(out, R"svg(<text x="{:.1f}" y="{:.1f}" text-anchor="middle">{}</text>)svg" "\n", px, kBottom + 18, len);
  }
}

// Axes and their labels.
void put_axes(std::string& out) {
  svg_put(out, R"svg(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#333333"/>)svg" "\n", kLeft, kTop, kBottom);
  svg_put(out, R"svg(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#333333"/>)svg" "\n", kLeft, kBottom, kRight);
  svg_put(out, R"svg(<text x="{:.1f}" y="{:.1f}" text-anchor="middle">message length (bytes, log scale)</text>)svg" "\n",
      (kLeft + kRight) / 2, kBottom + 40);
  svg_put(out, R"svg(<text transform="translate(22 {:.1f}) rotate(-90)" text-anchor="middle">throughput (MB/s, log scale)</text>)svg" "\n",
      (kTop + kBottom) / 2);
}

// One series that ran: its line, a marker per length, and its legend row.
void put_series(std::string& out, const Algorithm& a, LogRange y, const Series& s, const std::string& c,
                size_t legend_row) {
  const char* dash = s.anchor ? R"svg( stroke-dasharray="7 4")svg" : "";
  std::string points;
  for (const auto& [len, v] : s.mbps)
    if (v > 0) points += fmt::format("{}{:.1f},{:.1f}", points.empty() ? "" : " ", x_position(a, len), y_position(y, v));
  svg_put(out, R"svg(<polyline data-series="{}" fill="none" stroke="{}" stroke-width="2"{} points="{}"/>)svg" "\n",
      xml_escape(s.id), c, dash, points);
  for (const auto& [len, v] : s.mbps)
    if (v > 0)
      svg_put(out, R"svg(<circle cx="{:.1f}" cy="{:.1f}" r="2.5" fill="{}"><title>{}, {} bytes: {} MB/s</title></circle>)svg" "\n",
          x_position(a, len), y_position(y, v), c, xml_escape(s.label), len, mbps_text(v));
  const double ly = kTop + 8 + 22 * static_cast<double>(legend_row);
  svg_put(out, R"svg(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="{}" stroke-width="2"{}/>)svg" "\n",
      kLegendX, ly, kLegendX + 28, ly, c, dash);
  const std::string name = s.label + (s.note.empty() ? "" : " (" + s.note + ")");
  svg_put(out, R"svg(<text x="{:.1f}" y="{:.1f}">{}</text>)svg" "\n", kLegendX + 36, ly + 4, xml_escape(name));
}

// Under the legend: what the dashes mean, and what did not run.
void put_legend_notes(std::string& out, size_t legend_rows, const std::vector<std::string>& missing) {
  double note_y = kTop + 8 + 22 * static_cast<double>(legend_rows) + 8;
  svg_put(out, R"svg(<text x="{:.1f}" y="{:.1f}" fill="#777777">dashed: third-party anchors</text>)svg" "\n",
      kLegendX, note_y);
  if (!missing.empty()) {
    svg_put(out, R"svg(<text x="{:.1f}" y="{:.1f}" fill="#777777">not run here:</text>)svg" "\n", kLegendX, note_y += 18);
    for (const std::string& m : missing)
      svg_put(out, R"svg(<text x="{:.1f}" y="{:.1f}" fill="#777777">{}</text>)svg" "\n", kLegendX + 12, note_y += 16,
          xml_escape(m));
  }
}

}  // namespace

double x_position(const Algorithm& a, size_t length) {
  const LogRange x = x_range(a);
  const double v = std::log10(static_cast<double>(std::max<size_t>(length, 1)));
  return kLeft + (v - x.lo) / (x.hi - x.lo) * (kRight - kLeft);
}

std::string svg(const Algorithm& a, const Results& r) {
  const LogRange y = y_range(a);
  std::string out;
  put_head(out, a, r);
  put_y_grid(out, y);
  put_x_grid(out, a);
  put_axes(out);
  // The series, and the legend beside the plot.
  size_t backend_index = 0, legend_row = 0;
  std::vector<std::string> missing;
  for (const Series& s : a.series) {
    const std::string c = colour(s, backend_index);
    if (!s.anchor && !s.generic()) ++backend_index;
    if (s.mbps.empty()) {
      missing.push_back(s.label);
      continue;
    }
    put_series(out, a, y, s, c, legend_row++);
  }
  put_legend_notes(out, legend_row, missing);
  svg_put(out, "</svg>\n");
  return out;
}

}  // namespace lockstep::cli::bench_report
