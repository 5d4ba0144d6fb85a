// The daemon's GPU-worker layer without a GPU: choose_backend's rules for [gpus] backend / devices
// / gpu_workers_per_device against a fake gpu_platform, and the worker/lock logic end to end (the
// real engine and test-circuit prover, each engine device worker proving on its own fake backend;
// a fake backend holds its device's kernel_region_lock only around its "kernel" phase, as
// cuda_backend does). The proofs are real (the fake delegates to the CPU backend), so the jobs
// complete only if the self-verification in finalize passes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "backend/cpu/cpu_backend.hpp"
#include "engine/engine.hpp"
#include "server/gpu_workers.hpp"
#include "server/service.hpp"
#include "testcircuit/prover.hpp"

namespace cuzk::server {
namespace {

using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

struct interval {
  unsigned device, worker;
  bool kernel;  // else the preparation outside the lock
  clock_type::time_point begin, end;
};

struct recorder {
  std::mutex mu;
  std::vector<interval> all;
  std::vector<std::pair<int, int>> threads;  // (owner worker, engine device worker of the caller)
  void add(interval i) {
    std::lock_guard l(mu);
    all.push_back(i);
  }
};

// Prepares for prepare_time outside the lock, then proves on the CPU inside the lock and holds it
// for at least kernel_time (the device kernels' stand-in).
class fake_gpu_backend final : public groth16::prover_backend {
 public:
  fake_gpu_backend(base::executor& ex, std::shared_ptr<cuda::kernel_region_lock> lock, recorder& rec, unsigned device,
                   unsigned worker)
      : cpu_(ex), lock_(std::move(lock)), rec_(rec), device_(device), worker_(worker) {}
  std::string_view name() const override { return "fake-gpu"; }

  groth16::proof prove_partition(const groth16::parameters_view& params, const r1cs::r1cs_shape& shape,
                                 std::span<const fr> inputs, std::span<const fr> aux, const fr& r, const fr& s,
                                 groth16::prove_timings* t) override {
    {
      std::lock_guard l(rec_.mu);
      rec_.threads.emplace_back(static_cast<int>(worker_), engine::current_device_worker());
    }
    const auto p0 = clock_type::now();
    std::this_thread::sleep_for(prepare_time);
    rec_.add({device_, worker_, false, p0, clock_type::now()});
    std::lock_guard kernels(*lock_);
    const auto k0 = clock_type::now();
    auto out = cpu_.prove_partition(params, shape, inputs, aux, r, s, t);
    std::this_thread::sleep_until(k0 + kernel_time);
    rec_.add({device_, worker_, true, k0, clock_type::now()});
    return out;
  }
  void evaluate_abc(const r1cs::r1cs_shape& sh, std::span<const fr> i, std::span<const fr> w, std::span<fr> a,
                    std::span<fr> b, std::span<fr> c) override {
    cpu_.evaluate_abc(sh, i, w, a, b, c);
  }
  void compute_h(std::span<fr> a, std::span<fr> b, std::span<fr> c) override { cpu_.compute_h(a, b, c); }
  ec::g1_jacobian msm_g1(std::span<const ec::g1_affine> b, std::span<const fr> s) override { return cpu_.msm_g1(b, s); }
  ec::g1_jacobian msm_g1(std::span<const ec::g1_affine> b, const r1cs::density_bitmap& d,
                         std::span<const fr> s) override {
    return cpu_.msm_g1(b, d, s);
  }
  ec::g2_jacobian msm_g2(std::span<const ec::g2_affine> b, const r1cs::density_bitmap& d,
                         std::span<const fr> s) override {
    return cpu_.msm_g2(b, d, s);
  }

  static constexpr auto prepare_time = 40ms, kernel_time = 40ms;

