#include "server/daemon.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>

#include <CLI/CLI.hpp>
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include "engine/engine.hpp"
#include "engine/srs_catalog.hpp"
#include "engine/units.hpp"
#include "server/http_status.hpp"
#include "server/listen.hpp"
#include "server/param_manifest.hpp"
#include "server/sd_notify.hpp"
#include "server/service.hpp"

#ifndef CUZK_VERSION
#define CUZK_VERSION "0.0.0"
#endif

namespace cuzk::server {
namespace {

// %* in a pattern: the message escaped as a JSON string body.
class json_msg_flag final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&, spdlog::memory_buf_t& dest) override {
    for (char ch : std::string_view(msg.payload.data(), msg.payload.size())) {
      const auto c = static_cast<unsigned char>(ch);
      if (c == '"' || c == '\\') {
        dest.push_back('\\');
        dest.push_back(ch);
      } else if (c < 0x20) {
        static constexpr char hex[] = "0123456789abcdef";
        const char esc[] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
        dest.append(esc, esc + 6);
      } else {
        dest.push_back(ch);
      }
    }
  }
  std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<json_msg_flag>(); }
};

void setup_logging(const daemon_config& cfg) {
  auto logger = std::make_shared<spdlog::logger>("cuzk", std::make_shared<spdlog::sinks::stderr_sink_mt>());
  if (cfg.logging.format == log_format::json) {
    auto f = std::make_unique<spdlog::pattern_formatter>();
    f->add_flag<json_msg_flag>('*').set_pattern(
        R"({"ts":"%Y-%m-%dT%H:%M:%S.%f%z","level":"%l","msg":"%*"})");
    logger->set_formatter(std::move(f));
  } else {
    logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e %l %v");
  }
  logger->set_level(spdlog::level::from_str(cfg.logging.level));
  logger->flush_on(spdlog::level::trace);
  spdlog::set_default_logger(logger);
}

void engine_log(engine::log_level lvl, const std::string& msg) {
  switch (lvl) {
    case engine::log_level::debug: spdlog::debug("{}", msg); break;
    case engine::log_level::info: spdlog::info("{}", msg); break;
    case engine::log_level::warn: spdlog::warn("{}", msg); break;
    case engine::log_level::error: spdlog::error("{}", msg); break;
  }
}

// "18.5 GiB" for logs.
std::string human_size(std::uint64_t b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(b) / static_cast<double>(1ull << 30));
  return buf;
}

const char* signal_name(int sig) {
  switch (sig) {
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    default: return "signal";
  }
}

}  // namespace

