// The CUDA gpu_platform (gpu_workers.hpp): cuda_backend workers on one device sharing its arbiter
// (capacity = the device's free memory at startup minus a 2 GiB margin for CUDA's own use), its
// resident SRS cache (one parameter set: the test circuits and a PoRep partition prove with one at
// a time; a second set evicts the first once no worker uses it), its kernel-region lock and its
// fault state (after a sticky device fault every worker of the device refuses work at once).
// Built only with CUDA; without it make_cuda_platform() (the #else branch) returns nullptr.
#include <memory>
#include <string>

#include "server/gpu_workers.hpp"

#if defined(CUZK_WITH_CUDA) && CUZK_WITH_CUDA
#include "backend/cuda/cuda_backend.hpp"
#endif

namespace cuzk::server {

#if defined(CUZK_WITH_CUDA) && CUZK_WITH_CUDA
namespace {

class cuda_platform final : public gpu_platform {
 public:
  std::string_view name() const override { return "cuda"; }

  unsigned device_count(std::string& why) override {
    const int n = cuda::cuda_device_count(why);
    return n > 0 ? static_cast<unsigned>(n) : 0u;
  }

  engine::result<gpu_device> open(std::uint32_t ordinal, unsigned workers, base::executor& cpu,
                                  srs_residency_kind residency) override {
    // The NTT and MSM contexts select device 0 when they are made (ntt_cuda.cu, msm_cuda.cu), so a
    // backend on another device would run them on the wrong one: refused until they take the
    // calling thread's current device.
    if (ordinal != 0) {
      return engine::error{engine::errc::unsupported,
                           "only device 0 can be used for now (the NTT and MSM contexts are made on device 0); "
                           "set [gpus] devices = [0]"};
    }
    gpu_device d;
    d.ordinal = ordinal;
    d.name = cuda::cuda_device_name(static_cast<int>(ordinal));
    d.kernel_lock = std::make_shared<cuda::kernel_region_lock>();
    d.fault = std::make_shared<cuda::device_fault_state>();
    cuda::cuda_backend_options o;
    o.device = static_cast<int>(ordinal);
    o.kernel_lock = d.kernel_lock;
    o.fault = d.fault;
    o.srs = std::make_shared<cuda::device_srs_cache>(1);
    o.residency = residency == srs_residency_kind::device     ? cuda::srs_residency::device
                  : residency == srs_residency_kind::streamed ? cuda::srs_residency::streamed
                                                              : cuda::srs_residency::automatic;
    try {
      auto info = cuda::make_cuda_memory_info(o.device);
      o.arbiter = cuda::device_memory_arbiter::from_device(*info, o.arbiter_margin_bytes);
    } catch (const std::exception& e) {
      return engine::error{engine::errc::failed_precondition, e.what()};
    }
    // Pinned staging for witness uploads: two double-buffered chunks per worker are plenty.
    o.pinned = cuda::make_cuda_pinned_pool(std::size_t{256} << 20);
    d.read_memory = [arbiter = o.arbiter](engine::gpu_info& g) {
      g.memory_capacity = arbiter->capacity();
      g.memory_reserved = arbiter->in_use();
      g.memory_waiting = static_cast<std::uint32_t>(arbiter->waiting());
    };
    for (unsigned w = 0; w < workers; ++w) {
      std::string error;
      auto b = cuda::cuda_backend::create(cpu, o, error);
      if (!b) return engine::error{engine::errc::failed_precondition, "worker " + std::to_string(w) + ": " + error};
      d.workers.push_back(std::move(b));
    }
    return d;
  }
};

}  // namespace

std::unique_ptr<gpu_platform> make_cuda_platform() { return std::make_unique<cuda_platform>(); }
#else
std::unique_ptr<gpu_platform> make_cuda_platform() { return nullptr; }
#endif

}  // namespace cuzk::server
