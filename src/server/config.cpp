#include "server/config.hpp"

#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <utility>

#include <toml++/toml.h>

#include "engine/units.hpp"
#include "server/listen.hpp"

namespace cuzk::server {

using engine::errc;
using engine::error;

namespace {

// The spellings of the enumerated keys, read by the parser and written by to_toml.
constexpr std::pair<std::string_view, backend_kind> backend_names[] = {
    {"auto", backend_kind::auto_select}, {"cpu", backend_kind::cpu}, {"cuda", backend_kind::cuda}};
constexpr std::pair<std::string_view, srs_residency_kind> residency_names[] = {
    {"auto", srs_residency_kind::auto_select},
    {"device", srs_residency_kind::device},
    {"streamed", srs_residency_kind::streamed}};
constexpr std::pair<std::string_view, log_format> format_names[] = {{"text", log_format::text},
                                                                    {"json", log_format::json}};

template <class E, std::size_t N>
std::string_view name_of(const std::pair<std::string_view, E> (&names)[N], E v) {
  for (const auto& [name, e] : names)
    if (e == v) return name;
  return "?";
}

// Known keys per section. Keeping the list next to the readers below is what makes "unknown key"
// errors possible; add a key in both places.
const std::map<std::string, std::set<std::string>, std::less<>>& schema() {
  static const std::map<std::string, std::set<std::string>, std::less<>> s{
      {"daemon", {"listen", "status_listen", "shutdown_grace", "max_message_size"}},
      {"srs", {"param_cache", "preload"}},
      {"memory", {"total_budget", "safety_margin", "eviction_min_idle"}},
      {"gpus", {"backend", "devices", "gpu_workers_per_device", "gpu_threads", "srs_residency"}},
      {"scheduler",
       {"max_batch_size", "max_batch_wait_ms", "max_pending_jobs", "witness_queue_depth",
        "device_queue_depth", "parse_workers", "result_retention", "max_retained_results"}},
      {"synthesis", {"threads", "concurrency"}},
      {"logging", {"level", "format"}},
  };
  return s;
}

// Keys of the Rust cuzk's config that this daemon does not have, with what to do instead.
const std::map<std::string, std::string, std::less<>>& rust_only_keys() {
  static const std::map<std::string, std::string, std::less<>> s{
      {"memory.pinned_budget", "deprecated in the Rust cuzk too; [memory] total_budget covers it"},
      {"memory.working_memory_budget", "deprecated in the Rust cuzk too; [memory] total_budget covers it"},
      {"synthesis.partition_workers", "use [synthesis] concurrency"},
      {"scheduler.sort_by_type", "it had no effect in the Rust cuzk; remove it"},
      {"pipeline", "this daemon is always pipelined; use [synthesis] concurrency and [scheduler] *_queue_depth"},
  };
  return s;
}

std::string default_param_cache() {
  if (const char* env = std::getenv("FIL_PROOFS_PARAMETER_CACHE"); env && *env) return env;
  return "/var/tmp/filecoin-proof-parameters";
}

class reader {
 public:
  reader(const toml::table& root, std::string_view origin) : root_(root), origin_(origin) {}

  std::optional<error> err;

  const toml::node* find(std::string_view sec, std::string_view key) {
    const auto* t = root_.get_as<toml::table>(sec);
    return t ? t->get(key) : nullptr;
  }

  void fail(std::string_view sec, std::string_view key, const toml::node* n, const std::string& what) {
    if (err) return;
    // Built by appending: GCC 12 -O3 raises a false -Wrestrict on "literal" + std::string&&.
    std::string m(origin_);
    if (n && n->source().begin.line) m.append(":").append(std::to_string(n->source().begin.line));
    m.append(": [").append(sec).append("] ").append(key).append(": ").append(what);
    err = error{errc::invalid_argument, std::move(m)};
  }

  void str(std::string_view sec, std::string_view key, std::string& out) {
    const auto* n = find(sec, key);
    if (!n) return;
    if (auto v = n->value<std::string>(); v && n->is_string()) out = *v;
    else fail(sec, key, n, "expected a string");
  }

