// The real cuzk-daemon binary (CUZK_DAEMON_BIN) on 127.0.0.1:0 and on unix sockets: readiness,
// health, status, the "not yet supported" failures, malformed requests, address conflicts, stale
// sockets, sd_notify, SIGTERM. And the test-double daemon (CUZK_TEST_DOUBLE_DAEMON_BIN) for
// shutdown with waiters in every state.
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <future>
#include <thread>

#include "integration/daemon_harness.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;
namespace pb = cuzk::v1;

// `extra` goes in [daemon] (and may set its own shutdown_grace).
std::string config(const std::string& listen, const std::string& extra = "") {
  const std::string grace = extra.find("shutdown_grace") == std::string::npos ? "shutdown_grace = \"2s\"\n" : "";
  return "[logging]\nlevel = \"debug\"\n[daemon]\nlisten = \"" + listen + "\"\n" + grace + extra +
         "\n[memory]\ntotal_budget = \"1GiB\"\n";
}

struct running_daemon {
  temp_dir dir;
  std::unique_ptr<daemon_process> proc;
  std::string addr;

  explicit running_daemon(const std::string& listen = "127.0.0.1:0", const std::string& extra = "",
                          const std::string& bin = CUZK_DAEMON_BIN,
                          std::vector<std::pair<std::string, std::string>> env = {}) {
    std::string l = listen;
    if (l.starts_with("unix://DIR")) l = "unix://" + dir.path() + l.substr(10);
    const auto cfg = dir.write("cuzk.toml", config(l, extra));
    proc = std::make_unique<daemon_process>(bin, std::vector<std::string>{"--config", cfg}, dir.file("log"),
                                            std::move(env));
    auto a = proc->listening();
    if (a) addr = *a;
  }
  std::unique_ptr<pb::ProvingEngine::Stub> stub() { return pb::ProvingEngine::NewStub(connect(addr)); }
};

pb::SubmitProofRequest porep(const std::string& id, std::string vanilla =
                                                        R"({"SectorNum":1,"Phase1Out":"e30=","SectorSize":34359738368})") {
  pb::SubmitProofRequest r;
  r.set_request_id(id);
  r.set_proof_kind(pb::POREP_SEAL_COMMIT);
  r.set_priority(pb::NORMAL);
  r.set_sector_size(34359738368ull);
  r.set_registered_proof(8);
  r.set_vanilla_proof(std::move(vanilla));
  r.set_sector_number(1);
  r.set_miner_id(1000);
  return r;
}

pb::SubmitProofRequest test_circuit(const std::string& id) {
  pb::SubmitProofRequest r;
  r.set_request_id(id);
  r.set_proof_kind(pb::TEST_CIRCUIT);
  r.mutable_test_circuit()->set_log2_constraints(4);
  r.mutable_test_circuit()->set_partitions(1);
  return r;
}

// Prove with this file's default client deadline.
grpc::Status prove(pb::ProvingEngine::Stub& s, const pb::SubmitProofRequest& req, pb::AwaitProofResponse& out,
                   std::chrono::milliseconds limit = 10s) {
  return test::prove(s, req, out, limit);
}

bool healthy(const std::string& addr) {
  auto h = grpc::health::v1::Health::NewStub(connect(addr));
  grpc::health::v1::HealthCheckRequest req;
  grpc::health::v1::HealthCheckResponse resp;
  grpc::ClientContext ctx;
  deadline(ctx, 5s);
  return h->Check(&ctx, req, &resp).ok() && resp.status() == grpc::health::v1::HealthCheckResponse::SERVING;
}

