#include "testcircuit/param_store.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "groth16/digest.hpp"
#include "groth16/params_reader.hpp"
#include "groth16/params_writer.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "base/os_rng.hpp"

namespace cuzk::testcircuit {
namespace {

namespace fs = std::filesystem;
using engine::errc;
using engine::log_level;

std::string errno_text(int e) { return std::strerror(e); }

std::string basename_of(const std::string& p) { return fs::path(p).filename().string(); }

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string fmt_seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}

// An exclusive flock on path, released on destruction. Not holding one (the directory is not
// writable) is reported by held() == false; the caller continues without cross-process exclusion.
class file_lock {
 public:
  explicit file_lock(const std::string& path) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) {
      err_ = errno;
      return;
    }
    while (::flock(fd_, LOCK_EX) != 0) {
      if (errno == EINTR) continue;
      err_ = errno;
      ::close(fd_);
      fd_ = -1;
      return;
    }
  }
  ~file_lock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the flock
  }
  file_lock(const file_lock&) = delete;
  file_lock& operator=(const file_lock&) = delete;
  bool held() const { return fd_ >= 0; }
  int error() const { return err_; }

 private:
  int fd_ = -1;
  int err_ = 0;
};

bool fsync_path(const std::string& path, bool directory) {
  const int fd = ::open(path.c_str(), (directory ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::fsync(fd) == 0;
  ::close(fd);
  return ok;
}

// "<hex>  <name>" lines -> name -> hex.
std::map<std::string, std::string> parse_b2sum(const std::string& text) {
  std::map<std::string, std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const auto sp = line.find("  ");
    if (sp == std::string::npos) continue;
    out[line.substr(sp + 2)] = line.substr(0, sp);
  }
  return out;
}

std::shared_ptr<srs> make_srs(groth16::parameters&& p) {
  auto s = std::make_shared<srs>();
  s->params = std::move(p);
  s->pvk = groth16::prepare_verifying_key(s->params.vk);
  return s;
}

// Reads and checks the cached files. nullopt + reason empty: absent; nullopt + reason: corrupt.
std::optional<std::shared_ptr<srs>> try_load(const param_files& f, const compiled_circuit& c, std::string& reason) {
  std::error_code ec;
  const bool have_params = fs::exists(f.params, ec), have_digests = fs::exists(f.digests, ec);
  if (!have_params && !have_digests) return std::nullopt;  // absent
  if (!have_params) {
    reason = basename_of(f.params) + " is missing";
    return std::nullopt;
  }
  if (!have_digests) {
    reason = basename_of(f.digests) + " is missing (an interrupted generation?)";
    return std::nullopt;
  }
  std::ifstream in(f.digests);
  std::stringstream ss;
  ss << in.rdbuf();
  const auto want = parse_b2sum(ss.str());
  for (const std::string* path : {&f.params, &f.vk}) {
    const auto it = want.find(basename_of(*path));
    if (it == want.end()) {
      reason = basename_of(f.digests) + " has no digest for " + basename_of(*path);
      return std::nullopt;
    }
    groth16::blake2b_512_digest d{};
    if (auto e = groth16::blake2b_512_file(*path, d); !e.ok()) {
      reason = basename_of(*path) + ": " + e.message();
      return std::nullopt;
    }
    if (groth16::to_hex(d) != it->second) {
      reason = basename_of(*path) + ": BLAKE2b digest does not match " + basename_of(f.digests);
      return std::nullopt;
    }
  }
  groth16::parameters p;
  if (auto e = groth16::read_parameters_file(f.params, p, ec::subgroup_check::skip); !e.ok()) {
    reason = basename_of(f.params) + ": " + e.message();
    return std::nullopt;
  }
  try {
    groth16::check_parameters(groth16::parameters_view::of(p), c.shape);
  } catch (const std::invalid_argument& e) {
    reason = basename_of(f.params) + " does not fit the circuit: " + e.what();
    return std::nullopt;
  }
  if (p.vk.ic.size() != c.shape.num_inputs) {
    reason = basename_of(f.params) + ": verifying key has " + std::to_string(p.vk.ic.size()) + " ic points";
    return std::nullopt;
  }
  return make_srs(std::move(p));
}

// Writes the three files atomically (temp + fsync + rename; the digest file last). Returns an
// error message, empty on success. Temporary files are removed on failure.
std::string write_files(const param_files& f, const groth16::parameters& p) {
  base::os_rng rng;
  char suffix[64];
  std::snprintf(suffix, sizeof suffix, ".tmp-%d-%016llx", static_cast<int>(::getpid()),
                static_cast<unsigned long long>(rng()));
  const std::string tp = f.params + suffix, tv = f.vk + suffix, td = f.digests + suffix;
  auto cleanup = [&] {
    std::error_code ec;
    for (const auto* t : {&tp, &tv, &td}) fs::remove(*t, ec);
  };
  if (auto e = groth16::write_parameters_file(tp, p); !e.ok()) {
    cleanup();
    return basename_of(tp) + ": " + e.message();
  }
  if (auto e = groth16::write_verifying_key_file(tv, p.vk); !e.ok()) {
    cleanup();
    return basename_of(tv) + ": " + e.message();
  }
  std::string digests;
  for (const auto& [tmp, final_path] : {std::pair{&tp, &f.params}, std::pair{&tv, &f.vk}}) {
    groth16::blake2b_512_digest d{};
    if (auto e = groth16::blake2b_512_file(*tmp, d); !e.ok()) {
      cleanup();
      return basename_of(*tmp) + ": " + e.message();
    }
    digests += groth16::to_hex(d) + "  " + basename_of(*final_path) + "\n";
  }
  {
    std::ofstream out(td, std::ios::binary | std::ios::trunc);
    out << digests;
    out.flush();
    if (!out) {
      cleanup();
      return basename_of(td) + ": write failed";
    }
  }
  for (const auto* t : {&tp, &tv, &td}) {
    if (!fsync_path(*t, false)) {
      const int e = errno;
      cleanup();
      return basename_of(*t) + ": fsync: " + errno_text(e);
    }
  }
  // Renames: params, vk, then the digest file (the commit marker).
  for (const auto& [tmp, final_path] :
       {std::pair{&tp, &f.params}, std::pair{&tv, &f.vk}, std::pair{&td, &f.digests}}) {
    if (::rename(tmp->c_str(), final_path->c_str()) != 0) {
      const int e = errno;
      cleanup();
      return "rename " + basename_of(*tmp) + ": " + errno_text(e);
    }
  }
  fsync_path(fs::path(f.params).parent_path().string(), true);
  return {};
}

}  // namespace

