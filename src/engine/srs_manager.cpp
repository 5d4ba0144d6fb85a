#include "engine/srs_manager.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <thread>

#include "engine/engine.hpp"
#include "engine/units.hpp"
#include "groth16/digest.hpp"

namespace cuzk::engine {

namespace {

using clock = std::chrono::steady_clock;

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

// A read-only mapping of a whole file.
class mapped_file {
 public:
  static result<std::unique_ptr<mapped_file>> open(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return error{errc::not_found, "cannot open " + path + ": " + std::strerror(errno)};
    const off_t size = ::lseek(fd, 0, SEEK_END);
    if (size <= 0) {
      ::close(fd);
      return error{errc::data_loss, "parameter file " + path + " is empty"};
    }
    void* p = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_SHARED, fd, 0);
    const int e = errno;
    ::close(fd);  // the mapping keeps the file
    if (p == MAP_FAILED) return error{errc::internal, "cannot mmap " + path + ": " + std::strerror(e)};
    auto m = std::unique_ptr<mapped_file>(new mapped_file());
    m->data_ = static_cast<const std::uint8_t*>(p);
    m->size_ = static_cast<std::size_t>(size);
    return m;
  }
  ~mapped_file() {
    if (data_) ::munmap(const_cast<std::uint8_t*>(data_), size_);
  }
  std::span<const std::uint8_t> bytes() const { return {data_, size_}; }

