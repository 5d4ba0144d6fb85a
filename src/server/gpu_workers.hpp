// The daemon's GPU workers: which backend proves (`[gpus] backend = cpu|cuda|auto`), on which
// devices (`[gpus] devices`), with how many workers per device (`gpu_workers_per_device`).
//
// Each GPU worker is one engine device worker (a device-stage consumer) owning its own prover
// backend on its device. The workers of one device share that device's resident SRS cache, its
// device-memory arbiter and its kernel-region lock (held only around kernel regions), so one
// worker uploads its witness or runs its CPU G2 MSM while another's kernels run. Engine device
// worker w runs on devices[w / per_device] (engine::current_device_worker() tells the prover
// which w it is on).
//
// The device layer is the gpu_platform interface: CUDA in production (cuda_platform.cpp, built
// only with CUDA), a fake in tests, so the selection rules and the worker bookkeeping are tested
// on machines without a GPU.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "backend/cuda/device_fault.hpp"   // device_fault_state (header-only, CUDA-free)
#include "backend/cuda/device_memory.hpp"  // kernel_region_lock (header-only, CUDA-free)
#include "base/executor.hpp"
#include "engine/engine.hpp"
#include "engine/result.hpp"
#include "groth16/prover_backend.hpp"
#include "server/config.hpp"

namespace cuzk::server {

// One device as the daemon uses it: its shared state and one backend per worker.
struct gpu_device {
  std::uint32_t ordinal = 0;
  std::string name;
  std::shared_ptr<cuda::kernel_region_lock> kernel_lock;
  // Set by a worker that meets a sticky device fault (device_fault.hpp); null for fakes without one.
  std::shared_ptr<cuda::device_fault_state> fault;
  // Fills memory_capacity / memory_reserved / memory_waiting from the device-memory arbiter.
  std::function<void(engine::gpu_info&)> read_memory;
  std::vector<std::unique_ptr<groth16::prover_backend>> workers;
};

class gpu_platform {
 public:
  virtual ~gpu_platform() = default;
  virtual std::string_view name() const = 0;  // "cuda"
  // Devices visible now; 0 with `why` set when there is none (no driver, no device).
  virtual unsigned device_count(std::string& why) = 0;
  // `workers` backends on device `ordinal` sharing one device-memory arbiter, one resident SRS
  // cache and one kernel-region lock; their CPU parts (the G2 MSM) run on `cpu`, which outlives them.
  // `residency`: where they keep the SRS bases ([gpus] srs_residency).
  virtual engine::result<gpu_device> open(std::uint32_t ordinal, unsigned workers, base::executor& cpu,
                                          srs_residency_kind residency) = 0;
};

// The CUDA platform; nullptr in a build without CUDA.
std::unique_ptr<gpu_platform> make_cuda_platform();

class gpu_workers {
 public:
  // Owns the devices and the executor their backends' CPU parts run on (destroyed after them).
  gpu_workers(std::unique_ptr<base::executor> cpu, std::vector<gpu_device> devices);
  ~gpu_workers();
  gpu_workers(const gpu_workers&) = delete;
  gpu_workers& operator=(const gpu_workers&) = delete;

  unsigned size() const { return static_cast<unsigned>(slots_.size()); }  // engine device workers
  // The backend engine device worker `worker` owns; nullptr outside 0..size()-1 (e.g. -1: not a
  // device-worker thread).
  groth16::prover_backend* backend(int worker) const;
  std::uint32_t device_of(unsigned worker) const { return devices_[slots_[worker].first].ordinal; }
  // Per-device state for engine::status_snapshot::gpus.
  std::vector<engine::gpu_info> status() const;
  const std::vector<gpu_device>& devices() const { return devices_; }
  // Runs f(ordinal, reason) when a device has a sticky fault (at once for one that already has).
  void on_fault(const std::function<void(std::uint32_t, const std::string&)>& f);

 private:
  std::unique_ptr<base::executor> cpu_;  // declared first: outlives the backends
  std::vector<gpu_device> devices_;
  std::vector<std::pair<std::size_t, std::size_t>> slots_;  // worker -> (device, backend)
};

struct backend_choice {
  backend_kind backend = backend_kind::cpu;  // cpu or cuda, never auto
  std::string note;                          // how it was chosen (logged at startup)
  std::shared_ptr<gpu_workers> gpus;         // cuda: the workers; cpu: null
};

// Resolves [gpus] against `platform` (nullptr: the build has no GPU backend):
//   cpu   the CPU backend, no GPU workers;
//   cuda  every device of [gpus] devices (empty = all visible) with gpu_workers_per_device
//         workers each; an error naming [gpus] backend when the build has no CUDA or no device
//         is visible, naming [gpus] devices when one listed is not there, and naming the device
//         when it cannot be opened;
//   auto  cuda when the platform exists and a device is visible (then as cuda), else cpu, with
//         the reason in `note`.
// gpu_threads ([gpus]) sizes the executor of the backends' CPU parts (0 = all cores).
engine::result<backend_choice> choose_backend(const daemon_config& cfg, gpu_platform* platform);

}  // namespace cuzk::server