 private:
  backend::cpu::cpu_backend cpu_;
  std::shared_ptr<cuda::kernel_region_lock> lock_;
  recorder& rec_;
  unsigned device_, worker_;
};

class fake_platform final : public gpu_platform {
 public:
  explicit fake_platform(unsigned devices, recorder* rec = nullptr) : devices_(devices), rec_(rec) {}
  std::string_view name() const override { return "fake"; }
  unsigned device_count(std::string& why) override {
    if (devices_ == 0) why = "no fake device";
    return devices_;
  }
  engine::result<gpu_device> open(std::uint32_t ordinal, unsigned workers, base::executor& cpu,
                                  srs_residency_kind residency) override {
    if (ordinal == broken) return engine::error{engine::errc::internal, "context creation failed"};
    opened.push_back(ordinal);
    residencies.push_back(residency);
    gpu_device d;
    d.ordinal = ordinal;
    d.name = "Fake GPU " + std::to_string(ordinal);
    d.kernel_lock = std::make_shared<cuda::kernel_region_lock>();
    d.fault = std::make_shared<cuda::device_fault_state>();
    faults[ordinal] = d.fault;
    d.read_memory = [](engine::gpu_info& g) {
      g.memory_capacity = 80ull << 30;
      g.memory_reserved = 3ull << 30;
    };
    for (unsigned w = 0; w < workers; ++w) {
      if (rec_) d.workers.push_back(std::make_unique<fake_gpu_backend>(cpu, d.kernel_lock, *rec_, ordinal, w));
      else d.workers.push_back(std::make_unique<backend::cpu::cpu_backend>(cpu));
    }
    return d;
  }
  std::vector<std::uint32_t> opened;
  std::vector<srs_residency_kind> residencies;
  std::map<std::uint32_t, std::shared_ptr<cuda::device_fault_state>> faults;  // by ordinal
  std::uint32_t broken = ~0u;

 private:
  unsigned devices_;
  recorder* rec_;
};

TEST(kernel_region_lock, excludes_and_counts_regions_and_busy_time_including_the_one_in_progress) {
  cuda::kernel_region_lock lock;
  EXPECT_FALSE(lock.held());
  lock.lock();
  const auto t0 = clock_type::now();
  std::thread other([&] {
    std::lock_guard g(lock);  // waits for the first region to end
    EXPECT_GE(clock_type::now() - t0, 50ms);
  });
  std::this_thread::sleep_for(60ms);
  EXPECT_TRUE(lock.held());
  EXPECT_EQ(lock.regions(), 0u);
  EXPECT_GE(lock.busy_seconds(), 0.06);  // the region in progress counts
  lock.unlock();
  other.join();
  EXPECT_FALSE(lock.held());
  EXPECT_EQ(lock.regions(), 2u);
  const double busy = lock.busy_seconds();
  EXPECT_GE(busy, 0.06);
  EXPECT_LT(busy, 10.0);
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(lock.busy_seconds(), busy);  // idle time is not counted
}

daemon_config with(backend_kind b, std::vector<std::uint32_t> devices = {}, std::uint32_t per_device = 2) {
  daemon_config c;
  c.gpus.backend = b;
  c.gpus.devices = std::move(devices);
  c.gpus.gpu_workers_per_device = per_device;
  c.gpus.gpu_threads = 1;
  return c;
}

TEST(gpu_workers, cpu_backend_opens_no_device) {
  fake_platform p(2);
  auto c = choose_backend(with(backend_kind::cpu), &p);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->backend, backend_kind::cpu);
  EXPECT_EQ(c->gpus, nullptr);
  EXPECT_TRUE(p.opened.empty());
}

TEST(gpu_workers, auto_falls_back_to_the_cpu_without_a_device_or_without_cuda) {
  fake_platform none(0);
  auto c = choose_backend(with(backend_kind::auto_select), &none);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->backend, backend_kind::cpu);
  EXPECT_EQ(c->gpus, nullptr);
  EXPECT_NE(c->note.find("no GPU (no fake device)"), std::string::npos) << c->note;
  auto built_without = choose_backend(with(backend_kind::auto_select), nullptr);
  ASSERT_TRUE(built_without);
  EXPECT_EQ(built_without->backend, backend_kind::cpu);
  EXPECT_NE(built_without->note.find("built without CUDA"), std::string::npos) << built_without->note;
}