 private:
  mapped_file() = default;
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace

struct srs_entry {
  std::string id;
  srs_source src;
  std::mutex load_mu;  // held for a whole load; evictions skip an entry being loaded
  // Guarded by srs_manager::mu_ (the mapping and value are also only replaced under load_mu):
  srs_tier tier = srs_tier::cold;
  bool prepared = false;
  bool verified = false;
  std::string expected;  // digest to expect (after prepare)
  std::uint64_t file_bytes = 0;
  std::unique_ptr<mapped_file> map;
  std::shared_ptr<const void> value;
  reservation memory;
  std::uint32_t refs = 0;
  std::uint64_t loads = 0;
  clock::time_point last_used = clock::now();
};

// --- handle -------------------------------------------------------------------------------------

srs_handle& srs_handle::operator=(srs_handle&& o) noexcept {
  if (this != &o) {
    reset();
    manager_ = std::exchange(o.manager_, nullptr);
    entry_ = std::move(o.entry_);
    value_ = std::move(o.value_);
  }
  return *this;
}

void srs_handle::reset() {
  if (manager_ && entry_) manager_->release(*entry_);
  manager_ = nullptr;
  entry_.reset();
  value_.reset();
}

// --- manager ------------------------------------------------------------------------------------

srs_manager::srs_manager(srs_manager_options opts) : opts_(std::move(opts)), verified_(opts_.cache_dir) {
  if (!opts_.budget) opts_.budget = std::make_shared<memory_budget>(~0ull);
  opts_.budget->set_evictor([this](std::uint64_t needed) { return evict_idle(needed); });
}

srs_manager::~srs_manager() { opts_.budget->set_evictor({}); }

void srs_manager::log(log_level lvl, const std::string& msg) const {
  if (opts_.log) opts_.log(lvl, msg);
}

void srs_manager::add_resolver(srs_resolver r) {
  std::lock_guard lock(mu_);
  resolvers_.push_back(std::move(r));
}

std::shared_ptr<srs_entry> srs_manager::find_or_resolve(std::string_view id) {
  std::lock_guard lock(mu_);
  if (auto it = entries_.find(id); it != entries_.end()) return it->second;
  for (const auto& r : resolvers_) {
    if (auto src = r(id)) {
      auto e = std::make_shared<srs_entry>();
      e->id = std::string(id);
      e->src = std::move(*src);
      e->expected = e->src.digest;
      if (auto fid = identify_file(e->src.path)) e->file_bytes = fid->size;
      entries_.emplace(e->id, e);
      return e;
    }
  }
  return nullptr;
}

bool srs_manager::knows(std::string_view id) { return find_or_resolve(id) != nullptr; }

void srs_manager::discover(const std::vector<std::string>& ids) {
  for (const auto& id : ids) {
    auto e = find_or_resolve(id);
    if (!e) continue;
    std::lock_guard lock(mu_);
    if (e->file_bytes == 0) entries_.erase(id);  // not on disk: not worth listing
  }
}

void srs_manager::release(srs_entry& e) {
  std::lock_guard lock(mu_);
  if (e.refs > 0) --e.refs;
  e.last_used = clock::now();
}

result<srs_handle> srs_manager::acquire(std::string_view id, std::stop_token stop, srs_acquire_info* info) {
  auto e = find_or_resolve(id);
  if (!e) return error{errc::not_found, "unknown circuit id \"" + std::string(id) + "\""};
  auto hot_handle = [&]() -> std::optional<srs_handle> {
    std::lock_guard lock(mu_);
    if (e->tier != srs_tier::hot) return std::nullopt;
    ++e->refs;
    e->last_used = clock::now();
    srs_handle h;
    h.manager_ = this;
    h.entry_ = e;
    h.value_ = e->value;
    return h;
  };
  if (auto h = hot_handle()) {
    if (info) *info = {true, std::chrono::milliseconds(0)};
    return std::move(*h);
  }
  const auto t0 = clock::now();
  std::unique_lock load(e->load_mu);
  if (auto h = hot_handle()) {  // someone else loaded it while we waited
    if (info) *info = {false, std::chrono::duration_cast<std::chrono::milliseconds>(clock::now() - t0)};
    return std::move(*h);
  }
  const std::string& path = e->src.path;
  const std::string name = file_name(path);
  const std::string what = "parameter file " + path + " (circuit " + e->id + ")";

  // 1. Prepare (may generate the file) and identify it.
  bool prepared = false;
  {
    std::lock_guard lock(mu_);
    prepared = e->prepared;
  }
  if (!prepared && e->src.prepare) {
    auto d = e->src.prepare(stop);
    if (!d) return d.error();
    std::lock_guard lock(mu_);
    if (!d->empty()) e->expected = d.value();
  }
  {
    std::lock_guard lock(mu_);
    e->prepared = true;
  }
  const auto fid = identify_file(path);
  if (!fid) {
    return error{errc::not_found, what + " is missing: put it in [srs] param_cache (or FIL_PROOFS_PARAMETER_CACHE)"};
  }

  // 2. Digest: remembered, or hashed now (sequential read; ~1 GB/s).
  bool verified = false;
  std::string expected;
  {
    std::lock_guard lock(mu_);
    verified = e->verified && e->file_bytes == fid->size && e->map;
    expected = e->expected;
    e->file_bytes = fid->size;
  }
  if (!verified && !expected.empty()) {
    auto remembered = verified_.lookup(name, *fid);
    if (remembered && digest_matches(expected, *remembered)) {
      verified = true;
      log(log_level::debug, what + ": digest verified earlier (size and mtime unchanged); not hashing again");
    } else {
      const auto h0 = clock::now();
      groth16::blake2b_512_digest d{};
      if (auto r = groth16::blake2b_512_file(path, d); !r.ok()) {
        return error{errc::data_loss, what + ": cannot hash: " + r.message()};
      }
      const std::string full = groth16::to_hex(d);
      if (!digest_matches(expected, full)) {
        verified_.forget(name);
        return error{errc::data_loss, what + " is corrupt: its BLAKE2b digest " +
                                          full.substr(0, std::max<std::size_t>(expected.size(), 32)) +
                                          " does not match the expected " + expected +
                                          " (parameters.json); replace the file"};
      }
      verified = true;
      const double secs = std::chrono::duration<double>(clock::now() - h0).count();
      const bool saved = verified_.remember(name, *fid, full);
      log(log_level::info, what + ": BLAKE2b digest verified in " + std::to_string(secs).substr(0, 5) + " s" +
                               (saved ? "" : " (cannot record it in " + verified_.path() + ")"));
    }
  } else if (expected.empty()) {
    log(log_level::warn, what + ": no digest known; loading it unchecked");
  }

  // 3. Map (WARM).
  {
    std::unique_lock lock(mu_);
    if (!e->map) {
      lock.unlock();
      auto m = mapped_file::open(path);
      if (!m) return m.error();
      lock.lock();
      e->map = std::move(m.value());
      e->tier = srs_tier::warm;
    }
    e->verified = verified;
  }

  // 4. Reserve the HOT size (idle entries are evicted by the budget's evictor as needed).
  const std::uint64_t want = e->src.hot_bytes ? e->src.hot_bytes(fid->size) : fid->size;
  auto& budget = *opts_.budget;
  if (want > budget.total()) {
    return error{errc::resource_exhausted, what + " needs " + format_size(want) +
                                               " of host memory but the whole budget is " +
                                               format_size(budget.total()) + " ([memory] total_budget)"};
  }
  reservation mem;
  const auto deadline = clock::now() + opts_.max_budget_wait;
  while (!(mem = budget.try_reserve(want, ~0u))) {
    if (stop.stop_requested()) return error{errc::cancelled, "cancelled while waiting for memory for " + e->id};
    if (clock::now() >= deadline) {
      return error{errc::resource_exhausted,
                   what + ": no room for " + format_size(want) + " in the host memory budget within " +
                       format_duration(opts_.max_budget_wait) + " (" + format_size(budget.reserved()) + " of " +
                       format_size(budget.total()) + " reserved by running partitions and referenced SRS)"};
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }

  // 5. Decode (HOT).
  std::span<const std::uint8_t> file;
  {
    std::lock_guard lock(mu_);
    file = e->map->bytes();
  }
  if (!e->src.decode) return error{errc::internal, what + ": no decoder"};
  auto payload = e->src.decode(file, verified, stop);
  if (!payload) {
    auto err = payload.error();
    if (err.code == errc::invalid_argument || err.code == errc::internal) err.code = errc::data_loss;
    err.message = what + ": " + err.message;
    return err;
  }
  if (payload->bytes < mem.bytes()) mem.shrink_to(payload->bytes);
  const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(clock::now() - t0);
  log(log_level::info, e->id + ": loaded " + path + " (" + format_size(fid->size) + " file, " +
                           format_size(mem.bytes()) + " in memory) in " + std::to_string(took.count()) + " ms");
  srs_handle h;
  {
    std::lock_guard lock(mu_);
    e->value = std::move(payload->value);
    e->memory = std::move(mem);
    e->tier = srs_tier::hot;
    ++e->loads;
    ++e->refs;
    e->last_used = clock::now();
    h.manager_ = this;
    h.entry_ = e;
    h.value_ = e->value;
  }
  if (info) *info = {false, took};
  return h;
}

result<srs_evict_info> srs_manager::evict(std::string_view id) {
  auto e = find_or_resolve(id);
  if (!e) return error{errc::not_found, "unknown circuit id \"" + std::string(id) + "\""};
  std::unique_lock load(e->load_mu, std::try_to_lock);
  if (!load.owns_lock()) return error{errc::failed_precondition, e->id + " is being loaded; not evicted"};
  reservation freed;
  srs_evict_info out;
  {
    std::lock_guard lock(mu_);
    if (e->refs > 0) {
      return error{errc::failed_precondition, e->id + " is in use by " + std::to_string(e->refs) +
                                                  " running partition(s); not evicted"};
    }
    out.was_loaded = e->tier != srs_tier::cold;
    out.freed_bytes = e->memory.bytes();
    freed = std::move(e->memory);
    e->value.reset();
    e->map.reset();
    e->tier = srs_tier::cold;
  }
  freed.release();  // outside our lock: the budget's listeners run here
  if (out.was_loaded) log(log_level::info, e->id + ": evicted (" + format_size(out.freed_bytes) + " freed)");
  return out;
}

std::uint64_t srs_manager::evict_idle(std::uint64_t needed) {
  std::vector<reservation> freed;
  std::uint64_t total = 0;
  {
    std::lock_guard lock(mu_);
    const auto now = clock::now();
    std::vector<std::shared_ptr<srs_entry>> candidates;
    for (const auto& [id, e] : entries_) {
      if (e->tier == srs_tier::hot && e->refs == 0 && now - e->last_used >= opts_.eviction_min_idle) {
        candidates.push_back(e);
      }
    }
    std::sort(candidates.begin(), candidates.end(),
              [](const auto& a, const auto& b) { return a->last_used < b->last_used; });
    for (auto& e : candidates) {
      if (total >= needed) break;
      std::unique_lock load(e->load_mu, std::try_to_lock);
      if (!load.owns_lock()) continue;
      total += e->memory.bytes();
      log(log_level::info, e->id + ": evicted from memory to make room (" + format_size(e->memory.bytes()) +
                               ", idle " + std::to_string(std::chrono::duration_cast<std::chrono::seconds>(
                                                               now - e->last_used).count()) + " s); stays mapped");
      freed.push_back(std::move(e->memory));
      e->value.reset();
      e->tier = srs_tier::warm;
    }
  }
  freed.clear();  // releases outside our lock
  return total;
}

void srs_manager::reset(std::string_view id) {
  auto e = find_or_resolve(id);
  if (!e) return;
  std::unique_lock load(e->load_mu);
  reservation freed;
  {
    std::lock_guard lock(mu_);
    e->prepared = false;
    e->verified = false;
    e->expected = e->src.digest;
    if (e->refs == 0) {
      freed = std::move(e->memory);
      e->value.reset();
      e->map.reset();
      e->tier = srs_tier::cold;
    }
  }
  verified_.forget(file_name(e->src.path));
}

std::vector<srs_entry_info> srs_manager::entries() const {
  std::lock_guard lock(mu_);
  std::vector<srs_entry_info> out;
  const auto now = clock::now();
  for (const auto& [id, e] : entries_) {
    srs_entry_info i;
    i.circuit_id = id;
    i.path = e->src.path;
    i.tier = e->tier;
    i.file_bytes = e->file_bytes;
    i.hot_bytes = e->memory.bytes();
    i.refs = e->refs;
    i.verified = e->verified;
    i.loads = e->loads;
    i.idle = e->refs ? std::chrono::milliseconds(0)
                     : std::chrono::duration_cast<std::chrono::milliseconds>(now - e->last_used);
    out.push_back(std::move(i));
  }
  return out;
}

}  // namespace cuzk::engine
