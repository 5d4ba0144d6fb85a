// The cuzk-daemon program: command line, configuration, logging, binding, readiness, signals and
// graceful shutdown around an engine and the gRPC service. apps/cuzk_daemon.cpp is a thin main()
// that passes the prover factory; tests pass a test double.
#pragma once

#include <functional>
#include <memory>

#include "engine/prover.hpp"
#include "server/config.hpp"

namespace cuzk::server {

// Makes the prover once the configuration is known (backend, threads, param cache). Returning an
// error string instead of a prover aborts startup with that message.
using prover_factory =
    std::function<engine::result<std::shared_ptr<engine::partition_prover>>(const daemon_config& cfg)>;

// Runs the daemon; returns the process exit code (0 after a graceful SIGTERM/SIGINT, 1 when it
// cannot start, 2 for command-line or configuration errors).
int run_daemon(int argc, char** argv, const prover_factory& make_prover);

}  // namespace cuzk::server