  // A string key naming one of `names` (the spellings to_toml writes back).
  template <class E, std::size_t N>
  void choice(std::string_view sec, std::string_view key, E& out, const std::pair<std::string_view, E> (&names)[N]) {
    const auto* n = find(sec, key);
    if (!n) return;
    std::string v;
    str(sec, key, v);
    std::string all;
    for (const auto& [name, e] : names) {
      if (v == name) {
        out = e;
        return;
      }
      all.append(all.empty() ? "" : ", ").append(name);
    }
    fail(sec, key, n, "\"" + v + "\" is not one of " + all);
  }

  void size(std::string_view sec, std::string_view key, std::uint64_t& out) {
    const auto* n = find(sec, key);
    if (!n) return;
    if (n->is_integer()) {
      auto v = *n->value<std::int64_t>();
      if (v < 0) return fail(sec, key, n, "must not be negative");
      out = static_cast<std::uint64_t>(v);
    } else if (n->is_string()) {
      auto r = engine::parse_size(*n->value<std::string>());
      if (!r) return fail(sec, key, n, r.error().message);
      out = r.value();
    } else {
      fail(sec, key, n, "expected a size such as \"256GiB\" or a number of bytes");
    }
  }

  void duration(std::string_view sec, std::string_view key, std::chrono::milliseconds& out) {
    const auto* n = find(sec, key);
    if (!n) return;
    if (!n->is_string()) return fail(sec, key, n, "expected a duration string such as \"5s\" or \"250ms\"");
    auto r = engine::parse_duration(*n->value<std::string>());
    if (!r) return fail(sec, key, n, r.error().message);
    out = r.value();
  }

  void u32(std::string_view sec, std::string_view key, std::uint32_t& out, std::uint32_t min,
           std::uint32_t max) {
    const auto* n = find(sec, key);
    if (!n) return;
    if (!n->is_integer()) return fail(sec, key, n, "expected an integer");
    auto v = *n->value<std::int64_t>();
    if (v < min || v > max) {
      return fail(sec, key, n, "must be between " + std::to_string(min) + " and " + std::to_string(max) +
                                   " (got " + std::to_string(v) + ")");
    }
    out = static_cast<std::uint32_t>(v);
  }

  void ms_integer(std::string_view sec, std::string_view key, std::chrono::milliseconds& out) {
    const auto* n = find(sec, key);
    if (!n) return;
    if (!n->is_integer() || *n->value<std::int64_t>() < 0) {
      return fail(sec, key, n, "expected a non-negative integer (milliseconds)");
    }
    out = std::chrono::milliseconds(*n->value<std::int64_t>());
  }

  void strings(std::string_view sec, std::string_view key, std::vector<std::string>& out) {
    const auto* n = find(sec, key);
    if (!n) return;
    const auto* a = n->as_array();
    if (!a) return fail(sec, key, n, "expected an array of strings");
    out.clear();
    for (const auto& e : *a) {
      if (!e.is_string()) return fail(sec, key, &e, "expected an array of strings");
      out.push_back(*e.value<std::string>());
    }
  }

  void u32s(std::string_view sec, std::string_view key, std::vector<std::uint32_t>& out) {
    const auto* n = find(sec, key);
    if (!n) return;
    const auto* a = n->as_array();
    if (!a) return fail(sec, key, n, "expected an array of non-negative integers");
    out.clear();
    for (const auto& e : *a) {
      if (!e.is_integer() || *e.value<std::int64_t>() < 0 ||
          *e.value<std::int64_t>() > std::numeric_limits<std::int32_t>::max()) {
        return fail(sec, key, &e, "expected an array of non-negative integers");
      }
      out.push_back(static_cast<std::uint32_t>(*e.value<std::int64_t>()));
    }
  }

