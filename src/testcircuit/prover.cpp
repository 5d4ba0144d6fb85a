#include "testcircuit/prover.hpp"

#include <array>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "backend/cpu/cpu_backend.hpp"
#include "base/executor.hpp"
#include "groth16/proof.hpp"
#include "groth16/prover.hpp"
#include "groth16/verifier.hpp"
#include "base/os_rng.hpp"
#include "engine/engine.hpp"
#include "engine/srs_catalog.hpp"

namespace cuzk::testcircuit {
namespace {

using engine::bytes;
using engine::errc;
using engine::error;
using engine::job_plan;
using engine::job_spec;
using engine::partition_work;
using engine::result;

// Shared by a job's partitions. outputs[i] is written by partition i's synthesize and read by
// finalize (guarded by mu; the engine also orders them).
struct job_context {
  std::shared_ptr<const compiled_circuit> circuit;
  std::vector<fr> starts;
  mutable std::mutex mu;
  mutable std::vector<std::optional<fr>> outputs;
};

struct partition_input {
  fr start;
};

class chain_witness_data final : public engine::witness_data {
 public:
  explicit chain_witness_data(chain_witness witness) : w(std::move(witness)) {}
  chain_witness w;
};

std::string ms_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", s * 1e3);
  return buf;
}

class testcircuit_prover final : public engine::partition_prover {
 public:
  explicit testcircuit_prover(prover_options o)
      : opts_(std::move(o)),
        exec_(base::make_thread_pool_executor(opts_.threads)),
        store_(opts_.param_cache, *exec_, opts_.log) {
    if (!opts_.srs) {
      engine::srs_manager_options mo;
      mo.cache_dir = opts_.param_cache;
      mo.log = opts_.log;
      opts_.srs = std::make_shared<engine::srs_manager>(std::move(mo));
    }
    add_test_circuit_resolver(*opts_.srs, store_);
  }

  std::string name() const override {
    return "groth16-" + (opts_.backend_for ? opts_.backend_name : std::string("cpu"));
  }
  bool supports(engine::proof_kind k) const override { return k == engine::proof_kind::test_circuit; }

  result<job_plan> plan(const job_spec& job, std::stop_token) override {
    if (job.kind != engine::proof_kind::test_circuit) {
      return error{errc::unsupported, "not yet supported: " + std::string(to_string(job.kind)) +
                                          " (the test-circuit prover proves test circuits only)"};
    }
    const auto& t = job.test_circuit;
    if (t.log2_constraints < min_log2 || t.log2_constraints > max_log2) {
      return error{errc::invalid_argument, "test_circuit.log2_constraints " + std::to_string(t.log2_constraints) +
                                               " is outside the supported range " + std::to_string(min_log2) +
                                               ".." + std::to_string(max_log2)};
    }
    if (t.partitions < 1 || t.partitions > max_partitions) {
      return error{errc::invalid_argument, "test_circuit.partitions " + std::to_string(t.partitions) +
                                               " is outside the supported range 1.." +
                                               std::to_string(max_partitions)};
    }
    try {
      auto ctx = std::make_shared<job_context>();
      ctx->circuit = circuit_cache::global().get(t.log2_constraints);
      const chain_layout& lay = ctx->circuit->def->layout();
      ctx->outputs.resize(t.partitions);
      job_plan p;
      p.circuit_id = "test-circuit-k" + std::to_string(t.log2_constraints);
      const std::uint64_t hb = host_bytes_for(lay);
      for (std::uint32_t i = 0; i < t.partitions; ++i) {
        ctx->starts.push_back(partition_start(t.seed, i));
        p.partitions.push_back({i, hb, std::make_shared<const partition_input>(partition_input{ctx->starts.back()})});
      }
      p.context = std::move(ctx);
      return p;
    } catch (const std::exception& e) {
      return error{errc::internal, std::string("test circuit plan: ") + e.what()};
    }
  }