TEST(gpu_workers, cuda_without_a_device_is_a_startup_error_naming_the_key) {
  fake_platform none(0);
  for (gpu_platform* p : {static_cast<gpu_platform*>(&none), static_cast<gpu_platform*>(nullptr)}) {
    auto c = choose_backend(with(backend_kind::cuda), p);
    ASSERT_FALSE(c);
    EXPECT_NE(c.error().message.find("[gpus] backend = \"cuda\" but no GPU can be used"), std::string::npos)
        << c.error().message;
  }
}

TEST(gpu_workers, devices_are_checked_and_each_gets_its_workers) {
  fake_platform two(2);
  auto missing = choose_backend(with(backend_kind::cuda, {0, 3}), &two);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("[gpus] devices: device 3 does not exist (2 visible"), std::string::npos)
      << missing.error().message;

  two.broken = 1;
  auto broken = choose_backend(with(backend_kind::cuda), &two);
  ASSERT_FALSE(broken);
  EXPECT_NE(broken.error().message.find("[gpus] device 1 (fake): context creation failed"), std::string::npos)
      << broken.error().message;

  fake_platform p(3);
  auto c = choose_backend(with(backend_kind::auto_select, {2, 0}, 3), &p);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->backend, backend_kind::cuda);
  EXPECT_EQ(p.opened, (std::vector<std::uint32_t>{2, 0}));
  EXPECT_EQ(p.residencies, (std::vector<srs_residency_kind>(2, srs_residency_kind::auto_select)));
  ASSERT_EQ(c->gpus->size(), 6u);
  for (unsigned w = 0; w < 6; ++w) EXPECT_EQ(c->gpus->device_of(w), w < 3 ? 2u : 0u) << w;
  EXPECT_NE(c->gpus->backend(0), c->gpus->backend(1));
  EXPECT_EQ(c->gpus->backend(-1), nullptr);
  EXPECT_EQ(c->gpus->backend(6), nullptr);
  const auto st = c->gpus->status();
  ASSERT_EQ(st.size(), 2u);
  EXPECT_EQ(st[0].ordinal, 2u);
  EXPECT_EQ(st[0].workers, (std::vector<std::uint32_t>{0, 1, 2}));
  EXPECT_EQ(st[1].workers, (std::vector<std::uint32_t>{3, 4, 5}));
  EXPECT_EQ(st[1].memory_capacity, 80ull << 30);
  EXPECT_EQ(st[1].name, "Fake GPU 0");
  // All visible devices when [gpus] devices is empty ("all").
  fake_platform q(2);
  auto all = choose_backend(with(backend_kind::cuda, {}, 1), &q);
  ASSERT_TRUE(all);
  EXPECT_EQ(all->gpus->size(), 2u);
}

