#include "bench_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace cuzk::bench {

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double rank = std::ceil(p / 100.0 * static_cast<double>(v.size()));
  const auto i = static_cast<std::size_t>(std::clamp(rank, 1.0, static_cast<double>(v.size()))) - 1;
  return v[i];
}

namespace {

struct group {
  std::uint32_t completed = 0, failed = 0, cancelled = 0, errors = 0;
  std::vector<double> wall, queue, srs, synth, gpu, total;
  std::string first_error;
};

std::map<std::string, group> groups_of(const std::vector<record>& records) {
  std::map<std::string, group> g;
  for (const auto& r : records) {
    for (auto* x : {&g[r.label], &g["all"]}) {
      if (r.completed()) {
        ++x->completed;
        x->wall.push_back(r.wall_ms);
        x->queue.push_back(r.queue_ms);
        x->srs.push_back(r.srs_ms);
        x->synth.push_back(r.synth_ms);
        x->gpu.push_back(r.gpu_ms);
        x->total.push_back(r.total_ms);
      } else if (r.status == "RPC_ERROR") {
        ++x->errors;
      } else if (r.status == "CANCELLED") {
        ++x->cancelled;
      } else {
        ++x->failed;
      }
      if (!r.completed() && x->first_error.empty()) x->first_error = r.status + ": " + r.error;
    }
  }
  return g;
}

std::string json_escape(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace

std::string summary_table(const std::vector<record>& records, const run_info& info) {
  const auto groups = groups_of(records);
  const auto& all = groups.at("all");
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "%s: %zu proofs: %u completed, %u failed, %u cancelled, %u RPC errors in %.3f s\n",
                info.mode.c_str(), records.size(), all.completed, all.failed, all.cancelled, all.errors, info.wall_s);
  out += line;
  if (all.completed) {
    const double per = info.wall_s / all.completed;
    std::snprintf(line, sizeof line, "  throughput %.3f s/proof (%.2f proofs/min)\n", per, 60.0 / per);
    out += line;
  }
  std::snprintf(line, sizeof line, "  %-16s %5s %5s %5s %9s %9s %9s %9s | median ms: %7s %7s %7s %7s %7s\n", "kind",
                "done", "fail", "err", "s/proof", "p50 ms", "p95 ms", "max ms", "queue", "srs", "synth", "gpu",
                "total");
  out += line;
  auto row = [&](const std::string& label, const group& g) {
    const double per = g.completed ? info.wall_s / g.completed : 0;
    std::snprintf(line, sizeof line,
                  "  %-16s %5u %5u %5u %9.3f %9.1f %9.1f %9.1f | %18.0f %7.0f %7.0f %7.0f %7.0f\n", label.c_str(),
                  g.completed, g.failed + g.cancelled, g.errors, per, percentile(g.wall, 50), percentile(g.wall, 95),
                  percentile(g.wall, 100), percentile(g.queue, 50), percentile(g.srs, 50), percentile(g.synth, 50),
                  percentile(g.gpu, 50), percentile(g.total, 50));
    out += line;
  };
  for (const auto& [label, g] : groups) {
    if (label != "all") row(label, g);
  }
  if (groups.size() > 2) row("all", all);
  if (!all.first_error.empty()) out += "  first error: " + all.first_error + "\n";
  return out;
}

std::string summary_json(const std::vector<record>& records, const run_info& info) {
  const auto groups = groups_of(records);
  std::string out;
  char buf[768];
  std::snprintf(buf, sizeof buf, "{\"mode\":\"%s\",\"proofs\":%zu,\"wall_s\":%.3f,\"concurrency\":%u,\"duration_s\":%.3f,"
                "\"kinds\":{", info.mode.c_str(), records.size(), info.wall_s, info.concurrency, info.duration_s);
  out += buf;
  bool first = true;
  for (const auto& [label, g] : groups) {
    std::snprintf(buf, sizeof buf,
                  "%s\"%s\":{\"completed\":%u,\"failed\":%u,\"cancelled\":%u,\"rpc_errors\":%u,\"s_per_proof\":%.3f,"
                  "\"latency_ms\":{\"p50\":%.1f,\"p95\":%.1f,\"max\":%.1f},\"median_ms\":{\"queue\":%.1f,\"srs\":%.1f,"
                  "\"synth\":%.1f,\"gpu\":%.1f,\"total\":%.1f}",
                  first ? "" : ",", json_escape(label).c_str(), g.completed, g.failed, g.cancelled, g.errors,
                  g.completed ? info.wall_s / g.completed : 0.0, percentile(g.wall, 50), percentile(g.wall, 95),
                  percentile(g.wall, 100), percentile(g.queue, 50), percentile(g.srs, 50), percentile(g.synth, 50),
                  percentile(g.gpu, 50), percentile(g.total, 50));
    out += buf;
    if (!g.first_error.empty()) out += ",\"first_error\":\"" + json_escape(g.first_error) + "\"";
    out += "}";
    first = false;
  }
  out += "}}";
  return out;
}

}  // namespace cuzk::bench