  // Unknown sections and keys.
  void check_keys() {
    for (const auto& [k, v] : root_) {
      const std::string sec(k.str());
      auto s = schema().find(sec);
      if (s == schema().end()) {
        std::string what = "unknown section [" + sec + "]";
        if (auto h = rust_only_keys().find(sec); h != rust_only_keys().end()) what += " (" + h->second + ")";
        err = error{errc::invalid_argument, std::string(origin_) + ":" +
                                                std::to_string(v.source().begin.line) + ": " + what};
        return;
      }
      const auto* t = v.as_table();
      if (!t) {
        err = error{errc::invalid_argument,
                    std::string(origin_) + ": " + sec + " must be a section ([" + sec + "])"};
        return;
      }
      for (const auto& [kk, vv] : *t) {
        const std::string key(kk.str());
        if (s->second.count(key)) continue;
        std::string what = "unknown key";
        if (auto h = rust_only_keys().find(sec + "." + key); h != rust_only_keys().end()) {
          what += " (" + h->second + ")";
        }
        fail(sec, key, &vv, what);
        return;
      }
    }
  }

 private:
  const toml::table& root_;
  std::string_view origin_;
};

}  // namespace

bool built_with_cuda() {
#if defined(CUZK_WITH_CUDA) && CUZK_WITH_CUDA
  return true;
#else
  return false;
#endif
}

std::string_view to_string(backend_kind b) { return name_of(backend_names, b); }
std::string_view to_string(srs_residency_kind k) { return name_of(residency_names, k); }

backend_kind resolve_backend(const daemon_config& cfg) {
  if (cfg.gpus.backend != backend_kind::auto_select) return cfg.gpus.backend;
  return built_with_cuda() ? backend_kind::cuda : backend_kind::cpu;
}

engine::status validate_config(const daemon_config& c) {
  auto bad = [](const std::string& m) { return error{errc::invalid_argument, m}; };
  if (auto l = parse_listen_address(c.daemon.listen); !l) return bad("[daemon] listen: " + l.error().message);
  if (!c.daemon.status_listen.empty()) {
    auto l = parse_listen_address(c.daemon.status_listen);
    if (!l) return bad("[daemon] status_listen: " + l.error().message);
    if (l->kind != listen_address::tcp) return bad("[daemon] status_listen: must be a TCP \"host:port\"");
  }
  if (c.daemon.max_message_size < (4ull << 20) || c.daemon.max_message_size > (2047ull << 20)) {
    return bad("[daemon] max_message_size: must be between 4MiB and 2047MiB (gRPC's limit is 2 GiB)");
  }
  if (c.daemon.shutdown_grace > std::chrono::hours(1)) {
    return bad("[daemon] shutdown_grace: at most 1h");
  }
  if (c.memory.total_budget && *c.memory.total_budget < (64ull << 20)) {
    return bad("[memory] total_budget: " + engine::format_size(*c.memory.total_budget) +
               " is too small to prove anything (at least 64MiB)");
  }
  if (c.srs.param_cache.empty()) return bad("[srs] param_cache: must not be empty");
  for (std::size_t i = 0; i < c.gpus.devices.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (c.gpus.devices[i] == c.gpus.devices[j]) {
        return bad("[gpus] devices: device " + std::to_string(c.gpus.devices[i]) + " is listed twice");
      }
    }
  }
  if (c.gpus.backend == backend_kind::cuda && !built_with_cuda()) {
    return bad("[gpus] backend: \"cuda\" but this cuzk-daemon was built without CUDA (use \"cpu\" or \"auto\")");
  }
  if (c.scheduler.max_batch_size != 1) {
    return bad("[scheduler] max_batch_size: cross-sector batching is not supported yet; it must be 1");
  }
  static const std::set<std::string, std::less<>> levels{"trace", "debug", "info", "warn", "error", "off"};
  if (!levels.count(c.logging.level)) {
    return bad("[logging] level: \"" + c.logging.level + "\" is not one of trace, debug, info, warn, error, off");
  }
  return engine::ok;
}