TEST(daemon, tcp_port_0_reports_real_port_health_status_and_version) {
  running_daemon d;
  ASSERT_FALSE(d.addr.empty()) << d.proc->log();
  EXPECT_TRUE(d.addr.starts_with("127.0.0.1:")) << d.addr;
  EXPECT_NE(d.addr, "127.0.0.1:0");
  EXPECT_TRUE(healthy(d.addr));
  auto s = d.stub();
  pb::GetStatusResponse st;
  grpc::ClientContext ctx;
  deadline(ctx);
  ASSERT_TRUE(s->GetStatus(&ctx, {}, &st).ok());
  ASSERT_EQ(st.queues_size(), 4);
  EXPECT_EQ(st.queues(0).proof_kind(), "porep-c2");
  EXPECT_EQ(st.queues(3).proof_kind(), "winning-post");
  EXPECT_EQ(st.host_memory().total_bytes(), 1ull << 30);
  EXPECT_FALSE(st.shutting_down());
  EXPECT_FALSE(st.version().empty());
  pb::GetVersionResponse v;
  grpc::ClientContext ctx2;
  deadline(ctx2);
  ASSERT_TRUE(s->GetVersion(&ctx2, {}, &v).ok());
  EXPECT_EQ(v.prover(), "groth16-cpu");  // the test-circuit prover (src/testcircuit)
  ASSERT_EQ(v.supported_kinds_size(), 1);
  EXPECT_EQ(v.supported_kinds(0), pb::TEST_CIRCUIT);
  d.proc->signal(SIGTERM);
  EXPECT_EQ(d.proc->wait_exit(), 0) << d.proc->log();
}

TEST(daemon, filecoin_kinds_fail_with_not_yet_supported) {
  running_daemon d;
  ASSERT_FALSE(d.addr.empty()) << d.proc->log();
  auto s = d.stub();
  pb::AwaitProofResponse r;
  ASSERT_TRUE(prove(*s, porep("porep-1000-1"), r).ok());
  EXPECT_EQ(r.status(), pb::AwaitProofResponse::FAILED);
  EXPECT_EQ(r.error_message().rfind("not yet supported: porep-c2", 0), 0u) << r.error_message();
  EXPECT_TRUE(r.proof().empty());
  EXPECT_EQ(r.job_id(), "porep-1000-1");

  pb::SubmitProofRequest win;
  win.set_request_id("winpost-1000-abc");
  win.set_proof_kind(pb::WINNING_POST);
  win.set_priority(pb::CRITICAL);
  win.set_sector_size(34359738368ull);
  win.add_vanilla_proofs("bincode-bytes");
  win.set_randomness(std::string(32, '\1'));
  ASSERT_TRUE(prove(*s, win, r).ok());
  EXPECT_EQ(r.status(), pb::AwaitProofResponse::FAILED);
  EXPECT_EQ(r.error_message().rfind("not yet supported: winning-post", 0), 0u) << r.error_message();

  // A test circuit below the prover's range fails in-band (and writes no parameters; proving
  // test circuits is covered by testcircuit_daemon_test).
  auto tiny = test_circuit("t1");
  tiny.mutable_test_circuit()->set_log2_constraints(3);
  ASSERT_TRUE(prove(*s, tiny, r).ok());
  EXPECT_EQ(r.status(), pb::AwaitProofResponse::FAILED);
  EXPECT_EQ(r.error_message(), "test_circuit.log2_constraints 3 is outside the supported range 4..22");

  pb::GetStatusResponse st;
  grpc::ClientContext ctx;
  deadline(ctx);
  ASSERT_TRUE(s->GetStatus(&ctx, {}, &st).ok());
  EXPECT_EQ(st.total_proofs_failed(), 3u);
}