param_files files_for(const std::string& dir, unsigned k) {
  const std::string stem =
      (fs::path(dir) / ("cuzk-test-circuit-k" + std::to_string(k) + "-v" + std::to_string(circuit_version))).string();
  return {stem + ".params", stem + ".vk", stem + ".b2sum", stem + ".lock"};
}

param_store::param_store(std::string dir, base::executor& ex, log_fn log)
    : dir_(std::move(dir)), ex_(ex), log_(std::move(log)) {}

void param_store::forget(unsigned k) {
  std::lock_guard lock(mu_);
  entries_.erase(k);
}

std::shared_ptr<param_store::entry> param_store::entry_for(unsigned k) {
  std::lock_guard lock(mu_);
  auto& slot = entries_[k];
  if (!slot) slot = std::make_shared<entry>();
  return slot;
}

engine::result<std::shared_ptr<const srs>> param_store::get(const compiled_circuit& circuit, srs_origin* origin) {
  const unsigned k = circuit.k();
  const std::shared_ptr<entry> e = entry_for(k);
  std::lock_guard elock(e->mu);
  if (e->value) {
    if (origin) *origin = srs_origin::memory;
    return e->value;
  }
  const param_files f = files_for(dir_, k);
  std::error_code ec;
  fs::create_directories(dir_, ec);  // failure shows up below (lock / write)
  const file_lock cache_lock(f.lock);
  if (!cache_lock.held()) {
    log(log_level::warn, "test circuit k=" + std::to_string(k) + ": cannot lock " + f.lock + ": " +
                             errno_text(cache_lock.error()) + " (continuing without cross-process exclusion)");
  }

  try {
    auto t0 = std::chrono::steady_clock::now();
    std::string reason;
    if (auto loaded = try_load(f, circuit, reason)) {
      e->value = std::move(*loaded);
      if (origin) *origin = srs_origin::file;
      log(log_level::info, "test circuit k=" + std::to_string(k) + ": loaded " + f.params + " in " +
                               fmt_seconds(seconds_since(t0)));
      return e->value;
    }
    if (!reason.empty()) {
      log(log_level::warn, "test circuit k=" + std::to_string(k) + ": cached parameters are corrupt (" + reason +
                               "); generating new ones");
    }
    generate_locked(circuit, f, *e);
    if (origin) *origin = srs_origin::generated;
    return e->value;
  } catch (const groth16::setup_error& x) {
    return engine::error{errc::internal, "test circuit k=" + std::to_string(k) + ": parameter setup failed: " + x.what()};
  } catch (const std::exception& x) {
    return engine::error{errc::internal, "test circuit k=" + std::to_string(k) + ": parameters: " + x.what()};
  }
}