  result<std::unique_ptr<engine::witness_data>> synthesize(const job_spec&, const job_plan& plan,
                                                           const partition_work& part,
                                                           std::stop_token stop) override {
    if (stop.stop_requested()) return error{errc::cancelled, "cancelled"};
    const auto& ctx = *static_cast<const job_context*>(plan.context.get());
    const auto& in = *static_cast<const partition_input*>(part.input.get());
    try {
      chain_witness w = compute_witness(*ctx.circuit, in.start);
      {
        std::lock_guard lock(ctx.mu);
        ctx.outputs.at(part.index) = w.inputs.at(2);
      }
      return std::unique_ptr<engine::witness_data>(std::make_unique<chain_witness_data>(std::move(w)));
    } catch (const std::exception& e) {
      return error{errc::internal, std::string("test circuit witness: ") + e.what()};
    }
  }

  result<engine::partition_proof> prove(const job_spec&, const job_plan& plan, const partition_work& part,
                                        std::unique_ptr<engine::witness_data> witness,
                                        std::stop_token stop) override {
    if (stop.stop_requested()) return error{errc::cancelled, "cancelled"};
    const auto& ctx = *static_cast<const job_context*>(plan.context.get());
    auto* wd = dynamic_cast<chain_witness_data*>(witness.get());
    if (!wd) return error{errc::internal, "test circuit prove: no witness"};
    const auto t0 = std::chrono::steady_clock::now();
    auto h = acquire(*ctx.circuit, stop);
    if (!h) return h.error();
    const srs* s = &h.value().get<srs>();
    engine::partition_proof out;
    out.srs_load = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
    if (stop.stop_requested()) return error{errc::cancelled, "cancelled"};
    try {
      // The device worker's own backend (one prove at a time per worker), else a pooled CPU one.
      groth16::prover_backend* worker_backend =
          opts_.backend_for ? opts_.backend_for(engine::current_device_worker()) : nullptr;
      std::unique_ptr<backend::cpu::cpu_backend> pooled;
      if (!worker_backend) pooled = take_backend();
      groth16::prove_timings pt;
      groth16::proof pr;
      {
        base::os_rng rng;
        const fr r = fr::random(rng), sv = fr::random(rng);
        pr = groth16::prove(groth16::parameters_view::of(s->params), ctx.circuit->shape, wd->w.inputs,
                            wd->w.aux, r, sv, worker_backend ? *worker_backend : *pooled, &pt);
      }
      if (pooled) give_back(std::move(pooled));
      witness.reset();
      const auto enc = groth16::encode_proof(pr);
      out.proof.assign(reinterpret_cast<const char*>(enc.data()), enc.size());
      log(engine::log_level::debug,
          "test circuit k=" + std::to_string(ctx.circuit->k()) + " partition " + std::to_string(part.index) +
              ": proved in " + ms_text(pt.total) + " ms (abc " + ms_text(pt.abc) + ", h " + ms_text(pt.h) +
              ", msm h " + ms_text(pt.msm_h) + ", l " + ms_text(pt.msm_l) + ", a " + ms_text(pt.msm_a) +
              ", b_g1 " + ms_text(pt.msm_b_g1) + ", b_g2 " + ms_text(pt.msm_b_g2) + ", assembly " +
              ms_text(pt.assembly) + ")");
      return out;
    } catch (const std::exception& e) {
      return error{errc::internal, std::string("test circuit prove: ") + e.what()};
    }
  }

  result<bytes> finalize(const job_spec&, const job_plan& plan, std::vector<bytes> proofs,
                         std::stop_token) override {
    const auto& ctx = *static_cast<const job_context*>(plan.context.get());
    if (proofs.size() != ctx.starts.size()) {
      return error{errc::internal, "test circuit finalize: " + std::to_string(proofs.size()) + " proofs for " +
                                       std::to_string(ctx.starts.size()) + " partitions"};
    }
    auto h = acquire(*ctx.circuit, {});  // HOT since prove, unless evicted meanwhile
    if (!h) return h.error();
    const srs* s = &h.value().get<srs>();
    bytes joined;
    joined.reserve(proofs.size() * groth16::proof_bytes);
    for (std::size_t i = 0; i < proofs.size(); ++i) {
      std::optional<fr> y;
      {
        std::lock_guard lock(ctx.mu);
        y = ctx.outputs[i];
      }
      if (!y) return error{errc::internal, "test circuit self-check: partition " + std::to_string(i) + " has no output"};
      if (proofs[i].size() != groth16::proof_bytes) {
        return error{errc::internal, "test circuit self-check: partition " + std::to_string(i) + " proof has " +
                                         std::to_string(proofs[i].size()) + " bytes"};
      }
      groth16::proof p;
      const auto* b = reinterpret_cast<const std::uint8_t*>(proofs[i].data());
      if (auto e = groth16::decode_proof(std::span<const std::uint8_t, groth16::proof_bytes>(b, groth16::proof_bytes), p);
          !e.ok()) {
        return error{errc::internal, "test circuit self-check: partition " + std::to_string(i) +
                                         " proof does not decode: " + e.message()};
      }
      const std::array<fr, num_public_inputs> pub{ctx.starts[i], *y};
      const auto v = groth16::verify(s->pvk, p, pub);
      if (v != groth16::verify_result::valid) {
        return error{errc::internal, "test circuit self-check failed: partition " + std::to_string(i) +
                                         " proof does not verify (" + groth16::to_string(v) + ")"};
      }
      joined += proofs[i];
    }
    return joined;
  }