int run_daemon(int argc, char** argv, const prover_factory& make_prover) {
  CLI::App app{"cuzk-daemon: persistent Groth16 proving engine for Filecoin (gRPC cuzk.v1.ProvingEngine)"};
  std::string config_path, listen_override, level_override;
  bool print_config = false, version = false;
  app.add_option("-c,--config", config_path, "TOML configuration file (defaults apply without one)");
  app.add_option("-l,--listen", listen_override, "override [daemon] listen (\"host:port\" or \"unix:///path\")");
  app.add_option("--log-level", level_override, "override [logging] level");
  app.add_flag("--print-config", print_config, "print the effective configuration and exit");
  app.add_flag("--version", version, "print the version and exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (version) {
    std::cout << "cuzk-daemon " << CUZK_VERSION << " (" << (built_with_cuda() ? "cuda" : "cpu-only") << " build)\n";
    return 0;
  }

  // --- configuration ---
  auto loaded = config_path.empty() ? parse_config("", "<defaults>") : load_config_file(config_path);
  if (!loaded) {
    std::cerr << "cuzk-daemon: configuration error: " << loaded.error().message << "\n";
    return 2;
  }
  daemon_config cfg = std::move(loaded.value());
  if (!listen_override.empty()) cfg.daemon.listen = listen_override;
  if (!level_override.empty()) cfg.logging.level = level_override;
  if (auto v = validate_config(cfg); !v) {
    std::cerr << "cuzk-daemon: configuration error: " << v.error().message << "\n";
    return 2;
  }
  auto budget = resolve_total_budget(cfg);
  if (!budget) {
    std::cerr << "cuzk-daemon: configuration error: " << budget.error().message << "\n";
    return 2;
  }
  if (print_config) {
    std::cout << to_toml(cfg);
    return 0;
  }
  setup_logging(cfg);
  const auto addr = parse_listen_address(cfg.daemon.listen).value();

  // Signals are taken synchronously by this thread (sigwait); block them before any thread starts
  // so that every thread inherits the mask.
  sigset_t sigs;
  sigemptyset(&sigs);
  sigaddset(&sigs, SIGTERM);
  sigaddset(&sigs, SIGINT);
  pthread_sigmask(SIG_BLOCK, &sigs, nullptr);
  ::signal(SIGPIPE, SIG_IGN);

  auto fail = [](const std::string& msg) {
    spdlog::error("cannot start: {}", msg);
    return 1;
  };

  // --- guard the address before anything heavy starts ---
  socket_lock lock;
  if (addr.kind == listen_address::unix_socket) {
    bool stale = false;
    auto l = socket_lock::acquire(addr.path, stale);
    if (!l) return fail(l.error().message);
    lock = std::move(l.value());
    if (stale) spdlog::info("removed stale socket {} (no daemon held its lock)", addr.path);
  } else if (auto p = probe_tcp_bind(addr); !p) {
    return fail(p.error().message);
  }

  // --- SRS manager (charged to the host budget the engine's stages share) ---
  auto host_budget = std::make_shared<engine::memory_budget>(budget.value());
  auto manifest = load_param_manifest(cfg.srs.param_cache);
  if (!manifest) return fail(manifest.error().message);
  engine::srs_manager_options so;
  so.cache_dir = cfg.srs.param_cache;
  so.budget = host_budget;
  so.eviction_min_idle = cfg.memory.eviction_min_idle;
  so.log = engine_log;
  auto srs = std::make_shared<engine::srs_manager>(so);
  srs->add_resolver(engine::filecoin_srs_resolver(cfg.srs.param_cache, manifest.value()));
  srs->discover(engine::filecoin_circuit_ids());
  if (!manifest->empty()) {
    spdlog::info("parameter digests from {}/parameters.json ({} entries)", cfg.srs.param_cache, manifest->size());
  }

  // --- backend and GPU workers (declared before the engine: they outlive its device workers) ---
  auto choice = choose_backend(cfg, make_cuda_platform().get());
  if (!choice) return fail(choice.error().message);
  const backend_kind backend = choice->backend;
  const std::shared_ptr<gpu_workers> gpus = choice->gpus;
  spdlog::info("{}", choice->note);

  // --- engine ---
  auto prover = make_prover(cfg, srs, gpus);
  if (!prover) return fail(prover.error().message);
  for (const auto& id : cfg.srs.preload) {
    if (!srs->knows(id)) {
      std::cerr << "cuzk-daemon: configuration error: [srs] preload: unknown circuit id \"" << id
                << "\" (porep-32g, porep-64g, wpost-32g, wpost-64g, winning-32g, winning-64g, snap-32g, snap-64g, "
                   "test-circuit-k<4..22>)\n";
      return 2;
    }
  }
  engine::engine_options eo;
  eo.host_memory_bytes = budget.value();
  eo.budget = host_budget;
  eo.srs = srs;
  eo.parse_workers = cfg.scheduler.parse_workers;
  eo.witness_workers = cfg.synthesis.concurrency;
  eo.device_workers = gpus ? gpus->size() : 1u;  // GPU worker w = engine device worker w
  if (gpus) eo.gpu_status = [gpus] { return gpus->status(); };
  eo.witness_queue_capacity = cfg.scheduler.witness_queue_depth;
  eo.device_queue_capacity = cfg.scheduler.device_queue_depth;
  eo.max_unfinished_jobs = cfg.scheduler.max_pending_jobs;
  eo.result_retention = cfg.scheduler.result_retention;
  eo.max_retained_results = cfg.scheduler.max_retained_results;
  eo.log = engine_log;
  auto eng = std::make_unique<engine::engine>(eo, prover.value());
  const service_info info{CUZK_VERSION, std::string(to_string(backend))};
  proving_service service(*eng, info, srs);

  // --- status HTTP (bound before readiness) ---
  std::unique_ptr<http_status_server> http;
  if (!cfg.daemon.status_listen.empty()) {
    auto h = http_status_server::start(
        parse_listen_address(cfg.daemon.status_listen).value(), [&](const std::string& path) -> http_response {
          if (path == "/status") return {200, "application/json", status_json(eng->status(), info) + "\n"};
          if (path == "/metrics") return {200, "text/plain; version=0.0.4", prometheus_text(eng->status())};
          if (path == "/healthz") {
            const health_answer health = health_of(eng->status());
            return {health.status, "text/plain", health.body};
          }
          return {404, "text/plain", "not found (try /status, /metrics, /healthz)\n"};
        });
    if (!h) {
      eng->shutdown(std::chrono::milliseconds(0));
      return fail(h.error().message);
    }
    http = std::move(h.value());
  }

  // --- gRPC ---
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(addr.grpc_uri(), grpc::InsecureServerCredentials(), &port);
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);  // a second daemon must fail to bind
  const auto max_msg = static_cast<int>(cfg.daemon.max_message_size);
  builder.SetMaxReceiveMessageSize(max_msg);
  builder.SetMaxSendMessageSize(max_msg);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server || (addr.kind == listen_address::tcp && port == 0)) {
    eng->shutdown(std::chrono::milliseconds(0));
    return fail("cannot listen on " + addr.display() + " (gRPC could not bind it; see the message above)");
  }
  if (auto* hs = server->GetHealthCheckService()) {
    hs->SetServingStatus(true);
    hs->SetServingStatus("cuzk.v1.ProvingEngine", true);
  }
  // A sticky device fault: logged, and the health service turns NOT_SERVING (as /healthz turns
  // 503), so that a supervisor restarts the daemon, which resets the GPU. The listener runs on the
  // faulting worker's thread; it stops touching the server once the server is closed.
  using health_service = grpc::HealthCheckServiceInterface;
  auto fault_health = std::make_shared<std::atomic<health_service*>>(server->GetHealthCheckService());
  if (gpus) {
    gpus->on_fault([fault_health](std::uint32_t ordinal, const std::string& reason) {
      spdlog::error("GPU {} had a device fault ({}): its jobs fail until the daemon restarts; health is NOT_SERVING",
                    ordinal, reason);
      if (auto* hs = fault_health->load()) hs->SetServingStatus(false);
    });
  }
  listen_address bound = addr;
  if (addr.kind == listen_address::tcp) bound.port = static_cast<std::uint16_t>(port);
  spdlog::info("cuzk-daemon {} ({} backend, prover \"{}\", host memory budget {}) listening on {}", CUZK_VERSION,
               to_string(backend), prover.value()->name(), human_size(budget.value()), bound.display());
  if (http) spdlog::info("status HTTP listening on {} (/status, /metrics, /healthz)", http->bound());
  sd_notify("READY=1\nSTATUS=listening on " + bound.display() + "\nMAINPID=" + std::to_string(::getpid()));

  // --- [srs] preload, in the background (a 44 GiB file takes a minute; serving starts now) ---
  std::stop_source preload_stop;
  std::thread preloader;
  if (!cfg.srs.preload.empty()) {
    preloader = std::thread([&srs, ids = cfg.srs.preload, stop = preload_stop.get_token()] {
      for (const auto& id : ids) {
        if (stop.stop_requested()) return;
        engine::srs_acquire_info i;
        auto h = srs->acquire(id, stop, &i);
        if (h) spdlog::info("[srs] preload {}: hot ({} ms)", id, i.load_time.count());
        else spdlog::error("[srs] preload {} failed: {}", id, h.error().message);
      }
    });
  }

  // --- wait for SIGTERM / SIGINT ---
  int sig = 0;
  while (sigwait(&sigs, &sig) != 0) {
  }
  const auto grace = cfg.daemon.shutdown_grace;
  spdlog::info("{}: shutting down (no new proofs; queued ones cancelled; running ones get up to {}; a second "
               "signal cancels them at once)",
               signal_name(sig), engine::format_duration(grace));
  sd_notify("STOPPING=1\nSTATUS=shutting down");
  if (auto* hs = server->GetHealthCheckService()) hs->SetServingStatus(false);
  preload_stop.request_stop();
  // A second signal cuts the grace period short (operators press Ctrl-C twice; systemd may send
  // SIGTERM again). Polled so that this thread ends when shutdown finishes without one.
  std::atomic<bool> shutdown_finished{false};
  std::atomic<bool> second_signal{false};
  std::thread second([&] {
    const timespec tick{0, 100'000'000};
    while (!shutdown_finished.load()) {
      int s2 = ::sigtimedwait(&sigs, nullptr, &tick);
      if (s2 == SIGTERM || s2 == SIGINT) {
        spdlog::warn("{} again: cancelling running jobs now", signal_name(s2));
        second_signal = true;
        eng->expire_grace();
        return;
      }
    }
  });
  const auto rep = eng->shutdown(grace);
  shutdown_finished = true;
  second.join();
  const bool loads_stuck =
      !service.stop_background(second_signal ? std::chrono::milliseconds(500) : std::chrono::seconds(5));
  if (loads_stuck) spdlog::warn("a PreloadSRS load is still running");
  if (preloader.joinable()) preloader.join();
  spdlog::info("shutdown: {} queued job(s) cancelled, {} running job(s) finished, {} cancelled at the grace limit",
               rep.cancelled_queued, rep.finished_in_grace, rep.cancelled_running);
  // Every waiter has its answer now; give the replies a moment to leave, then close the server.
  // (gRPC 1.51's callback server waits for the whole deadline while any client connection is
  // open, even with no call in progress, so the deadline is short.)
  const auto closing = std::chrono::steady_clock::now();
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(500));
  server->Wait();
  fault_health->store(nullptr);
  spdlog::debug("gRPC server closed in {} ms", std::chrono::duration_cast<std::chrono::milliseconds>(
                                                   std::chrono::steady_clock::now() - closing).count());
  if (http) http->stop();
  if (loads_stuck || !eng->join(second_signal ? std::chrono::seconds(1) : std::chrono::seconds(5))) {
    spdlog::warn("a prover call or SRS load did not return in time after shutdown; exiting without waiting for it");
    if (addr.kind == listen_address::unix_socket) ::unlink(addr.path.c_str());
    spdlog::info("cuzk-daemon stopped");
    std::fflush(nullptr);
    std::_Exit(0);
  }
  eng.reset();
  if (addr.kind == listen_address::unix_socket) ::unlink(addr.path.c_str());
  spdlog::info("cuzk-daemon stopped");
  return 0;
}

}  // namespace cuzk::server
