// cuzk-daemon: the proving daemon Curio talks to over gRPC (cuzk.v1.ProvingEngine).
// All the work is in src/server (daemon.cpp); this file chooses the prover. Until the Groth16
// prover is plugged in, the unavailable prover makes every job fail with a precise
// "not yet supported: <kind>" (it never produces a proof).
#include "engine/prover.hpp"
#include "server/daemon.hpp"

int main(int argc, char** argv) {
  return cuzk::server::run_daemon(
      argc, argv, [](const cuzk::server::daemon_config&)
                      -> cuzk::engine::result<std::shared_ptr<cuzk::engine::partition_prover>> {
        return std::shared_ptr<cuzk::engine::partition_prover>(cuzk::engine::make_unavailable_prover());
      });
}
