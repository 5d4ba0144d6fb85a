// The cuzk-daemon program: command line, configuration, logging, binding, readiness, signals and
// graceful shutdown around an engine and the gRPC service. apps/cuzk_daemon.cpp is a thin main()
// that passes the prover factory; tests pass a test double.
#pragma once

#include <functional>
#include <memory>

#include "engine/prover.hpp"
#include "engine/srs_manager.hpp"
#include "server/config.hpp"
#include "server/gpu_workers.hpp"

namespace cuzk::server {

// Makes the prover once the configuration is known (backend, threads, param cache). `srs` is the
// daemon's SRS manager (Filecoin parameter files already resolvable; charged to the host budget):
// provers load parameters through it and may add resolvers for their own circuit ids. `gpus` is
// null on the CPU backend; else its backend(w) is the backend engine device worker w owns.
// Returning an error instead of a prover aborts startup with that message.
using prover_factory = std::function<engine::result<std::shared_ptr<engine::partition_prover>>(
    const daemon_config& cfg, const std::shared_ptr<engine::srs_manager>& srs,
    const std::shared_ptr<gpu_workers>& gpus)>;

// Runs the daemon; returns the process exit code (0 after a graceful SIGTERM/SIGINT, 1 when it
// cannot start, 2 for command-line or configuration errors). A second SIGTERM/SIGINT during the
// grace period ends it at once: running jobs are cancelled (their waiters answered) and the
// daemon exits 0 promptly.
int run_daemon(int argc, char** argv, const prover_factory& make_prover);

}  // namespace cuzk::server