TEST(daemon, malformed_requests_get_precise_errors_and_the_daemon_keeps_serving) {
  running_daemon d;
  ASSERT_FALSE(d.addr.empty()) << d.proc->log();
  auto s = d.stub();
  struct bad_case {
    pb::SubmitProofRequest req;
    std::string want;
  };
  std::vector<bad_case> cases;
  cases.push_back({porep("e1", ""), "vanilla_proof is empty"});
  cases.push_back({porep("e2", "\x01\x02garbage"), "not a C1 output envelope"});
  cases.push_back({porep("e3", "{\"SectorNum\":1}"), "not a C1 output envelope"});
  auto unknown = porep("e4");
  unknown.set_proof_kind(static_cast<pb::ProofKind>(42));
  cases.push_back({unknown, "unknown proof_kind 42"});
  auto unspecified = porep("e5");
  unspecified.set_proof_kind(pb::PROOF_KIND_UNSPECIFIED);
  cases.push_back({unspecified, "proof_kind is required"});
  pb::SubmitProofRequest wpost;
  wpost.set_proof_kind(pb::WINDOW_POST_PARTITION);
  wpost.add_vanilla_proofs("x");
  wpost.set_randomness("short");
  cases.push_back({wpost, "randomness must be 32 bytes"});
  auto size = porep("e6");
  size.set_sector_size(12345);
  cases.push_back({size, "sector_size 12345"});
  for (auto& c : cases) {
    pb::AwaitProofResponse r;
    auto st = prove(*s, c.req, r);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << c.want;
    EXPECT_NE(st.error_message().find(c.want), std::string::npos) << st.error_message();
  }
  pb::ProveRequest empty;
  pb::ProveResponse resp;
  grpc::ClientContext ctx;
  deadline(ctx);
  EXPECT_EQ(s->Prove(&ctx, empty, &resp).error_code(), grpc::StatusCode::INVALID_ARGUMENT);

  pb::AwaitProofRequest aw;
  aw.set_job_id("no-such-job");
  pb::AwaitProofResponse ar;
  grpc::ClientContext ctx2;
  deadline(ctx2);
  auto st2 = s->AwaitProof(&ctx2, aw, &ar);
  EXPECT_EQ(st2.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_NE(st2.error_message().find("no-such-job"), std::string::npos);

  pb::CancelProofRequest cr;
  cr.set_job_id("no-such-job");
  pb::CancelProofResponse cresp;
  grpc::ClientContext ctx3;
  deadline(ctx3);
  ASSERT_TRUE(s->CancelProof(&ctx3, cr, &cresp).ok());
  EXPECT_FALSE(cresp.found());

  pb::PreloadSrsRequest pr;
  pr.set_circuit_id("porep-2k");  // no such circuit id (2 KiB sectors are not served)
  pb::PreloadSrsResponse presp;
  grpc::ClientContext ctx4;
  deadline(ctx4);
  const auto pst = s->PreloadSRS(&ctx4, pr, &presp);
  EXPECT_EQ(pst.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_NE(pst.error_message().find("unknown circuit id \"porep-2k\""), std::string::npos) << pst.error_message();

  EXPECT_TRUE(healthy(d.addr));
  EXPECT_TRUE(d.proc->running());
}

TEST(daemon, refuses_a_tcp_port_in_use) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(::listen(fd, 1), 0);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  const std::string addr = "127.0.0.1:" + std::to_string(ntohs(a.sin_port));
  temp_dir dir;
  daemon_process p(CUZK_DAEMON_BIN, {"--config", dir.write("c.toml", config(addr))}, dir.file("log"));
  EXPECT_EQ(p.wait_exit(), 1) << p.log();
  EXPECT_NE(p.log().find("cannot listen on " + addr), std::string::npos) << p.log();
  EXPECT_NE(p.log().find("in use"), std::string::npos) << p.log();
  EXPECT_EQ(p.log().find("listening on"), std::string::npos) << p.log();
  ::close(fd);
}

TEST(daemon, unix_socket_second_instance_refused_and_socket_removed_on_sigterm) {
  running_daemon d("unix://DIR/cuzk.sock");
  ASSERT_FALSE(d.addr.empty()) << d.proc->log();
  const std::string sock = d.dir.file("cuzk.sock");
  EXPECT_EQ(d.addr, "unix://" + sock);
  EXPECT_TRUE(healthy("unix:" + sock));

  daemon_process second(CUZK_DAEMON_BIN, {"--listen", "unix://" + sock}, d.dir.file("log2"));
  EXPECT_EQ(second.wait_exit(), 1) << second.log();
  EXPECT_NE(second.log().find("another cuzk-daemon (pid " + std::to_string(d.proc->pid()) + ")"), std::string::npos)
      << second.log();
  EXPECT_TRUE(healthy("unix:" + sock));  // the first one still owns its socket

  d.proc->signal(SIGTERM);
  EXPECT_EQ(d.proc->wait_exit(5s), 0) << d.proc->log();
  EXPECT_FALSE(std::filesystem::exists(sock));
  EXPECT_NE(d.proc->log().find("cuzk-daemon stopped"), std::string::npos);
}

TEST(daemon, stale_socket_is_removed) {
  temp_dir dir;
  const std::string sock = dir.file("stale.sock");
  {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::snprintf(a.sun_path, sizeof a.sun_path, "%s", sock.c_str());
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    ::close(fd);  // the file stays: a dead daemon's socket
  }
  ASSERT_TRUE(std::filesystem::exists(sock));
  daemon_process p(CUZK_DAEMON_BIN, {"--listen", "unix://" + sock}, dir.file("log"));
  ASSERT_TRUE(p.listening()) << p.log();
  EXPECT_NE(p.log().find("removed stale socket " + sock), std::string::npos) << p.log();
  EXPECT_TRUE(healthy("unix:" + sock));
  p.signal(SIGINT);
  EXPECT_EQ(p.wait_exit(5s), 0) << p.log();
}

TEST(daemon, sigterm_exits_0_promptly_and_sd_notify_reports_ready_and_stopping) {
  temp_dir dir;
  const std::string notify = dir.file("notify.sock");
  const int nfd = ::socket(AF_UNIX, SOCK_DGRAM, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::snprintf(a.sun_path, sizeof a.sun_path, "%s", notify.c_str());
  ASSERT_EQ(::bind(nfd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  timeval tv{10, 0};
  ::setsockopt(nfd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  daemon_process p(CUZK_DAEMON_BIN, {"--config", dir.write("c.toml", config("127.0.0.1:0"))}, dir.file("log"),
                   {{"NOTIFY_SOCKET", notify}});
  char buf[512];
  auto n = ::recv(nfd, buf, sizeof buf, 0);
  ASSERT_GT(n, 0);
  const std::string ready(buf, static_cast<std::size_t>(n));
  EXPECT_NE(ready.find("READY=1"), std::string::npos) << ready;
  ASSERT_TRUE(p.listening());  // READY came after the port was bound and announced
  const auto t0 = std::chrono::steady_clock::now();
  p.signal(SIGTERM);
  n = ::recv(nfd, buf, sizeof buf, 0);
  ASSERT_GT(n, 0);
  EXPECT_NE(std::string(buf, static_cast<std::size_t>(n)).find("STOPPING=1"), std::string::npos);
  EXPECT_EQ(p.wait_exit(5s), 0) << p.log();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 4s);
  ::close(nfd);
}

TEST(daemon, status_http_endpoint) {
  running_daemon d("127.0.0.1:0", "status_listen = \"127.0.0.1:0\"");
  ASSERT_FALSE(d.addr.empty()) << d.proc->log();
  auto http = d.proc->listening("status HTTP listening on ");
  ASSERT_TRUE(http) << d.proc->log();
  const auto colon = http->rfind(':');
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<std::uint16_t>(std::stoi(http->substr(colon + 1))));
  ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  const std::string req = "GET /status HTTP/1.1\r\nHost: x\r\n\r\n";
  ASSERT_EQ(::send(fd, req.data(), req.size(), 0), static_cast<ssize_t>(req.size()));
  std::string resp;
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) resp.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  EXPECT_EQ(resp.rfind("HTTP/1.1 200", 0), 0u) << resp;
  EXPECT_NE(resp.find("\"accepting\":true"), std::string::npos) << resp;
  EXPECT_NE(resp.find("\"prover\":\"groth16-cpu\""), std::string::npos) << resp;
}

TEST(daemon, config_errors_name_the_key_and_exit_2) {
  temp_dir dir;
  struct c {
    std::string toml, want;
  } cases[] = {
      {"[memory]\ntotl_budget = \"1GiB\"\n", "[memory] totl_budget: unknown key"},
      {"[memory]\ntotal_budget = \"256 Gigs\"\n", "[memory] total_budget: invalid size"},
      {"[daemon]\nshutdown_grace = \"5 sec\"\n", "[daemon] shutdown_grace: invalid duration"},
      {"[gpus]\ngpu_workers_per_device = 0\n", "[gpus] gpu_workers_per_device: must be between 1"},
      {"[daemon]\nlisten = \"nonsense\"\n", "[daemon] listen: invalid listen address"},
      {"[pipeline]\nenabled = true\n", "unknown section [pipeline]"},
  };
  for (const auto& k : cases) {
    daemon_process p(CUZK_DAEMON_BIN, {"--config", dir.write("bad.toml", k.toml)}, dir.file("log"));
    EXPECT_EQ(p.wait_exit(), 2) << k.toml;
    EXPECT_NE(p.log().find(k.want), std::string::npos) << p.log();
  }
  daemon_process missing(CUZK_DAEMON_BIN, {"--config", dir.file("none.toml")}, dir.file("log"));
  EXPECT_EQ(missing.wait_exit(), 2);
  EXPECT_NE(missing.log().find("none.toml"), std::string::npos);
}

// /dev/nvidia0 exists where the NVIDIA driver sees a device: the two tests below are about machines without one.
bool gpu_visible() { return std::filesystem::exists("/dev/nvidia0"); }

TEST(daemon, backend_cuda_without_a_gpu_refuses_to_start_naming_the_key) {
  if (gpu_visible()) GTEST_SKIP() << "a GPU is visible on this machine";
  temp_dir dir;
  const auto cfg = dir.write("cuzk.toml", config("unix://" + dir.file("s.sock"), "[gpus]\nbackend = \"cuda\""));
  daemon_process p(CUZK_DAEMON_BIN, {"--config", cfg}, dir.file("log"));
  // 1 in a CUDA build (no device at startup), 2 in a build without CUDA (a configuration error).
  const int code = p.wait_exit();
  EXPECT_TRUE(code == 1 || code == 2) << code << "\n" << p.log();
  EXPECT_NE(p.log().find("[gpus] backend"), std::string::npos) << p.log();
  EXPECT_EQ(p.log().find("listening on"), std::string::npos) << p.log();
  EXPECT_FALSE(std::filesystem::exists(dir.file("s.sock")));
}

TEST(daemon, backend_auto_without_a_gpu_proves_on_the_cpu_and_logs_why) {
  if (gpu_visible()) GTEST_SKIP() << "a GPU is visible on this machine";
  running_daemon d("127.0.0.1:0", "[gpus]\nbackend = \"auto\"");
  ASSERT_FALSE(d.addr.empty()) << d.proc->log();
  const auto log = d.proc->log();
  EXPECT_NE(log.find("[gpus] backend = \"auto\": no GPU ("), std::string::npos) << log;
  EXPECT_NE(log.find("(cpu backend"), std::string::npos) << log;
  pb::GetStatusResponse st;
  grpc::ClientContext ctx;
  deadline(ctx);
  ASSERT_TRUE(d.stub()->GetStatus(&ctx, {}, &st).ok());
  EXPECT_EQ(st.gpus_size(), 0);
  int device_workers = 0;
  for (const auto& w : st.workers()) device_workers += w.stage() == "device";
  EXPECT_EQ(device_workers, 1);
}

TEST(daemon, print_config_without_a_file_shows_every_default) {
  temp_dir dir;
  daemon_process p(CUZK_DAEMON_BIN, {"--print-config"}, dir.file("log"));
  EXPECT_EQ(p.wait_exit(), 0);
  const auto out = p.log();
  for (const char* k : {"listen = \"unix:///run/curio/cuzk.sock\"", "total_budget = \"auto\"", "shutdown_grace",
                        "gpu_workers_per_device = 2", "devices = \"all\"", "max_batch_size = 1",
                        "level = \"info\"", "backend = \"auto\""}) {
    EXPECT_NE(out.find(k), std::string::npos) << k << "\n" << out;
  }
}

// --- with the test-double prover -------------------------------------------------------------

TEST(test_double_daemon, sigterm_cancels_queued_finishes_running_and_answers_every_waiter) {
  running_daemon d("127.0.0.1:0", "[scheduler]\nparse_workers = 2", CUZK_TEST_DOUBLE_DAEMON_BIN,
                   {{"CUZK_TEST_DOUBLE_HOLD", "plan:blocker1,plan:blocker2"}, {"CUZK_TEST_DOUBLE_PROVE_MS", "700"}});
  ASSERT_FALSE(d.addr.empty()) << d.proc->log();
  auto s = d.stub();
  auto call = [&](const std::string& id) {
    return std::async(std::launch::async, [&, id] {
      pb::AwaitProofResponse r;
      auto st = prove(*s, test_circuit(id), r, 20s);
      EXPECT_TRUE(st.ok()) << id << ": " << st.error_message();
      return r;
    });
  };
  auto quick = call("quick");
  std::this_thread::sleep_for(150ms);  // quick is planned and proving (700 ms)
  auto b1 = call("blocker1");
  auto b2 = call("blocker2");
  std::this_thread::sleep_for(150ms);  // both parse workers are held
  auto queued = call("queued");
  std::this_thread::sleep_for(150ms);
  const auto t0 = std::chrono::steady_clock::now();
  d.proc->signal(SIGTERM);
  auto q = queued.get();
  EXPECT_EQ(q.status(), pb::AwaitProofResponse::CANCELLED);
  EXPECT_NE(q.error_message().find("shutting down"), std::string::npos) << q.error_message();
  auto k = quick.get();
  EXPECT_EQ(k.status(), pb::AwaitProofResponse::COMPLETED) << k.error_message();
  EXPECT_EQ(k.proof(), "TEST-DOUBLE:quick:0;");
  for (auto* f : {&b1, &b2}) {
    auto r = f->get();
    EXPECT_EQ(r.status(), pb::AwaitProofResponse::CANCELLED);
    EXPECT_NE(r.error_message().find("grace period 2s expired"), std::string::npos) << r.error_message();
  }
  EXPECT_EQ(d.proc->wait_exit(10s), 0) << d.proc->log();
  const auto took = std::chrono::steady_clock::now() - t0;
  EXPECT_GE(took, 1900ms);
  EXPECT_LT(took, 6s);
  EXPECT_NE(d.proc->log().find("1 queued job(s) cancelled, 1 running job(s) finished, 2 cancelled"), std::string::npos)
      << d.proc->log();
}

TEST(test_double_daemon, a_second_sigterm_cuts_the_grace_period_short_and_still_answers_waiters) {
  running_daemon d("127.0.0.1:0", "shutdown_grace = \"60s\"", CUZK_TEST_DOUBLE_DAEMON_BIN,
                   {{"CUZK_TEST_DOUBLE_HOLD", "prove:held:0"}});
  ASSERT_FALSE(d.addr.empty()) << d.proc->log();
  auto s = d.stub();
  auto held = std::async(std::launch::async, [&] {
    pb::AwaitProofResponse r;
    auto st = prove(*s, test_circuit("held"), r, 30s);
    EXPECT_TRUE(st.ok()) << st.error_message();
    return r;
  });
  ASSERT_TRUE(d.proc->wait_log("job held")) << d.proc->log();
  std::this_thread::sleep_for(200ms);  // the held partition is inside prove()
  const auto t0 = std::chrono::steady_clock::now();
  d.proc->signal(SIGTERM);
  ASSERT_TRUE(d.proc->wait_log("a second signal cancels them at once")) << d.proc->log();
  std::this_thread::sleep_for(300ms);
  EXPECT_TRUE(d.proc->running());  // the first signal alone waits (60 s grace)
  d.proc->signal(SIGTERM);
  auto r = held.get();
  EXPECT_EQ(r.status(), pb::AwaitProofResponse::CANCELLED);
  EXPECT_NE(r.error_message().find("grace period cut short by a second signal"), std::string::npos)
      << r.error_message();
  EXPECT_EQ(d.proc->wait_exit(10s), 0) << d.proc->log();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  EXPECT_NE(d.proc->log().find("SIGTERM again: cancelling running jobs now"), std::string::npos) << d.proc->log();
}

TEST(test_double_daemon, duplicate_request_id_attaches_and_client_deadline_cancels_prove) {
  running_daemon d("127.0.0.1:0", "", CUZK_TEST_DOUBLE_DAEMON_BIN,
                   {{"CUZK_TEST_DOUBLE_HOLD", "prove:orphan:0,prove:dup:0"}});
  ASSERT_FALSE(d.addr.empty()) << d.proc->log();
  auto s = d.stub();
  pb::SubmitProofResponse r1, r2;
  {
    grpc::ClientContext c1, c2;
    deadline(c1);
    deadline(c2);
    ASSERT_TRUE(s->SubmitProof(&c1, test_circuit("dup"), &r1).ok());
    ASSERT_TRUE(s->SubmitProof(&c2, test_circuit("dup"), &r2).ok());
  }
  EXPECT_EQ(r1.job_id(), "dup");
  EXPECT_FALSE(r1.attached_to_existing());
  EXPECT_TRUE(r2.attached_to_existing());
  EXPECT_EQ(r2.job_id(), "dup");

  pb::AwaitProofRequest aw;
  aw.set_job_id("dup");
  aw.set_timeout_ms(100);
  pb::AwaitProofResponse ar;
  {
    grpc::ClientContext c;
    deadline(c);
    ASSERT_TRUE(s->AwaitProof(&c, aw, &ar).ok());
  }
  EXPECT_EQ(ar.status(), pb::AwaitProofResponse::TIMEOUT);

  pb::AwaitProofResponse r;
  auto st = prove(*s, test_circuit("orphan"), r, 300ms);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  // The client sees its deadline before the server runs OnCancel for the call; an AwaitProof
  // attached in between would (rightly) keep the job alive as a second waiter. Give the server
  // time to notice the departure before attaching.
  std::this_thread::sleep_for(1500ms);
  aw.set_job_id("orphan");
  aw.set_timeout_ms(5000);
  {
    grpc::ClientContext c;
    deadline(c);
    ASSERT_TRUE(s->AwaitProof(&c, aw, &ar).ok());
  }
  EXPECT_EQ(ar.status(), pb::AwaitProofResponse::CANCELLED);
  EXPECT_NE(ar.error_message().find("went away"), std::string::npos) << ar.error_message();

  pb::CancelProofRequest cr;
  cr.set_job_id("dup");
  pb::CancelProofResponse cresp;
  {
    grpc::ClientContext c;
    deadline(c);
    ASSERT_TRUE(s->CancelProof(&c, cr, &cresp).ok());
  }
  EXPECT_TRUE(cresp.found());
  EXPECT_TRUE(cresp.was_running());
}

}  // namespace
}  // namespace cuzk::test
