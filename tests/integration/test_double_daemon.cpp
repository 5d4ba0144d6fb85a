// TEST DOUBLE DAEMON: the real daemon program (server::run_daemon) with the test-double prover
// (tests/unit/engine/test_double_prover.hpp), for integration tests of shutdown and scheduling
// over gRPC. Environment:
//   CUZK_TEST_DOUBLE_HOLD=point,point   hold these calls ("plan:<id>", "prove:<id>:<p>") forever
//                                       (until the job is cancelled)
//   CUZK_TEST_DOUBLE_PROVE_MS=N         each prove call takes N ms
#include <cstdlib>
#include <sstream>

#include "server/daemon.hpp"
#include "unit/engine/test_double_prover.hpp"

int main(int argc, char** argv) {
  return cuzk::server::run_daemon(argc, argv, [](const cuzk::server::daemon_config&,
                                                 const std::shared_ptr<cuzk::engine::srs_manager>&,
                                                 const std::shared_ptr<cuzk::server::gpu_workers>&)
                                                  -> cuzk::engine::result<std::shared_ptr<cuzk::engine::partition_prover>> {
    auto p = std::make_shared<cuzk::test::test_double_prover>();
    if (const char* hold = std::getenv("CUZK_TEST_DOUBLE_HOLD")) {
      std::stringstream ss(hold);
      for (std::string point; std::getline(ss, point, ',');) p->hold(point);
    }
    if (const char* ms = std::getenv("CUZK_TEST_DOUBLE_PROVE_MS")) p->prove_delay = std::chrono::milliseconds(std::atoi(ms));
    return std::shared_ptr<cuzk::engine::partition_prover>(p);
  });
}