std::string param_store::generate_locked(const compiled_circuit& circuit, const param_files& f, entry& e) {
  const unsigned k = circuit.k();
  auto t0 = std::chrono::steady_clock::now();
  groth16::parameters p;
  {
    base::os_rng rng;
    const auto tw = groth16::toxic_waste::random(rng);
    p = groth16::setup(circuit.shape, tw, ex_);
  }  // the toxic waste is gone here (it lived on this stack frame only)
  const double gen = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  auto s = make_srs(std::move(p));
  const std::string werr = write_files(f, s->params);
  if (werr.empty()) {
    log(log_level::info, "test circuit k=" + std::to_string(k) + ": generated development parameters in " +
                             fmt_seconds(gen) + ", wrote " + f.params + " (" +
                             std::to_string(groth16::parameters_size(s->params) >> 10) + " KiB) in " +
                             fmt_seconds(seconds_since(t0)));
  } else {
    log(log_level::warn, "test circuit k=" + std::to_string(k) + ": generated development parameters in " +
                             fmt_seconds(gen) + " but cannot cache them in " + dir_ + ": " + werr +
                             " (using them from memory)");
  }
  e.value = std::move(s);
  return werr;
}

engine::result<std::string> param_store::ensure_files(const compiled_circuit& circuit, bool regenerate) {
  const unsigned k = circuit.k();
  const std::shared_ptr<entry> e = entry_for(k);
  std::lock_guard elock(e->mu);
  const param_files f = files_for(dir_, k);
  std::error_code ec;
  fs::create_directories(dir_, ec);
  const file_lock cache_lock(f.lock);
  auto params_digest = [&]() -> std::optional<std::string> {
    if (!fs::exists(f.params, ec) || !fs::exists(f.vk, ec)) return std::nullopt;
    std::ifstream in(f.digests);
    if (!in) return std::nullopt;
    std::stringstream ss;
    ss << in.rdbuf();
    const auto want = parse_b2sum(ss.str());
    const auto it = want.find(basename_of(f.params));
    if (it == want.end() || it->second.size() != 128) return std::nullopt;
    return it->second;
  };
  if (!regenerate) {
    if (auto d = params_digest()) return *d;
    if (fs::exists(f.params, ec) || fs::exists(f.digests, ec)) {
      log(log_level::warn, "test circuit k=" + std::to_string(k) + ": cached parameters in " + dir_ +
                               " are incomplete; generating new ones");
    }
  }
  try {
    const std::string werr = generate_locked(circuit, f, *e);
    e->value.reset();  // the SRS manager decodes its own copy from the file
    if (!werr.empty()) {
      return engine::error{errc::internal, "test circuit k=" + std::to_string(k) +
                                               ": cannot write development parameters to " + dir_ + ": " + werr};
    }
  } catch (const std::exception& x) {
    return engine::error{errc::internal, "test circuit k=" + std::to_string(k) + ": parameter setup failed: " + x.what()};
  }
  if (auto d = params_digest()) return *d;
  return engine::error{errc::internal, "test circuit k=" + std::to_string(k) + ": " + f.digests + " unreadable after writing"};
}

std::string circuit_id_for(unsigned k) { return "test-circuit-k" + std::to_string(k); }

std::optional<unsigned> k_of_circuit_id(std::string_view id) {
  constexpr std::string_view prefix = "test-circuit-k";
  if (!id.starts_with(prefix) || id.size() == prefix.size() || id.size() > prefix.size() + 2) return std::nullopt;
  unsigned k = 0;
  for (char c : id.substr(prefix.size())) {
    if (c < '0' || c > '9') return std::nullopt;
    k = k * 10 + static_cast<unsigned>(c - '0');
  }
  if (id[prefix.size()] == '0' || k < min_log2 || k > max_log2) return std::nullopt;
  return k;
}

engine::result<std::shared_ptr<const srs>> decode_srs(std::span<const std::uint8_t> file, bool verified,
                                                      const compiled_circuit& c) {
  groth16::parameters p;
  if (auto e = groth16::read_parameters(file, p, verified ? ec::subgroup_check::skip : ec::subgroup_check::verify);
      !e.ok()) {
    return engine::error{errc::data_loss, e.message()};
  }
  try {
    groth16::check_parameters(groth16::parameters_view::of(p), c.shape);
  } catch (const std::invalid_argument& e) {
    return engine::error{errc::data_loss, std::string("does not fit the circuit: ") + e.what()};
  }
  if (p.vk.ic.size() != c.shape.num_inputs) {
    return engine::error{errc::data_loss, "verifying key has " + std::to_string(p.vk.ic.size()) + " ic points"};
  }
  return std::shared_ptr<const srs>(make_srs(std::move(p)));
}

}  // namespace cuzk::testcircuit