engine::result<daemon_config> parse_config(std::string_view text, std::string_view origin) {
  daemon_config c;
  c.srs.param_cache = default_param_cache();
  toml::table root;
  try {
    root = toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    return error{errc::invalid_argument, std::string(origin) + ":" + std::to_string(e.source().begin.line) +
                                             ":" + std::to_string(e.source().begin.column) +
                                             ": TOML syntax error: " + std::string(e.description())};
  }
  reader r(root, origin);
  r.check_keys();
  if (r.err) return *r.err;

  r.str("daemon", "listen", c.daemon.listen);
  r.str("daemon", "status_listen", c.daemon.status_listen);
  r.duration("daemon", "shutdown_grace", c.daemon.shutdown_grace);
  r.size("daemon", "max_message_size", c.daemon.max_message_size);

  r.str("srs", "param_cache", c.srs.param_cache);
  r.strings("srs", "preload", c.srs.preload);

  if (const auto* n = r.find("memory", "total_budget")) {
    if (n->is_string() && *n->value<std::string>() == "auto") {
      c.memory.total_budget.reset();
    } else {
      std::uint64_t v = 0;
      r.size("memory", "total_budget", v);
      c.memory.total_budget = v;
    }
  }
  r.size("memory", "safety_margin", c.memory.safety_margin);
  r.duration("memory", "eviction_min_idle", c.memory.eviction_min_idle);

  r.choice("gpus", "backend", c.gpus.backend, backend_names);
  // A list of ordinals, or "all" (every visible device; the same as leaving the key out).
  if (const auto* n = r.find("gpus", "devices"); n && n->is_string()) {
    if (*n->value<std::string>() != "all") {
      r.fail("gpus", "devices", n, "expected \"all\" or an array of device ordinals");
    }
    c.gpus.devices.clear();
  } else {
    r.u32s("gpus", "devices", c.gpus.devices);
  }
  r.u32("gpus", "gpu_workers_per_device", c.gpus.gpu_workers_per_device, 1, 16);
  r.u32("gpus", "gpu_threads", c.gpus.gpu_threads, 0, 4096);
  r.choice("gpus", "srs_residency", c.gpus.srs_residency, residency_names);

  r.u32("scheduler", "max_batch_size", c.scheduler.max_batch_size, 1, 64);
  r.ms_integer("scheduler", "max_batch_wait_ms", c.scheduler.max_batch_wait);
  r.u32("scheduler", "max_pending_jobs", c.scheduler.max_pending_jobs, 1, 1'000'000);
  r.u32("scheduler", "witness_queue_depth", c.scheduler.witness_queue_depth, 0, 100'000);
  r.u32("scheduler", "device_queue_depth", c.scheduler.device_queue_depth, 0, 100'000);
  r.u32("scheduler", "parse_workers", c.scheduler.parse_workers, 1, 64);
  r.duration("scheduler", "result_retention", c.scheduler.result_retention);
  r.u32("scheduler", "max_retained_results", c.scheduler.max_retained_results, 1, 10'000'000);

  r.u32("synthesis", "threads", c.synthesis.threads, 0, 4096);
  r.u32("synthesis", "concurrency", c.synthesis.concurrency, 1, 256);

  r.str("logging", "level", c.logging.level);
  r.choice("logging", "format", c.logging.format, format_names);
  if (r.err) return *r.err;
  if (auto v = validate_config(c); !v) {
    return error{errc::invalid_argument, std::string(origin) + ": " + v.error().message};
  }
  return c;
}

engine::result<daemon_config> load_config_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return error{errc::not_found, "cannot read config file " + path};
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_config(ss.str(), path);
}

engine::result<std::uint64_t> resolve_total_budget(const daemon_config& cfg) {
  if (cfg.memory.total_budget) return *cfg.memory.total_budget;
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit) {
    if (key == "MemTotal:") break;
    kib = 0;
  }
  if (kib == 0) {
    return error{errc::invalid_argument,
                 "[memory] total_budget = \"auto\" but /proc/meminfo has no MemTotal; set a size"};
  }
  const std::uint64_t total = kib * 1024;
  if (cfg.memory.safety_margin >= total) {
    return error{errc::invalid_argument, "[memory] safety_margin: " + engine::format_size(cfg.memory.safety_margin) +
                                             " is not below this machine's memory (" +
                                             engine::format_size(total) + ")"};
  }
  return total - cfg.memory.safety_margin;
}

