// cuzk.v1.ProvingEngine over gRPC's callback API: translates protobuf <-> engine types, validates
// requests at the edge (malformed input -> INVALID_ARGUMENT naming the field) and never blocks a
// gRPC thread (Prove/AwaitProof complete from engine callbacks).
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>

#include "cuzk/v1/proving.grpc.pb.h"
#include "engine/engine.hpp"

namespace cuzk::server {

struct service_info {
  std::string version;  // daemon version ("0.1.0")
  std::string backend;  // "cpu" / "cuda"
};

// Converts and validates a SubmitProofRequest (moving its payload out).
engine::result<engine::job_spec> to_job_spec(cuzk::v1::SubmitProofRequest& req);

class proving_service final : public cuzk::v1::ProvingEngine::CallbackService {
 public:
  proving_service(engine::engine& eng, service_info info, std::shared_ptr<engine::srs_manager> srs = {})
      : eng_(eng), info_(std::move(info)), srs_(std::move(srs)) {}
  ~proving_service() { stop_background(std::chrono::hours(1)); }

  // PreloadSRS loads run on their own threads (a load can take a minute; gRPC threads never
  // block). Asks them to stop and waits up to `limit`; false when one is still running.
  bool stop_background(std::chrono::milliseconds limit);

  grpc::ServerUnaryReactor* SubmitProof(grpc::CallbackServerContext* ctx, const cuzk::v1::SubmitProofRequest* req,
                                        cuzk::v1::SubmitProofResponse* resp) override;
  grpc::ServerUnaryReactor* AwaitProof(grpc::CallbackServerContext* ctx, const cuzk::v1::AwaitProofRequest* req,
                                       cuzk::v1::AwaitProofResponse* resp) override;
  grpc::ServerUnaryReactor* Prove(grpc::CallbackServerContext* ctx, const cuzk::v1::ProveRequest* req,
                                  cuzk::v1::ProveResponse* resp) override;
  grpc::ServerUnaryReactor* CancelProof(grpc::CallbackServerContext* ctx, const cuzk::v1::CancelProofRequest* req,
                                        cuzk::v1::CancelProofResponse* resp) override;
  grpc::ServerUnaryReactor* GetStatus(grpc::CallbackServerContext* ctx, const cuzk::v1::GetStatusRequest* req,
                                      cuzk::v1::GetStatusResponse* resp) override;
  grpc::ServerUnaryReactor* GetMetrics(grpc::CallbackServerContext* ctx, const cuzk::v1::GetMetricsRequest* req,
                                       cuzk::v1::GetMetricsResponse* resp) override;
  grpc::ServerUnaryReactor* PreloadSRS(grpc::CallbackServerContext* ctx, const cuzk::v1::PreloadSrsRequest* req,
                                       cuzk::v1::PreloadSrsResponse* resp) override;
  grpc::ServerUnaryReactor* EvictSRS(grpc::CallbackServerContext* ctx, const cuzk::v1::EvictSrsRequest* req,
                                     cuzk::v1::EvictSrsResponse* resp) override;
  grpc::ServerUnaryReactor* GetVersion(grpc::CallbackServerContext* ctx, const cuzk::v1::GetVersionRequest* req,
                                       cuzk::v1::GetVersionResponse* resp) override;

 private:
  engine::engine& eng_;
  service_info info_;
  std::shared_ptr<engine::srs_manager> srs_;
  std::stop_source stop_;
  std::mutex bg_mu_;
  std::condition_variable bg_cv_;
  unsigned bg_running_ = 0;
};

// Text renderings of a status snapshot, shared by GetMetrics and the HTTP status endpoint.
std::string prometheus_text(const engine::status_snapshot& s);
std::string status_json(const engine::status_snapshot& s, const service_info& info);
// HTTP /healthz: 200 "ok"; 503 while shutting down, or once a GPU has had a sticky device fault
// (it refuses work until the process restarts: the body names it and the CUDA error).
struct health_answer {
  int status = 200;
  std::string body;
};
health_answer health_of(const engine::status_snapshot& s);

}  // namespace cuzk::server
