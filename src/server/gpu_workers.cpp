#include "server/gpu_workers.hpp"

#include <utility>

namespace cuzk::server {

using engine::errc;
using engine::error;

gpu_workers::gpu_workers(std::unique_ptr<base::executor> cpu, std::vector<gpu_device> devices)
    : cpu_(std::move(cpu)), devices_(std::move(devices)) {
  for (std::size_t d = 0; d < devices_.size(); ++d) {
    for (std::size_t b = 0; b < devices_[d].workers.size(); ++b) slots_.emplace_back(d, b);
  }
}

// The backends go first (they use the executor), then the executor.
gpu_workers::~gpu_workers() { devices_.clear(); }

groth16::prover_backend* gpu_workers::backend(int worker) const {
  if (worker < 0 || static_cast<std::size_t>(worker) >= slots_.size()) return nullptr;
  const auto [d, b] = slots_[static_cast<std::size_t>(worker)];
  return devices_[d].workers[b].get();
}

void gpu_workers::on_fault(const std::function<void(std::uint32_t, const std::string&)>& f) {
  for (const gpu_device& dev : devices_)
    if (dev.fault) dev.fault->on_fault([f, ordinal = dev.ordinal](const std::string& reason) { f(ordinal, reason); });
}

std::vector<engine::gpu_info> gpu_workers::status() const {
  std::vector<engine::gpu_info> out;
  for (std::size_t d = 0; d < devices_.size(); ++d) {
    const gpu_device& dev = devices_[d];
    engine::gpu_info g;
    g.ordinal = dev.ordinal;
    g.name = dev.name;
    for (std::size_t w = 0; w < slots_.size(); ++w) {
      if (slots_[w].first == d) g.workers.push_back(static_cast<std::uint32_t>(w));
    }
    if (dev.read_memory) dev.read_memory(g);
    if (dev.kernel_lock) {
      g.busy_seconds = dev.kernel_lock->busy_seconds();
      g.kernel_regions = dev.kernel_lock->regions();
    }
    if (dev.fault && dev.fault->faulted()) g.fault = dev.fault->reason();
    out.push_back(std::move(g));
  }
  return out;
}

engine::result<backend_choice> choose_backend(const daemon_config& cfg, gpu_platform* platform) {
  backend_choice c;
  const backend_kind asked = cfg.gpus.backend;
  if (asked == backend_kind::cpu) {
    c.note = "[gpus] backend = \"cpu\"";
    return c;
  }
  std::string why;
  const unsigned count = platform ? platform->device_count(why) : 0;
  if (!platform) why = "this cuzk-daemon was built without CUDA";
  if (count == 0) {
    if (asked == backend_kind::cuda) {
      return error{errc::failed_precondition,
                   "[gpus] backend = \"cuda\" but no GPU can be used: " + why +
                       " (set [gpus] backend = \"cpu\" or \"auto\")"};
    }
    c.note = "[gpus] backend = \"auto\": no GPU (" + why + "); using the CPU backend";
    return c;
  }
  std::vector<std::uint32_t> ordinals = cfg.gpus.devices;
  if (ordinals.empty()) {
    for (unsigned i = 0; i < count; ++i) ordinals.push_back(i);
  }
  for (const auto o : ordinals) {
    if (o >= count) {
      return error{errc::failed_precondition, "[gpus] devices: device " + std::to_string(o) + " does not exist (" +
                                                  std::to_string(count) + " visible: 0.." +
                                                  std::to_string(count - 1) + ")"};
    }
  }
  auto cpu = base::make_thread_pool_executor(cfg.gpus.gpu_threads);
  std::vector<gpu_device> devices;
  for (const auto o : ordinals) {
    auto d = platform->open(o, cfg.gpus.gpu_workers_per_device, *cpu, cfg.gpus.srs_residency);
    if (!d) {
      return error{errc::failed_precondition, "[gpus] device " + std::to_string(o) + " (" +
                                                  std::string(platform->name()) + "): " + d.error().message};
    }
    devices.push_back(std::move(d.value()));
  }
  c.backend = backend_kind::cuda;
  c.note = "[gpus] backend = \"" + std::string(to_string(asked)) + "\": " + std::to_string(ordinals.size()) +
           " device(s) x " + std::to_string(cfg.gpus.gpu_workers_per_device) + " worker(s), SRS residency " +
           std::string(to_string(cfg.gpus.srs_residency));
  for (const auto& d : devices) c.note += "; device " + std::to_string(d.ordinal) + ": " + d.name;
  c.gpus = std::make_shared<gpu_workers>(std::move(cpu), std::move(devices));
  return c;
}

}  // namespace cuzk::server
