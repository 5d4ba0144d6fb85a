#include "bench_timeline.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <utility>

namespace cuzk::bench {

namespace {

using interval = std::pair<std::uint64_t, std::uint64_t>;

// Length of the union of intervals.
std::uint64_t union_length(std::vector<interval> v) {
  std::sort(v.begin(), v.end());
  std::uint64_t total = 0, cur_b = 0, cur_e = 0;
  bool open = false;
  for (const auto& [b, e] : v) {
    if (!open || b > cur_e) {
      if (open) total += cur_e - cur_b;
      cur_b = b;
      cur_e = e;
      open = true;
    } else {
      cur_e = std::max(cur_e, e);
    }
  }
  if (open) total += cur_e - cur_b;
  return total;
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// A step of 1, 2 or 5 x 10^n giving about `ticks` ticks over `span`.
double nice_step(double span, int ticks) {
  const double raw = span / ticks;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (raw <= m * mag) return m * mag;
  }
  return 10 * mag;
}

}  // namespace

device_utilisation device_busy(const std::vector<record>& records) {
  std::map<std::uint32_t, std::vector<interval>> by_worker;
  std::uint64_t first = UINT64_MAX, last = 0;
  for (const auto& r : records) {
    for (const auto& p : r.partitions) {
      if (p.device_end_us <= p.device_start_us) continue;
      by_worker[p.device_worker].push_back({p.device_start_us, p.device_end_us});
      first = std::min(first, p.device_start_us);
      last = std::max(last, p.device_end_us);
    }
  }
  device_utilisation u;
  if (by_worker.empty()) return u;
  u.workers = static_cast<unsigned>(by_worker.size());
  u.span_s = static_cast<double>(last - first) * 1e-6;
  for (auto& [w, v] : by_worker) u.busy_s += static_cast<double>(union_length(std::move(v))) * 1e-6;
  if (u.span_s > 0) u.idle_fraction = std::max(0.0, 1.0 - u.busy_s / (u.span_s * u.workers));
  return u;
}

std::string timeline_svg(const std::vector<record>& records) {
  std::uint64_t t0 = UINT64_MAX, t1 = 0;
  std::map<std::uint32_t, bool> witness_rows, device_rows;
  for (const auto& r : records) {
    if (r.partitions.empty()) continue;
    t0 = std::min(t0, r.submitted_us);
    for (const auto& p : r.partitions) {
      t1 = std::max({t1, p.synth_end_us, p.device_end_us});
      witness_rows[p.witness_worker] = true;
      device_rows[p.device_worker] = true;
    }
  }
  const double label_w = 100, plot_w = 1000, row_h = 24, top = 40;
  std::vector<std::pair<std::string, std::pair<bool, std::uint32_t>>> rows;  // label, (device?, worker)
  for (const auto& [w, _] : witness_rows) rows.push_back({"witness " + std::to_string(w), {false, w}});
  for (const auto& [w, _] : device_rows) rows.push_back({"device " + std::to_string(w), {true, w}});
  const double height = top + row_h * static_cast<double>(rows.size()) + 60;
  std::string out;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"monospace\" "
                "font-size=\"11\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
                label_w + plot_w + 20, height);
  out += buf;
  if (t1 <= t0 || rows.empty()) {
    out += "<text x=\"10\" y=\"20\">no completed partitions to draw</text>\n</svg>\n";
    return out;
  }
  const double span_s = static_cast<double>(t1 - t0) * 1e-6;
  auto x_of = [&](std::uint64_t t) { return label_w + plot_w * static_cast<double>(t - t0) * 1e-6 / span_s; };
  auto row_of = [&](bool device, std::uint32_t w) {
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (rows[i].second == std::pair{device, w}) return top + row_h * static_cast<double>(i);
    }
    return top;
  };
  const auto u = device_busy(records);
  std::snprintf(buf, sizeof buf,
                "<text x=\"10\" y=\"18\">cuzk-bench timeline: %zu jobs, %.3f s; device workers busy %.1f%% of "
                "[first device start, last device end] (idle gaps %.1f%%)</text>\n",
                records.size(), span_s, 100 * (1 - u.idle_fraction), 100 * u.idle_fraction);
  out += buf;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double y = top + row_h * static_cast<double>(i);
    std::snprintf(buf, sizeof buf,
                  "<rect x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" fill=\"%s\"/>\n<text x=\"6\" "
                  "y=\"%.1f\">%s</text>\n",
                  label_w, y, plot_w, row_h, i % 2 ? "#f4f4f4" : "#ebebeb", y + row_h * 0.65, rows[i].first.c_str());
    out += buf;
  }
  const double step = nice_step(span_s, 10);
  const double axis_y = top + row_h * static_cast<double>(rows.size());
  for (double t = 0; t <= span_s + 1e-9; t += step) {
    const double x = label_w + plot_w * t / span_s;
    std::snprintf(buf, sizeof buf,
                  "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#bbb\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
                  "text-anchor=\"middle\">%g s</text>\n",
                  x, top, x, axis_y + 4, x, axis_y + 16, t);
    out += buf;
  }
  std::size_t job = 0;
  for (const auto& r : records) {
    if (r.partitions.empty()) continue;
    const double hue = std::fmod(static_cast<double>(job++) * 137.508, 360.0);
    for (const auto& p : r.partitions) {
      const std::pair<bool, std::uint64_t> stages[] = {{false, 0}, {true, 0}};
      for (const auto& [device, _] : stages) {
        const auto b = device ? p.device_start_us : p.synth_start_us;
        const auto e = device ? p.device_end_us : p.synth_end_us;
        if (e < b || b < t0) continue;
        const double y = row_of(device, device ? p.device_worker : p.witness_worker);
        const double w = std::max(0.5, x_of(e) - x_of(b));
        std::snprintf(buf, sizeof buf,
                      "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" fill=\"hsl(%.0f,60%%,%d%%)\" "
                      "stroke=\"#333\" stroke-width=\"0.3\"><title>%s partition %u: %s %.1f ms</title></rect>\n",
                      x_of(b), y + 3, w, row_h - 6, hue, device ? 45 : 70, xml_escape(r.job_id).c_str(), p.index,
                      device ? "device" : "witness", static_cast<double>(e - b) * 1e-3);
        out += buf;
      }
    }
  }
  std::snprintf(buf, sizeof buf,
                "<text x=\"%.0f\" y=\"%.1f\">light: witness (synthesis), dark: device stage; one hue per job; time "
                "from the first submit</text>\n</svg>\n",
                label_w, axis_y + 36);
  out += buf;
  return out;
}

}  // namespace cuzk::bench
