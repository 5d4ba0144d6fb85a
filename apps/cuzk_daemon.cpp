// cuzk-daemon: the proving daemon Curio talks to over gRPC (cuzk.v1.ProvingEngine).
// All the work is in src/server (daemon.cpp); this file chooses the prover:
//   * TEST_CIRCUIT jobs: the test-circuit prover (src/testcircuit): the built-in MiMC chain
//     family, Groth16 on the GPU workers' backends ([gpus] backend = cuda, or auto with a device)
//     or on the CPU, development parameters generated on first use into
//     [srs] param_cache and loaded through the daemon's SRS manager ("test-circuit-k<k>");
//   * Filecoin kinds: the unavailable prover, which fails them with a precise
//     "not yet supported: <kind>" (it never produces a proof) until the Filecoin circuits land.
#include <spdlog/spdlog.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/engine.hpp"
#include "engine/prover.hpp"
#include "server/daemon.hpp"
#include "testcircuit/prover.hpp"

namespace {

using namespace cuzk;

// Sends each job to the prover for its kind. plan() decides; the later stages follow the job's
// kind, so a job never changes hands.
class by_kind_prover final : public engine::partition_prover {
 public:
  by_kind_prover(std::shared_ptr<engine::partition_prover> test_circuit,
                 std::shared_ptr<engine::partition_prover> filecoin)
      : test_(std::move(test_circuit)), filecoin_(std::move(filecoin)) {}

  std::string name() const override { return test_->name(); }
  bool supports(engine::proof_kind k) const override { return pick(k).supports(k); }
  engine::result<engine::job_plan> plan(const engine::job_spec& job, std::stop_token stop) override {
    return pick(job.kind).plan(job, std::move(stop));
  }
  engine::result<std::unique_ptr<engine::witness_data>> synthesize(const engine::job_spec& job,
                                                                   const engine::job_plan& plan,
                                                                   const engine::partition_work& part,
                                                                   std::stop_token stop) override {
    return pick(job.kind).synthesize(job, plan, part, std::move(stop));
  }
  engine::result<engine::partition_proof> prove(const engine::job_spec& job, const engine::job_plan& plan,
                                                const engine::partition_work& part,
                                                std::unique_ptr<engine::witness_data> witness,
                                                std::stop_token stop) override {
    return pick(job.kind).prove(job, plan, part, std::move(witness), std::move(stop));
  }
  engine::result<engine::bytes> finalize(const engine::job_spec& job, const engine::job_plan& plan,
                                         std::vector<engine::bytes> proofs, std::stop_token stop) override {
    return pick(job.kind).finalize(job, plan, std::move(proofs), std::move(stop));
  }

 private:
  engine::partition_prover& pick(engine::proof_kind k) const {
    return k == engine::proof_kind::test_circuit ? *test_ : *filecoin_;
  }
  std::shared_ptr<engine::partition_prover> test_, filecoin_;
};

void log_to_spdlog(engine::log_level lvl, const std::string& msg) {
  switch (lvl) {
    case engine::log_level::debug: spdlog::debug("{}", msg); break;
    case engine::log_level::info: spdlog::info("{}", msg); break;
    case engine::log_level::warn: spdlog::warn("{}", msg); break;
    case engine::log_level::error: spdlog::error("{}", msg); break;
  }
}

}  // namespace

int main(int argc, char** argv) {
  return server::run_daemon(
      argc, argv,
      [](const server::daemon_config& cfg, const std::shared_ptr<engine::srs_manager>& srs,
         const std::shared_ptr<server::gpu_workers>& gpus)
          -> engine::result<std::shared_ptr<engine::partition_prover>> {
        testcircuit::prover_options o;
        o.param_cache = cfg.srs.param_cache;
        o.threads = cfg.gpus.gpu_threads;
        o.log = log_to_spdlog;
        o.srs = srs;
        if (gpus) {  // each engine device worker proves on its own GPU worker's backend
          o.backend_for = [gpus](int worker) { return gpus->backend(worker); };
          o.backend_name = "cuda";
        }
        return std::shared_ptr<engine::partition_prover>(std::make_shared<by_kind_prover>(
            testcircuit::make_prover(std::move(o)), engine::make_unavailable_prover()));
      });
}