 private:
  // The k-circuit's parameters through the SRS manager; a corrupt cached file (digest mismatch,
  // undecodable) is regenerated once.
  result<engine::srs_handle> acquire(const compiled_circuit& c, std::stop_token stop) {
    const std::string id = circuit_id_for(c.k());
    auto h = opts_.srs->acquire(id, stop);
    if (h || h.error().code != errc::data_loss) return h;
    log(engine::log_level::warn, "test circuit k=" + std::to_string(c.k()) + ": " + h.error().message +
                                     "; generating new parameters");
    if (auto d = store_.ensure_files(c, true); !d) return d.error();
    opts_.srs->reset(id);
    return opts_.srs->acquire(id, stop);
  }

  void log(engine::log_level l, const std::string& m) const {
    if (opts_.log) opts_.log(l, m);
  }
  std::unique_ptr<backend::cpu::cpu_backend> take_backend() {
    std::lock_guard lock(pool_mu_);
    if (pool_.empty()) return std::make_unique<backend::cpu::cpu_backend>(*exec_);
    auto b = std::move(pool_.back());
    pool_.pop_back();
    return b;
  }
  void give_back(std::unique_ptr<backend::cpu::cpu_backend> b) {
    std::lock_guard lock(pool_mu_);
    pool_.push_back(std::move(b));
  }

  prover_options opts_;
  std::unique_ptr<base::executor> exec_;
  param_store store_;
  std::mutex pool_mu_;
  std::vector<std::unique_ptr<backend::cpu::cpu_backend>> pool_;
};

}  // namespace

std::uint64_t host_bytes_for(const chain_layout& l) {
  const std::uint64_t fr_bytes = sizeof(fr);
  return fr_bytes * (l.num_inputs + l.num_aux) + (160ull + 200ull) * l.domain_size + (16ull << 20);
}

void add_test_circuit_resolver(engine::srs_manager& m, param_store& store) {
  m.add_resolver([&store](std::string_view id) -> std::optional<engine::srs_source> {
    const auto k = k_of_circuit_id(id);
    if (!k) return std::nullopt;
    engine::srs_source s;
    s.path = files_for(store.dir(), *k).params;
    s.prepare = [&store, k = *k](std::stop_token) -> result<std::string> {
      try {
        return store.ensure_files(*circuit_cache::global().get(k));
      } catch (const std::exception& e) {
        return error{errc::internal, std::string("test circuit: ") + e.what()};
      }
    };
    s.decode = [k = *k](std::span<const std::uint8_t> file, bool verified,
                        std::stop_token) -> result<engine::srs_payload> {
      auto c = circuit_cache::global().get(k);
      auto d = decode_srs(file, verified, *c);
      if (!d) return d.error();
      const auto bytes = engine::decoded_parameters_bytes(file.size());
      return engine::srs_payload{std::shared_ptr<const void>(d.value()), bytes};
    };
    s.hot_bytes = engine::decoded_parameters_bytes;
    return s;
  });
}

std::unique_ptr<engine::partition_prover> make_prover(prover_options opts) {
  return std::make_unique<testcircuit_prover>(std::move(opts));
}

}  // namespace cuzk::testcircuit