// Per-GPU state as /metrics and /status render it: counters and gauges per gpu label, each
// worker's busy/idle from the engine's device workers.
TEST(gpu_workers, metrics_and_status_show_per_gpu_state) {
  engine::status_snapshot s;
  engine::gpu_info g;
  g.ordinal = 0;
  g.name = "Fake GPU 0";
  g.workers = {0, 1};
  g.memory_capacity = 100;
  g.memory_reserved = 40;
  g.memory_waiting = 1;
  g.busy_seconds = 2.5;
  g.kernel_regions = 7;
  s.gpus.push_back(g);
  engine::status_snapshot::worker_info w0, w1;
  w0.stage = w1.stage = "device";
  w0.index = 0;
  w1.index = 1;
  w1.busy = true;
  w1.job_id = "job-7";
  w1.kind = engine::proof_kind::test_circuit;
  s.workers = {w0, w1};
  const auto m = prometheus_text(s);
  for (const char* line :
       {"cuzk_gpu_busy_seconds_total{gpu=\"0\"} 2.5\n", "cuzk_gpu_kernel_regions_total{gpu=\"0\"} 7\n",
        "cuzk_gpu_memory_capacity_bytes{gpu=\"0\"} 100\n", "cuzk_gpu_memory_reserved_bytes{gpu=\"0\"} 40\n",
        "cuzk_gpu_memory_waiting{gpu=\"0\"} 1\n", "cuzk_gpu_workers_busy{gpu=\"0\"} 1\n",
        "# TYPE cuzk_gpu_busy_seconds_total counter\n"}) {
    EXPECT_NE(m.find(line), std::string::npos) << line << "\n" << m;
  }
  const auto j = status_json(s, {"0.1.0", "cuda"});
  EXPECT_NE(j.find("\"gpus\":[{\"ordinal\":0,\"name\":\"Fake GPU 0\",\"memory_capacity_bytes\":100,"
                   "\"memory_reserved_bytes\":40,\"memory_waiting\":1,\"busy_seconds\":2.5,\"kernel_regions\":7,"
                   "\"workers\":[{\"device_worker\":0,\"busy\":false},{\"device_worker\":1,\"busy\":true,"
                   "\"job_id\":\"job-7\"}]}]"),
            std::string::npos)
      << j;
  EXPECT_EQ(prometheus_text(engine::status_snapshot{}).find("cuzk_gpu_"), std::string::npos);  // cpu: none
  EXPECT_NE(m.find("cuzk_gpu_faulted{gpu=\"0\"} 0\n"), std::string::npos) << m;
  s.accepting = true;
  EXPECT_EQ(health_of(s).status, 200);
  EXPECT_EQ(health_of(s).body, "ok\n");
  s.accepting = false;
  EXPECT_EQ(health_of(s).status, 503);
  EXPECT_EQ(health_of(s).body, "shutting down\n");
  EXPECT_EQ(j.find("\"fault\""), std::string::npos) << "a usable GPU has no fault field: " << j;

  // After a sticky device fault: the gauge, and the reason in /status.
  s.gpus[0].fault = "cudaErrorIllegalAddress: an illegal memory access was encountered";
  EXPECT_NE(prometheus_text(s).find("cuzk_gpu_faulted{gpu=\"0\"} 1\n"), std::string::npos);
  s.accepting = true;
  const health_answer h = health_of(s);
  EXPECT_EQ(h.status, 503);
  EXPECT_EQ(h.body, "gpu 0 faulted (cudaErrorIllegalAddress: an illegal memory access was encountered); restart the "
                    "daemon to reset it\n");
  const auto jf = status_json(s, {"0.1.0", "cuda"});
  EXPECT_NE(jf.find("\"kernel_regions\":7,\"fault\":\"cudaErrorIllegalAddress: an illegal memory access was "
                    "encountered\",\"workers\":["),
            std::string::npos)
      << jf;
}

// gpu_workers::status reports a device's recorded fault (what a worker's backend sets after a
// sticky CUDA error), and only that device's; on_fault hears it once, with the ordinal.
TEST(gpu_workers, status_reports_a_device_fault) {
  fake_platform platform(2);
  auto c = choose_backend(with(backend_kind::cuda, {0, 1}), &platform);
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_TRUE(c->gpus);
  auto st = c->gpus->status();
  ASSERT_EQ(st.size(), 2u);
  EXPECT_EQ(st[0].fault, "");
  EXPECT_EQ(st[1].fault, "");
  std::vector<std::pair<std::uint32_t, std::string>> heard;  // what the daemon's listener logs
  c->gpus->on_fault([&](std::uint32_t ordinal, const std::string& reason) { heard.emplace_back(ordinal, reason); });
  ASSERT_TRUE(platform.faults[1]);
  platform.faults[1]->record("cudaErrorECCUncorrectable: uncorrectable ECC error encountered");
  ASSERT_EQ(heard.size(), 1u);
  EXPECT_EQ(heard[0].first, 1u);
  EXPECT_EQ(heard[0].second, "cudaErrorECCUncorrectable: uncorrectable ECC error encountered");
  st = c->gpus->status();
  EXPECT_EQ(st[0].fault, "");
  EXPECT_EQ(st[1].fault, "cudaErrorECCUncorrectable: uncorrectable ECC error encountered");
}

