// server::parse_config and listen addresses: defaults, every error names its key, round trip.
#include "server/config.hpp"

#include <gtest/gtest.h>

#include "server/listen.hpp"

namespace cuzk::server {
namespace {

using namespace std::chrono_literals;

std::string error_of(const std::string& toml) {
  auto r = parse_config(toml, "test.toml");
  return r ? std::string("(accepted)") : r.error().message;
}

TEST(config, defaults_without_a_file) {
  auto r = parse_config("", "<defaults>");
  ASSERT_TRUE(r) << r.error().message;
  const auto& c = r.value();
  EXPECT_EQ(c.daemon.listen, "unix:///run/curio/cuzk.sock");
  EXPECT_EQ(c.daemon.shutdown_grace, 30s);
  EXPECT_EQ(c.daemon.max_message_size, 256ull << 20);
  EXPECT_FALSE(c.memory.total_budget);
  EXPECT_EQ(c.memory.safety_margin, 5ull << 30);
  EXPECT_EQ(c.gpus.gpu_workers_per_device, 2u);
  EXPECT_EQ(c.scheduler.max_batch_size, 1u);
  EXPECT_EQ(c.logging.level, "info");
  EXPECT_FALSE(c.srs.param_cache.empty());
}

TEST(config, reads_every_section) {
  auto r = parse_config(R"(
[daemon]
listen = "0.0.0.0:9820"
status_listen = "127.0.0.1:9821"
shutdown_grace = "5s"
max_message_size = "128MiB"
[srs]
param_cache = "/data/zk/params"
preload = ["porep-32g", "wpost-32g"]
[memory]
total_budget = "256GiB"
safety_margin = "8GiB"
eviction_min_idle = "10m"
[gpus]
backend = "cpu"
devices = [0, 1]
gpu_workers_per_device = 3
gpu_threads = 16
srs_residency = "streamed"
[scheduler]
max_batch_size = 1
max_batch_wait_ms = 500
max_pending_jobs = 64
result_retention = "1h"
[synthesis]
threads = 8
concurrency = 4
[logging]
level = "debug"
format = "json"
)",
                        "t.toml");
  ASSERT_TRUE(r) << r.error().message;
  const auto& c = r.value();
  EXPECT_EQ(c.daemon.listen, "0.0.0.0:9820");
  EXPECT_EQ(c.daemon.shutdown_grace, 5s);
  EXPECT_EQ(c.daemon.max_message_size, 128ull << 20);
  EXPECT_EQ(c.srs.preload.size(), 2u);
  EXPECT_EQ(*c.memory.total_budget, 256ull << 30);
  EXPECT_EQ(c.memory.eviction_min_idle, 600s);
  EXPECT_EQ(c.gpus.backend, backend_kind::cpu);
  EXPECT_EQ(c.gpus.devices, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(c.gpus.srs_residency, srs_residency_kind::streamed);
  EXPECT_EQ(c.scheduler.max_batch_wait, 500ms);
  EXPECT_EQ(c.scheduler.result_retention, 3600s);
  EXPECT_EQ(c.synthesis.concurrency, 4u);
  EXPECT_EQ(c.logging.format, log_format::json);
}

TEST(config, errors_name_the_key) {
  EXPECT_EQ(error_of("[memory]\ntotl_budget = \"1GiB\"\n"), "test.toml:2: [memory] totl_budget: unknown key");
  EXPECT_NE(error_of("[nope]\nx = 1\n").find("unknown section [nope]"), std::string::npos);
  EXPECT_NE(error_of("[synthesis]\npartition_workers = 4\n").find("use [synthesis] concurrency"), std::string::npos);
  EXPECT_NE(error_of("[memory]\ntotal_budget = \"256G B\"\n").find("[memory] total_budget: invalid size"),
            std::string::npos);
  EXPECT_NE(error_of("[memory]\ntotal_budget = true\n").find("[memory] total_budget"), std::string::npos);
  EXPECT_NE(error_of("[memory]\ntotal_budget = \"1MiB\"\n").find("too small"), std::string::npos);
  EXPECT_NE(error_of("[memory]\neviction_min_idle = \"1d\"\n").find("[memory] eviction_min_idle: invalid duration"),
            std::string::npos);
  EXPECT_NE(error_of("[daemon]\nlisten = 9820\n").find("[daemon] listen: expected a string"), std::string::npos);
  EXPECT_NE(error_of("[daemon]\nlisten = \"localhost\"\n").find("missing port"), std::string::npos);
  EXPECT_NE(error_of("[daemon]\nstatus_listen = \"unix:///x\"\n").find("[daemon] status_listen"), std::string::npos);
  EXPECT_NE(error_of("[gpus]\nbackend = \"opencl\"\n").find("[gpus] backend"), std::string::npos);
  EXPECT_NE(error_of("[gpus]\ndevices = [-1]\n").find("[gpus] devices"), std::string::npos);
  EXPECT_NE(error_of("[gpus]\nsrs_residency = \"host\"\n").find(
                "[gpus] srs_residency: \"host\" is not one of auto, device, streamed"),
            std::string::npos);
  EXPECT_NE(error_of("[gpus]\ngpu_workers_per_device = 0\n").find("[gpus] gpu_workers_per_device: must be between"),
            std::string::npos);
  EXPECT_NE(error_of("[gpus]\ngpu_workers_per_device = 17\n").find("[gpus] gpu_workers_per_device: must be between"),
            std::string::npos);
  EXPECT_NE(error_of("[gpus]\ndevices = \"some\"\n").find("[gpus] devices: expected \"all\" or an array"),
            std::string::npos);
  EXPECT_NE(error_of("[gpus]\ndevices = [1, 0, 1]\n").find("[gpus] devices: device 1 is listed twice"),
            std::string::npos);
  EXPECT_NE(error_of("[gpus]\ndevices = [\"0\"]\n").find("[gpus] devices"), std::string::npos);
  EXPECT_NE(error_of("[scheduler]\nmax_batch_size = 2\n").find("not supported yet"), std::string::npos);
  EXPECT_NE(error_of("[logging]\nlevel = \"loud\"\n").find("[logging] level"), std::string::npos);
  EXPECT_NE(error_of("[logging]\nformat = \"xml\"\n").find("[logging] format"), std::string::npos);
  EXPECT_NE(error_of("[daemon\n").find("TOML syntax error"), std::string::npos);
  if (!built_with_cuda()) {
    EXPECT_NE(error_of("[gpus]\nbackend = \"cuda\"\n").find("built without CUDA"), std::string::npos);
  }
}

TEST(config, gpus_devices_all_or_a_list_and_workers_per_device) {
  auto all = parse_config("[gpus]\ndevices = \"all\"\ngpu_workers_per_device = 3\nbackend = \"auto\"\n", "t");
  ASSERT_TRUE(all) << all.error().message;
  EXPECT_TRUE(all->gpus.devices.empty());
  EXPECT_EQ(all->gpus.gpu_workers_per_device, 3u);
  EXPECT_EQ(all->gpus.backend, backend_kind::auto_select);
  EXPECT_NE(to_toml(all.value()).find("devices = \"all\""), std::string::npos);
  EXPECT_EQ(all->gpus.srs_residency, srs_residency_kind::auto_select);
  EXPECT_NE(to_toml(all.value()).find("srs_residency = \"auto\""), std::string::npos);
  for (const char* v : {"device", "streamed", "auto"}) {
    auto r = parse_config(std::string("[gpus]\nsrs_residency = \"") + v + "\"\n", "t");
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(to_string(r->gpus.srs_residency), v);
    EXPECT_NE(to_toml(r.value()).find(std::string("srs_residency = \"") + v + "\""), std::string::npos);
  }
  auto listed = parse_config("[gpus]\ndevices = [1, 0]\nbackend = \"cpu\"\n", "t");
  ASSERT_TRUE(listed) << listed.error().message;
  EXPECT_EQ(listed->gpus.devices, (std::vector<std::uint32_t>{1, 0}));
  // Both forms print back as TOML that parses to the same devices.
  for (const auto* c : {&all.value(), &listed.value()}) {
    auto again = parse_config(to_toml(*c), "printed");
    ASSERT_TRUE(again) << again.error().message;
    EXPECT_EQ(again->gpus.devices, c->gpus.devices);
    EXPECT_EQ(again->gpus.gpu_workers_per_device, c->gpus.gpu_workers_per_device);
  }
  daemon_config dup;  // validate_config runs again after command-line overrides
  dup.srs.param_cache = "/tmp/params";
  ASSERT_TRUE(validate_config(dup));
  dup.gpus.devices = {0, 0};
  const auto v = validate_config(dup);
  ASSERT_FALSE(v);
  EXPECT_NE(v.error().message.find("[gpus] devices: device 0 is listed twice"), std::string::npos);
}

TEST(config, print_config_round_trips) {
  auto r = parse_config("[memory]\ntotal_budget = \"96GiB\"\n[daemon]\nshutdown_grace = \"250ms\"\n", "t");
  ASSERT_TRUE(r);
  const auto text = to_toml(r.value());
  auto again = parse_config(text, "printed");
  ASSERT_TRUE(again) << again.error().message << "\n" << text;
  EXPECT_EQ(to_toml(again.value()), text);
  EXPECT_EQ(*again->memory.total_budget, 96ull << 30);
  EXPECT_EQ(again->daemon.shutdown_grace, 250ms);
  // "auto" survives printing too.
  auto a = parse_config("", "d");
  auto a2 = parse_config(to_toml(a.value()), "printed");
  ASSERT_TRUE(a2) << a2.error().message;
  EXPECT_FALSE(a2->memory.total_budget);
}

TEST(config, auto_budget_subtracts_the_margin_and_rejects_an_impossible_margin) {
  auto c = parse_config("", "d").value();
  auto b = resolve_total_budget(c);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_GT(b.value(), 0u);
  c.memory.safety_margin = 1ull << 60;
  auto bad = resolve_total_budget(c);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("[memory] safety_margin"), std::string::npos);
}

TEST(listen_address, forms) {
  auto t = parse_listen_address("127.0.0.1:9820").value();
  EXPECT_EQ(t.kind, listen_address::tcp);
  EXPECT_EQ(t.port, 9820);
  EXPECT_EQ(t.grpc_uri(), "127.0.0.1:9820");
  auto v6 = parse_listen_address("[::1]:0").value();
  EXPECT_EQ(v6.host, "::1");
  EXPECT_EQ(v6.grpc_uri(), "[::1]:0");
  auto u = parse_listen_address("unix:///run/curio/cuzk.sock").value();
  EXPECT_EQ(u.kind, listen_address::unix_socket);
  EXPECT_EQ(u.path, "/run/curio/cuzk.sock");
  EXPECT_EQ(u.display(), "unix:///run/curio/cuzk.sock");
  EXPECT_EQ(u.grpc_uri(), "unix:/run/curio/cuzk.sock");
  for (const char* bad : {"", "9820", ":9820", "host:", "host:70000", "::1:80", "unix://", "unix://relative",
                          "http://x:1", "host:12x"}) {
    EXPECT_FALSE(parse_listen_address(bad)) << bad;
  }
}

}  // namespace
}  // namespace cuzk::server
