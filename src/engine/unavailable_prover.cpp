#include <string>

#include "engine/prover.hpp"

namespace cuzk::engine {
namespace {

class unavailable_prover final : public partition_prover {
 public:
  std::string name() const override { return "none"; }
  bool supports(proof_kind) const override { return false; }

  result<job_plan> plan(const job_spec& job, std::stop_token) override {
    if (is_filecoin(job.kind)) {
      return error{errc::unsupported,
                   "not yet supported: " + std::string(to_string(job.kind)) +
                       " (this cuzk-daemon build has no Groth16 prover for Filecoin proofs yet)"};
    }
    return error{errc::unsupported, "prover not built in yet: " + std::string(to_string(job.kind))};
  }
  result<std::unique_ptr<witness_data>> synthesize(const job_spec&, const job_plan&,
                                                   const partition_work&, std::stop_token) override {
    return error{errc::internal, "unavailable prover: synthesize called without a plan"};
  }
  result<partition_proof> prove(const job_spec&, const job_plan&, const partition_work&,
                                std::unique_ptr<witness_data>, std::stop_token) override {
    return error{errc::internal, "unavailable prover: prove called without a plan"};
  }
  result<bytes> finalize(const job_spec&, const job_plan&, std::vector<bytes>,
                         std::stop_token) override {
    return error{errc::internal, "unavailable prover: finalize called without a plan"};
  }
};

}  // namespace

std::unique_ptr<partition_prover> make_unavailable_prover() {
  return std::make_unique<unavailable_prover>();
}

}  // namespace cuzk::engine