bool overlap(const interval& a, const interval& b) { return a.begin < b.end && b.begin < a.end; }

// Two devices x two workers through the real engine: kernel regions of one device never overlap,
// a worker's preparation overlaps the other worker's kernels (they interleave), each engine device
// worker proves only on its own backend, and the lock accounts the busy time.
TEST(gpu_workers, two_workers_per_device_interleave_with_the_lock_held_only_around_kernels) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("cuzk-gpu-workers-" + std::to_string(::getpid()));
  recorder rec;
  fake_platform p(2, &rec);
  auto c = choose_backend(with(backend_kind::cuda), &p);
  ASSERT_TRUE(c) << c.error().message;
  const auto gpus = c->gpus;
  {
    testcircuit::prover_options po;
    po.param_cache = dir.string();
    po.threads = 1;
    po.backend_for = [gpus](int w) { return gpus->backend(w); };
    po.backend_name = "fake";
    auto prover = std::shared_ptr<engine::partition_prover>(testcircuit::make_prover(std::move(po)));
    EXPECT_EQ(prover->name(), "groth16-fake");
    engine::engine_options eo;
    eo.host_memory_bytes = 1ull << 30;
    eo.witness_workers = 2;
    eo.device_workers = gpus->size();
    eo.gpu_status = [gpus] { return gpus->status(); };
    engine::engine eng(eo, prover);
    std::vector<std::string> ids;
    for (int j = 0; j < 2; ++j) {
      engine::job_spec s;
      s.kind = engine::proof_kind::test_circuit;
      s.test_circuit = {6, 8, static_cast<std::uint64_t>(j + 1)};
      auto sub = eng.submit(s);
      ASSERT_TRUE(sub) << sub.error().message;
      ids.push_back(sub->job_id);
    }
    for (const auto& id : ids) {
      auto r = eng.await_blocking(id, 60s);
      ASSERT_TRUE(r);
      ASSERT_EQ(r->status, engine::job_status::completed) << r->error;
    }
    const auto st = eng.status();
    ASSERT_EQ(st.gpus.size(), 2u);
    std::uint64_t regions = 0;
    for (const auto& g : st.gpus) {
      regions += g.kernel_regions;
      // Every region is held at least kernel_time.
      EXPECT_GE(g.busy_seconds, 0.04 * static_cast<double>(g.kernel_regions) * 0.99);
    }
    EXPECT_EQ(regions, 16u);
    eng.shutdown(0ms);
  }
  std::filesystem::remove_all(dir);

  // Each engine device worker used only the backend it owns (device d's worker b = engine worker 2d+b).
  ASSERT_EQ(rec.threads.size(), 16u);
  for (const auto& [owner, caller] : rec.threads) EXPECT_EQ(caller % 2, owner) << caller;
  bool interleaved = false;
  for (const auto& a : rec.all) {
    for (const auto& b : rec.all) {
      if (a.device != b.device || a.worker == b.worker) continue;
      if (a.kernel && b.kernel) {
        EXPECT_FALSE(overlap(a, b)) << "kernel regions of one device overlap";
      }
      if (!a.kernel && b.kernel && overlap(a, b)) interleaved = true;
    }
  }
  EXPECT_TRUE(interleaved) << "no worker prepared while the other's kernels ran";
}

}  // namespace
}  // namespace cuzk::server