namespace {
// A TOML basic string. Control characters are escaped as \uXXXX: TOML forbids them raw, so a
// value holding one (a path with a carriage return, found by fuzzing) would otherwise print as a
// configuration that does not parse back.
std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20 || c == 0x7f) {
      static constexpr char hex[] = "0123456789abcdef";
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += ch;
    }
  }
  return out + "\"";
}
template <class T>
std::string list(const std::vector<T>& v, bool quoted) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out += ", ";
    if constexpr (std::is_same_v<T, std::string>) out += quoted ? quote(v[i]) : v[i];
    else out += std::to_string(v[i]);
  }
  return out + "]";
}
}  // namespace

std::string to_toml(const daemon_config& c) {
  using engine::format_duration;
  using engine::format_size;
  std::ostringstream o;
  o << "# cuzk-daemon effective configuration\n\n"
    << "[daemon]\n"
    << "listen = " << quote(c.daemon.listen) << "\n"
    << "status_listen = " << quote(c.daemon.status_listen) << "\n"
    << "shutdown_grace = " << quote(format_duration(c.daemon.shutdown_grace)) << "\n"
    << "max_message_size = " << quote(format_size(c.daemon.max_message_size)) << "\n\n"
    << "[srs]\n"
    << "param_cache = " << quote(c.srs.param_cache) << "\n"
    << "preload = " << list(c.srs.preload, true) << "\n\n"
    << "[memory]\n";
  if (c.memory.total_budget) {
    o << "total_budget = " << quote(format_size(*c.memory.total_budget)) << "\n";
  } else {
    auto r = resolve_total_budget(c);
    o << "total_budget = \"auto\"";
    if (r) o << "  # = " << format_size(r.value()) << " on this machine";
    o << "\n";
  }
  o << "safety_margin = " << quote(format_size(c.memory.safety_margin)) << "\n"
    << "eviction_min_idle = " << quote(format_duration(c.memory.eviction_min_idle)) << "\n\n"
    << "[gpus]\n"
    << "backend = " << quote(to_string(c.gpus.backend));
  if (c.gpus.backend == backend_kind::auto_select) {
    o << (built_with_cuda() ? "  # = cuda when a device is present at startup, else cpu"
                            : "  # = cpu (built without CUDA)");
  }
  o << "\n"
    << "devices = " << (c.gpus.devices.empty() ? quote("all") : list(c.gpus.devices, false)) << "\n"
    << "gpu_workers_per_device = " << c.gpus.gpu_workers_per_device << "\n"
    << "gpu_threads = " << c.gpus.gpu_threads << "\n"
    << "srs_residency = " << quote(to_string(c.gpus.srs_residency)) << "\n\n"
    << "[scheduler]\n"
    << "max_batch_size = " << c.scheduler.max_batch_size << "\n"
    << "max_batch_wait_ms = " << c.scheduler.max_batch_wait.count() << "\n"
    << "max_pending_jobs = " << c.scheduler.max_pending_jobs << "\n"
    << "witness_queue_depth = " << c.scheduler.witness_queue_depth << "\n"
    << "device_queue_depth = " << c.scheduler.device_queue_depth << "\n"
    << "parse_workers = " << c.scheduler.parse_workers << "\n"
    << "result_retention = " << quote(format_duration(c.scheduler.result_retention)) << "\n"
    << "max_retained_results = " << c.scheduler.max_retained_results << "\n\n"
    << "[synthesis]\n"
    << "threads = " << c.synthesis.threads << "\n"
    << "concurrency = " << c.synthesis.concurrency << "\n\n"
    << "[logging]\n"
    << "level = " << quote(c.logging.level) << "\n"
    << "format = " << quote(name_of(format_names, c.logging.format)) << "\n";
  return o.str();
}

}  // namespace cuzk::server
