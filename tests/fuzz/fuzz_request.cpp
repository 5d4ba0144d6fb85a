// Fuzz target: the request decoders at the gRPC edge. The first byte picks the message; the rest
// is its protobuf encoding as a client would send it.
//   0: SubmitProofRequest -> server::to_job_spec (validation, payload moves)
//   1: ProveRequest       -> its submit, as Prove does
//   2: PreloadSrsRequest / EvictSrsRequest circuit ids -> the SRS catalog's resolvers
//      (Filecoin ids and "test-circuit-k<k>")
//   3: AwaitProofRequest timeout and CancelProofRequest job ids (length checks only)
// Properties: never crashes; an accepted request names a known proof kind and priority, and its
// test_circuit fields are only set for TEST_CIRCUIT jobs.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <google/protobuf/stubs/logging.h>

#include "cuzk/v1/proving.pb.h"
#include "engine/srs_catalog.hpp"
#include "server/service.hpp"
#include "testcircuit/param_store.hpp"

namespace {

void check_spec(cuzk::v1::SubmitProofRequest& req) {
  auto spec = cuzk::server::to_job_spec(req);
  if (!spec) {
    if (spec.error().message.empty()) std::abort();
    return;
  }
  const auto& s = spec.value();
  const auto p = static_cast<std::uint32_t>(s.prio);
  if (p < 1 || p > 4) std::abort();
  if (s.kind != cuzk::engine::proof_kind::test_circuit && s.test_circuit.partitions != 0) std::abort();
  if (s.kind == cuzk::engine::proof_kind::test_circuit && s.test_circuit.partitions == 0) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // protobuf logs every string field that is not UTF-8; at millions of inputs that is the cost.
  static const bool quiet = (google::protobuf::SetLogHandler(nullptr), true);
  (void)quiet;
  if (size == 0) return 0;
  const auto* body = reinterpret_cast<const char*>(data + 1);
  const int len = static_cast<int>(size - 1);
  switch (data[0] % 4) {
    case 0: {
      cuzk::v1::SubmitProofRequest req;
      if (req.ParseFromArray(body, len)) check_spec(req);
      break;
    }
    case 1: {
      cuzk::v1::ProveRequest req;
      if (req.ParseFromArray(body, len) && req.has_submit()) check_spec(*req.mutable_submit());
      break;
    }
    case 2: {
      cuzk::v1::PreloadSrsRequest req;
      if (!req.ParseFromArray(body, len)) break;
      static const auto filecoin = cuzk::engine::filecoin_srs_resolver("/nonexistent");
      const auto src = filecoin(req.circuit_id());
      if (src && src->path.find("/nonexistent/v28-") != 0) std::abort();
      const auto k = cuzk::testcircuit::k_of_circuit_id(req.circuit_id());
      if (k && cuzk::testcircuit::circuit_id_for(*k) != req.circuit_id()) std::abort();
      break;
    }
    case 3: {
      cuzk::v1::AwaitProofRequest a;
      cuzk::v1::CancelProofRequest c;
      (void)a.ParseFromArray(body, len);
      (void)c.ParseFromArray(body, len);
      break;
    }
  }
  return 0;
}
