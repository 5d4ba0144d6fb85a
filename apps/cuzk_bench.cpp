// cuzk-bench: command-line client and load generator for cuzk-daemon (gRPC cuzk.v1.ProvingEngine).
//
//   cuzk-bench [-a ADDR] [--json] status | version | health | metrics
//   cuzk-bench single -t porep --c1 c1.json            one Prove call, prints timings and the proof
//   cuzk-bench single -t test --log2-constraints 10    a synthetic test-circuit job
//   cuzk-bench batch -n 10 -j 3 -t porep --c1 c1.json  N Prove calls, C at a time; throughput
//   cuzk-bench stress --duration 60 --rate test:10:2=1.5 --rate test:12=0.2   open-loop mixed load
//   (batch and stress: summary table with s/proof, p50/p95/max latency, per-stage medians;
//    --json; --timeline out.svg draws every partition's stages per worker; a progress bar on
//    stderr when it is a terminal)
//   cuzk-bench submit ... / await JOB / cancel JOB     the asynchronous RPCs
//   cuzk-bench preload porep-32g / evict porep-32g
//
// ADDR: "host:port" (default 127.0.0.1:9820), "http://host:port" or "unix:///path".
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <map>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <google/protobuf/util/json_util.h>
#include <grpcpp/grpcpp.h>

#include "bench_report.hpp"
#include "bench_timeline.hpp"
#include "cuzk/v1/proving.grpc.pb.h"
#include "grpc/health/v1/health.grpc.pb.h"

namespace pb = cuzk::v1;
namespace bench = cuzk::bench;

namespace {

struct options {
  std::string addr = "127.0.0.1:9820";
  bool json = false;
  std::string kind = "porep";
  std::string c1, randomness, comm_r_old, comm_r_new, comm_d_new, request_id, priority;
  std::vector<std::string> vanilla;
  std::uint64_t registered_proof = 0, sector_size = 0, sector_num = 1, miner_id = 1000;
  std::uint32_t partition = 0, log2_constraints = 10, partitions = 1;
  std::uint64_t seed = 0;
  std::uint32_t count = 3, concurrency = 1;
  std::string job_id, circuit_id;
  std::uint64_t timeout_ms = 0;
  std::string timeline;             // batch/stress: write an SVG timeline here
  double duration_s = 10;           // stress: submission window
  std::vector<std::string> rates;   // stress: "KIND[:K[:PARTITIONS]]=PER_SECOND"
  std::uint32_t max_inflight = 64;  // stress: client-side cap on concurrent calls
};

[[noreturn]] void die(const std::string& msg) {
  std::cerr << "cuzk-bench: " << msg << "\n";
  std::exit(1);
}

std::string target(const std::string& addr) {
  if (addr.starts_with("http://")) return addr.substr(7);
  if (addr.starts_with("unix:") || addr.find("://") != std::string::npos) return addr;
  return "dns:///" + addr;
}

std::shared_ptr<grpc::Channel> channel(const options& o) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(256 << 20);
  args.SetMaxSendMessageSize(256 << 20);
  return grpc::CreateCustomChannel(target(o.addr), grpc::InsecureChannelCredentials(), args);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) die("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string hex_decode(const std::string& field, const std::string& h) {
  std::string s = h.starts_with("0x") ? h.substr(2) : h;
  if (s.size() % 2) die(field + ": odd number of hex digits");
  std::string out;
  for (std::size_t i = 0; i < s.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(s.substr(i, 2), nullptr, 16)));
  }
  return out;
}

std::string hex_encode(const std::string& b) {
  static constexpr char d[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : b) {
    out += d[c >> 4];
    out += d[c & 15];
  }
  return out;
}

std::string base64_decode(const std::string& in) {
  auto val = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string out;
  int buf = 0, bits = 0;
  for (char c : in) {
    if (c == '=') break;
    int v = val(c);
    if (v < 0) die("invalid base64 in vanilla proof file");
    buf = (buf << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buf >> bits) & 0xff));
    }
  }
  return out;
}

// A vanilla file is either a JSON array of base64 strings (Curio's json.Marshal([][]byte)) or one
// raw proof.
std::vector<std::string> read_vanilla(const std::string& path) {
  std::string s = read_file(path);
  auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos || s[b] != '[') return {s};
  std::vector<std::string> out;
  std::size_t i = b + 1;
  for (;;) {
    i = s.find_first_not_of(" \t\r\n,", i);
    if (i == std::string::npos) die(path + ": unterminated JSON array");
    if (s[i] == ']') break;
    if (s[i] != '"') die(path + ": expected a JSON array of base64 strings");
    auto e = s.find('"', i + 1);
    if (e == std::string::npos) die(path + ": unterminated string");
    out.push_back(base64_decode(s.substr(i + 1, e - i - 1)));
    i = e + 1;
  }
  return out;
}

pb::ProofKind parse_kind(const std::string& k) {
  if (k == "porep" || k == "porep-c2" || k == "seal-commit") return pb::POREP_SEAL_COMMIT;
  if (k == "snap" || k == "snap-deals" || k == "update") return pb::SNAP_DEALS_UPDATE;
  if (k == "wpost" || k == "window-post" || k == "windowpost") return pb::WINDOW_POST_PARTITION;
  if (k == "winning" || k == "winning-post" || k == "winningpost") return pb::WINNING_POST;
  if (k == "test" || k == "test-circuit") return pb::TEST_CIRCUIT;
  die("unknown proof type \"" + k + "\" (porep, snap, wpost, winning, test)");
}

pb::Priority parse_priority(const std::string& p) {
  if (p.empty()) return pb::PRIORITY_UNSPECIFIED;
  if (p == "low") return pb::LOW;
  if (p == "normal") return pb::NORMAL;
  if (p == "high") return pb::HIGH;
  if (p == "critical") return pb::CRITICAL;
  die("unknown priority \"" + p + "\" (low, normal, high, critical)");
}

std::string fresh_id() {
  static std::atomic<unsigned> n{0};
  const auto t = std::chrono::system_clock::now().time_since_epoch().count();
  return "bench-" + std::to_string(t) + "-" + std::to_string(n++);
}

pb::SubmitProofRequest make_request(const options& o) {
  pb::SubmitProofRequest r;
  r.set_request_id(o.request_id.empty() ? fresh_id() : o.request_id);
  r.set_proof_kind(parse_kind(o.kind));
  r.set_priority(parse_priority(o.priority));
  const bool filecoin = r.proof_kind() != pb::TEST_CIRCUIT;
  r.set_sector_size(o.sector_size ? o.sector_size : (filecoin ? 34359738368ull : 0));
  r.set_registered_proof(o.registered_proof);
  if (!o.c1.empty()) r.set_vanilla_proof(read_file(o.c1));
  for (const auto& v : o.vanilla) {
    for (auto& p : read_vanilla(v)) r.add_vanilla_proofs(std::move(p));
  }
  r.set_sector_number(o.sector_num);
  r.set_miner_id(o.miner_id);
  if (!o.randomness.empty()) r.set_randomness(hex_decode("--randomness", o.randomness));
  else if (r.proof_kind() == pb::WINDOW_POST_PARTITION || r.proof_kind() == pb::WINNING_POST)
    r.set_randomness(std::string(32, '\0'));
  r.set_partition_index(o.partition);
  if (!o.comm_r_old.empty()) r.set_comm_r_old(hex_decode("--comm-r-old", o.comm_r_old));
  if (!o.comm_r_new.empty()) r.set_comm_r_new(hex_decode("--comm-r-new", o.comm_r_new));
  if (!o.comm_d_new.empty()) r.set_comm_d_new(hex_decode("--comm-d-new", o.comm_d_new));
  if (!filecoin) {
    r.mutable_test_circuit()->set_log2_constraints(o.log2_constraints);
    r.mutable_test_circuit()->set_partitions(o.partitions);
    r.mutable_test_circuit()->set_seed(o.seed);
  }
  return r;
}

void set_deadline(grpc::ClientContext& ctx, std::uint64_t ms) {
  if (ms) ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(ms));
}

int rpc_error(const char* what, const grpc::Status& st) {
  std::cerr << "cuzk-bench: " << what << ": " << st.error_code() << " " << st.error_message() << "\n";
  return 1;
}

void print_json(const google::protobuf::Message& m) {
  std::string out;
  google::protobuf::util::JsonPrintOptions po;
  po.always_print_primitive_fields = true;
  po.preserve_proto_field_names = true;
  (void)google::protobuf::util::MessageToJsonString(m, &out, po);
  std::cout << out << "\n";
}

const char* status_name(pb::AwaitProofResponse::Status s) {
  return pb::AwaitProofResponse::Status_Name(s).c_str();
}

void print_result(const options& o, const pb::AwaitProofResponse& r, double wall_ms) {
  if (o.json) return print_json(r);
  std::cout << "job " << r.job_id() << ": " << status_name(r.status());
  if (!r.error_message().empty()) std::cout << ": " << r.error_message();
  std::cout << "\n  total " << r.total_ms() << " ms (queue " << r.queue_wait_ms() << ", srs " << r.srs_load_ms()
            << ", synth " << r.synthesis_ms() << ", gpu " << r.gpu_compute_ms() << "), wall " << wall_ms << " ms\n";
  if (!r.proof().empty()) std::cout << "  proof (" << r.proof().size() << " bytes): " << hex_encode(r.proof()) << "\n";
}

int cmd_single(const options& o) {
  auto stub = pb::ProvingEngine::NewStub(channel(o));
  pb::ProveRequest req;
  *req.mutable_submit() = make_request(o);
  pb::ProveResponse resp;
  grpc::ClientContext ctx;
  set_deadline(ctx, o.timeout_ms);
  const auto t0 = std::chrono::steady_clock::now();
  auto st = stub->Prove(&ctx, req, &resp);
  const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (!st.ok()) return rpc_error("Prove", st);
  print_result(o, resp.result(), wall);
  return resp.result().status() == pb::AwaitProofResponse::COMPLETED ? 0 : 1;
}

// A progress line on stderr, only when stderr is a terminal (never in logs or pipes).
class progress_bar {
 public:
  progress_bar(bool enabled, std::uint32_t total) : on_(enabled && ::isatty(STDERR_FILENO)), total_(total) {}
  ~progress_bar() { finish(); }
  // Clears the line (before the summary is printed).
  void finish() {
    std::lock_guard lock(mu_);
    if (on_ && drawn_) std::fputs("\r\033[K", stderr);
    drawn_ = false;
  }
  void update(std::uint32_t done, std::uint32_t failed, std::uint32_t in_flight, double elapsed_s) {
    if (!on_) return;
    std::lock_guard lock(mu_);
    constexpr int width = 30;
    const int filled = total_ ? static_cast<int>(width * std::min(1.0, static_cast<double>(done) / total_)) : 0;
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(width, '.');
    std::fprintf(stderr, "\r[%s] %u/%s done, %u failed, %u in flight, %.1f s ", bar.c_str(), done,
                 total_ ? std::to_string(total_).c_str() : "?", failed, in_flight, elapsed_s);
    std::fflush(stderr);
    drawn_ = true;
  }

 private:
  bool on_;
  std::uint32_t total_;
  bool drawn_ = false;
  std::mutex mu_;
};

// One Prove call -> one report record (the proof itself is dropped).
bench::record prove_once(pb::ProvingEngine::Stub& stub, pb::SubmitProofRequest req, const std::string& label,
                         std::uint64_t timeout_ms) {
  pb::ProveRequest pr;
  *pr.mutable_submit() = std::move(req);
  pb::ProveResponse resp;
  grpc::ClientContext ctx;
  set_deadline(ctx, timeout_ms);
  const auto s = std::chrono::steady_clock::now();
  auto st = stub.Prove(&ctx, pr, &resp);
  bench::record rec;
  rec.label = label;
  rec.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s).count();
  if (!st.ok()) {
    rec.status = "RPC_ERROR";
    rec.error = std::to_string(st.error_code()) + " " + st.error_message();
    return rec;
  }
  const auto& r = resp.result();
  rec.job_id = r.job_id();
  rec.status = pb::AwaitProofResponse::Status_Name(r.status());
  rec.error = r.error_message();
  rec.queue_ms = static_cast<double>(r.queue_wait_ms());
  rec.srs_ms = static_cast<double>(r.srs_load_ms());
  rec.synth_ms = static_cast<double>(r.synthesis_ms());
  rec.gpu_ms = static_cast<double>(r.gpu_compute_ms());
  rec.total_ms = static_cast<double>(r.total_ms());
  rec.submitted_us = r.submitted_us();
  for (const auto& p : r.partitions()) {
    rec.partitions.push_back({p.index(), p.witness_worker(), p.device_worker(), p.synth_start_us(), p.synth_end_us(),
                              p.device_start_us(), p.device_end_us()});
  }
  return rec;
}

std::string label_of(const pb::SubmitProofRequest& r) {
  if (r.proof_kind() == pb::TEST_CIRCUIT) {
    return "test-k" + std::to_string(r.test_circuit().log2_constraints()) + "x" +
           std::to_string(r.test_circuit().partitions());
  }
  switch (r.proof_kind()) {
    case pb::POREP_SEAL_COMMIT: return "porep";
    case pb::SNAP_DEALS_UPDATE: return "snap";
    case pb::WINDOW_POST_PARTITION: return "wpost";
    case pb::WINNING_POST: return "winning";
    default: return "kind-" + std::to_string(static_cast<int>(r.proof_kind()));
  }
}

// Prints the summary (table or JSON) and writes the timeline; returns the exit status.
int report(const options& o, const std::vector<bench::record>& records, const bench::run_info& info) {
  const auto u = bench::device_busy(records);
  if (o.json) {
    std::string j = bench::summary_json(records, info);
    char buf[160];
    std::snprintf(buf, sizeof buf, ",\"device\":{\"workers\":%u,\"span_s\":%.3f,\"busy_s\":%.3f,\"idle_fraction\":%.4f}}",
                  u.workers, u.span_s, u.busy_s, u.idle_fraction);
    j.pop_back();
    std::cout << j << buf << "\n";
  } else {
    std::cout << bench::summary_table(records, info);
    if (u.workers) {
      std::printf("  device workers: %u, busy %.1f%% of %.3f s from first to last device call (idle gaps %.1f%%)\n",
                  u.workers, 100 * (1 - u.idle_fraction), u.span_s, 100 * u.idle_fraction);
    }
  }
  if (!o.timeline.empty()) {
    std::ofstream out(o.timeline, std::ios::trunc);
    out << bench::timeline_svg(records);
    if (!out) die("cannot write " + o.timeline);
    if (!o.json) std::cout << "  timeline: " << o.timeline << "\n";
  }
  return std::all_of(records.begin(), records.end(), [](const auto& r) { return r.completed(); }) ? 0 : 1;
}

int cmd_batch(const options& o) {
  auto ch = channel(o);
  auto base = make_request(o);  // read inputs once
  const std::string label = label_of(base);
  std::atomic<std::uint32_t> next{0};
  std::mutex mu;
  std::vector<bench::record> records;
  std::uint32_t failed = 0;
  progress_bar bar(!o.json, o.count);
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  std::vector<std::thread> threads;
  const std::uint32_t workers = std::max(1u, std::min(o.concurrency, o.count));
  for (std::uint32_t t = 0; t < workers; ++t) {
    threads.emplace_back([&] {
      auto stub = pb::ProvingEngine::NewStub(ch);
      while (next++ < o.count) {
        auto req = base;
        req.set_request_id(fresh_id());
        auto rec = prove_once(*stub, std::move(req), label, o.timeout_ms);
        std::lock_guard lock(mu);
        failed += rec.completed() ? 0 : 1;
        records.push_back(std::move(rec));
        const auto done = static_cast<std::uint32_t>(records.size());
        bar.update(done, failed, std::min(o.count, next.load()) - done, elapsed());
      }
    });
  }
  for (auto& t : threads) t.join();
  bar.finish();
  bench::run_info info{"batch", elapsed(), o.concurrency, 0};
  return report(o, records, info);
}

// "test:10:2=1.5" -> (request, label, per second). Filecoin kinds take their inputs from the
// common options (--c1, --vanilla, ...).
struct stream {
  pb::SubmitProofRequest req;
  std::string label;
  double per_second = 0;
};

stream parse_rate(const options& o, const std::string& spec) {
  const auto eq = spec.rfind('=');
  if (eq == std::string::npos) die("--rate " + spec + ": expected KIND[:K[:PARTITIONS]]=PER_SECOND");
  std::vector<std::string> parts;
  std::stringstream ss(spec.substr(0, eq));
  for (std::string p; std::getline(ss, p, ':');) parts.push_back(p);
  options oo = o;
  oo.kind = parts.empty() ? "" : parts[0];
  try {
    if (parts.size() > 1) oo.log2_constraints = static_cast<std::uint32_t>(std::stoul(parts[1]));
    if (parts.size() > 2) oo.partitions = static_cast<std::uint32_t>(std::stoul(parts[2]));
  } catch (const std::exception&) {
    die("--rate " + spec + ": K and PARTITIONS must be numbers");
  }
  if (parts.size() > 3) die("--rate " + spec + ": too many fields");
  stream s;
  s.req = make_request(oo);
  s.label = label_of(s.req);
  try {
    s.per_second = std::stod(spec.substr(eq + 1));
  } catch (const std::exception&) {
    die("--rate " + spec + ": rate is not a number");
  }
  if (!(s.per_second > 0) || s.per_second > 10000) die("--rate " + spec + ": rate must be in (0, 10000] per second");
  return s;
}

// Open-loop load: each stream submits at its rate (evenly spaced, the streams interleaved) for
// --duration seconds; arrivals while --max-inflight calls are open are counted as dropped (the
// client's limit, not the daemon's). Then every open call is awaited (bounded by --timeout-ms).
int cmd_stress(const options& o) {
  if (o.rates.empty()) die("stress: give at least one --rate KIND[:K[:PARTITIONS]]=PER_SECOND");
  if (!(o.duration_s > 0) || o.duration_s > 24 * 3600) die("stress: --duration must be in (0, 86400] seconds");
  std::vector<stream> streams;
  for (const auto& r : o.rates) streams.push_back(parse_rate(o, r));
  std::uint32_t planned = 0;
  for (const auto& s : streams) planned += static_cast<std::uint32_t>(std::ceil(s.per_second * o.duration_s));
  const std::uint64_t timeout = o.timeout_ms ? o.timeout_ms : static_cast<std::uint64_t>(o.duration_s * 1000) + 600000;
  auto ch = channel(o);
  std::mutex mu;
  std::condition_variable cv;
  std::vector<bench::record> records;
  std::uint32_t in_flight = 0, failed = 0, dropped = 0;
  progress_bar bar(!o.json, planned);
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  const auto end = t0 + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(o.duration_s));
  auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - t0).count(); };
  std::vector<std::uint64_t> sent(streams.size(), 0);
  std::vector<std::thread> calls;
  for (;;) {
    // The stream whose next arrival is earliest.
    std::size_t pick = 0;
    clock::time_point due = clock::time_point::max();
    for (std::size_t i = 0; i < streams.size(); ++i) {
      const auto t = t0 + std::chrono::duration_cast<clock::duration>(
                              std::chrono::duration<double>(static_cast<double>(sent[i]) / streams[i].per_second));
      if (t < due) {
        due = t;
        pick = i;
      }
    }
    if (due >= end) break;
    std::this_thread::sleep_until(due);
    ++sent[pick];
    std::unique_lock lock(mu);
    if (in_flight >= o.max_inflight) {
      ++dropped;
      continue;
    }
    ++in_flight;
    lock.unlock();
    auto req = streams[pick].req;
    req.set_request_id(fresh_id());
    calls.emplace_back([&, req = std::move(req), label = streams[pick].label]() mutable {
      auto stub = pb::ProvingEngine::NewStub(ch);
      auto rec = prove_once(*stub, std::move(req), label, timeout);
      std::lock_guard l(mu);
      failed += rec.completed() ? 0 : 1;
      records.push_back(std::move(rec));
      --in_flight;
      bar.update(static_cast<std::uint32_t>(records.size()), failed, in_flight, elapsed());
      cv.notify_all();
    });
  }
  for (auto& t : calls) t.join();
  bar.finish();
  bench::run_info info{"stress", elapsed(), o.max_inflight, o.duration_s};
  const int rc = report(o, records, info);
  if (dropped && !o.json) std::printf("  %u arrivals dropped (client limit --max-inflight %u)\n", dropped, o.max_inflight);
  return dropped ? 1 : rc;
}

int cmd_submit(const options& o) {
  auto stub = pb::ProvingEngine::NewStub(channel(o));
  auto req = make_request(o);
  pb::SubmitProofResponse resp;
  grpc::ClientContext ctx;
  set_deadline(ctx, o.timeout_ms);
  auto st = stub->SubmitProof(&ctx, req, &resp);
  if (!st.ok()) return rpc_error("SubmitProof", st);
  if (o.json) print_json(resp);
  else std::cout << resp.job_id() << " queued at " << resp.queue_position()
                 << (resp.attached_to_existing() ? " (attached to an existing job)" : "") << "\n";
  return 0;
}

int cmd_await(const options& o) {
  auto stub = pb::ProvingEngine::NewStub(channel(o));
  pb::AwaitProofRequest req;
  req.set_job_id(o.job_id);
  req.set_timeout_ms(o.timeout_ms);
  pb::AwaitProofResponse resp;
  grpc::ClientContext ctx;
  const auto t0 = std::chrono::steady_clock::now();
  auto st = stub->AwaitProof(&ctx, req, &resp);
  if (!st.ok()) return rpc_error("AwaitProof", st);
  print_result(o, resp, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  return resp.status() == pb::AwaitProofResponse::COMPLETED ? 0 : 1;
}

int cmd_cancel(const options& o) {
  auto stub = pb::ProvingEngine::NewStub(channel(o));
  pb::CancelProofRequest req;
  req.set_job_id(o.job_id);
  pb::CancelProofResponse resp;
  grpc::ClientContext ctx;
  set_deadline(ctx, 10000);
  auto st = stub->CancelProof(&ctx, req, &resp);
  if (!st.ok()) return rpc_error("CancelProof", st);
  if (o.json) print_json(resp);
  else if (!resp.found()) std::cout << o.job_id << ": no unfinished job with this id\n";
  else std::cout << o.job_id << ": cancelled (" << (resp.was_running() ? "was running" : "was queued") << ")\n";
  return resp.found() ? 0 : 1;
}

int cmd_status(const options& o) {
  auto stub = pb::ProvingEngine::NewStub(channel(o));
  pb::GetStatusResponse resp;
  grpc::ClientContext ctx;
  set_deadline(ctx, 5000);
  auto st = stub->GetStatus(&ctx, pb::GetStatusRequest{}, &resp);
  if (!st.ok()) return rpc_error("GetStatus", st);
  if (o.json) {
    print_json(resp);
    return 0;
  }
  std::cout << "cuzk-daemon " << resp.version() << ", up " << resp.uptime_seconds() << " s"
            << (resp.shutting_down() ? " (shutting down)" : "") << "\n"
            << "proofs: " << resp.total_proofs_completed() << " completed, " << resp.total_proofs_failed()
            << " failed, " << resp.total_proofs_cancelled() << " cancelled\n"
            << "host memory: " << resp.host_memory().reserved_bytes() << " / " << resp.host_memory().total_bytes()
            << " bytes reserved, " << resp.host_memory().waiting() << " waiting\n";
  for (const auto& q : resp.queues()) {
    std::cout << "  " << q.proof_kind() << ": " << q.pending() << " pending, " << q.in_progress() << " in progress\n";
  }
  for (const auto& s : resp.stages()) {
    std::cout << "  stage " << s.stage() << ": " << s.queued() << " queued (cap " << s.capacity() << "), "
              << s.running() << " running\n";
  }
  for (const auto& w : resp.workers()) {
    std::cout << "  worker " << w.stage() << "/" << w.index() << ": ";
    if (w.busy()) std::cout << w.job_id() << " " << w.proof_kind() << " partition " << w.partition() << "\n";
    else std::cout << "idle\n";
  }
  for (const auto& g : resp.gpus()) {
    std::cout << "  gpu " << g.ordinal() << " " << g.name() << ": device memory "
              << (g.vram_total_bytes() - g.vram_free_bytes()) << " / " << g.vram_total_bytes() << " bytes reserved"
              << (g.current_job_id().empty() ? ", idle" : ", proving " + g.current_job_id())
              << (g.fault().empty() ? "" : ", FAULTED (" + g.fault() + ")") << "\n";
  }
  return 0;
}

int cmd_version(const options& o) {
  auto stub = pb::ProvingEngine::NewStub(channel(o));
  pb::GetVersionResponse resp;
  grpc::ClientContext ctx;
  set_deadline(ctx, 5000);
  auto st = stub->GetVersion(&ctx, pb::GetVersionRequest{}, &resp);
  if (!st.ok()) return rpc_error("GetVersion", st);
  if (o.json) {
    print_json(resp);
    return 0;
  }
  std::cout << "cuzk-daemon " << resp.version() << ", backend " << resp.backend() << ", prover " << resp.prover()
            << "\nsupported:";
  for (int k : resp.supported_kinds()) std::cout << " " << pb::ProofKind_Name(static_cast<pb::ProofKind>(k));
  if (resp.supported_kinds().empty()) std::cout << " (none yet)";
  std::cout << "\n";
  return 0;
}

int cmd_health(const options& o) {
  auto stub = grpc::health::v1::Health::NewStub(channel(o));
  grpc::health::v1::HealthCheckRequest req;
  grpc::health::v1::HealthCheckResponse resp;
  grpc::ClientContext ctx;
  set_deadline(ctx, 5000);
  auto st = stub->Check(&ctx, req, &resp);
  if (!st.ok()) return rpc_error("Health.Check", st);
  if (o.json) print_json(resp);
  else std::cout << grpc::health::v1::HealthCheckResponse::ServingStatus_Name(resp.status()) << "\n";
  return resp.status() == grpc::health::v1::HealthCheckResponse::SERVING ? 0 : 1;
}

int cmd_metrics(const options& o) {
  auto stub = pb::ProvingEngine::NewStub(channel(o));
  pb::GetMetricsResponse resp;
  grpc::ClientContext ctx;
  set_deadline(ctx, 5000);
  auto st = stub->GetMetrics(&ctx, pb::GetMetricsRequest{}, &resp);
  if (!st.ok()) return rpc_error("GetMetrics", st);
  std::cout << resp.prometheus_text();
  return 0;
}

int cmd_preload(const options& o, bool evict) {
  auto stub = pb::ProvingEngine::NewStub(channel(o));
  grpc::ClientContext ctx;
  set_deadline(ctx, o.timeout_ms);
  if (evict) {
    pb::EvictSrsRequest req;
    req.set_circuit_id(o.circuit_id);
    pb::EvictSrsResponse resp;
    auto st = stub->EvictSRS(&ctx, req, &resp);
    if (!st.ok()) return rpc_error("EvictSRS", st);
    if (o.json) print_json(resp);
    else std::cout << o.circuit_id << ": " << (resp.was_loaded() ? "evicted" : "was not loaded") << ", freed "
                   << resp.freed_bytes() << " bytes\n";
  } else {
    pb::PreloadSrsRequest req;
    req.set_circuit_id(o.circuit_id);
    pb::PreloadSrsResponse resp;
    auto st = stub->PreloadSRS(&ctx, req, &resp);
    if (!st.ok()) return rpc_error("PreloadSRS", st);
    if (o.json) print_json(resp);
    else std::cout << o.circuit_id << ": " << (resp.already_loaded() ? "already loaded" : "loaded") << " in "
                   << resp.load_time_ms() << " ms\n";
  }
  return 0;
}

void add_job_options(CLI::App* c, options& o) {
  c->add_option("-t,--type", o.kind, "porep | snap | wpost | winning | test")->capture_default_str();
  c->add_option("--c1", o.c1, "PoRep: C1 output envelope file (JSON)");
  c->add_option("--vanilla", o.vanilla, "PoSt/Snap: vanilla proofs file (JSON array of base64, or one raw proof)");
  c->add_option("--registered-proof", o.registered_proof, "numeric registered proof");
  c->add_option("--sector-size", o.sector_size, "bytes (default 34359738368 for Filecoin kinds)");
  c->add_option("--sector-num", o.sector_num)->capture_default_str();
  c->add_option("--miner-id", o.miner_id)->capture_default_str();
  c->add_option("--partition", o.partition, "WindowPoSt partition index");
  c->add_option("--randomness", o.randomness, "hex, 32 bytes (default zeros for PoSt)");
  c->add_option("--comm-r-old", o.comm_r_old, "hex, 32 bytes");
  c->add_option("--comm-r-new", o.comm_r_new, "hex, 32 bytes");
  c->add_option("--comm-d-new", o.comm_d_new, "hex, 32 bytes");
  c->add_option("--priority", o.priority, "low | normal | high | critical (default: per kind)");
  c->add_option("--request-id", o.request_id, "idempotency key (default: fresh)");
  c->add_option("--log2-constraints", o.log2_constraints, "test circuit size")->capture_default_str();
  c->add_option("--partitions", o.partitions, "test circuit partitions")->capture_default_str();
  c->add_option("--seed", o.seed, "test circuit seed");
  c->add_option("--timeout-ms", o.timeout_ms, "RPC deadline (0 = none)");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"cuzk-bench: client and load generator for cuzk-daemon"};
  app.require_subcommand(1);
  options o;
  app.add_option("-a,--addr", o.addr, "daemon address: host:port, http://host:port or unix:///path")
      ->capture_default_str();
  app.add_flag("--json", o.json, "machine-readable output");
  app.set_version_flag("--version", std::string("cuzk-bench ") + CUZK_VERSION);

  auto* status = app.add_subcommand("status", "daemon status (GetStatus)");
  auto* version = app.add_subcommand("version", "daemon version and supported proof kinds (GetVersion)");
  auto* health = app.add_subcommand("health", "gRPC health check (exit 0 when SERVING)");
  auto* metrics = app.add_subcommand("metrics", "Prometheus metrics text (GetMetrics)");
  auto* single = app.add_subcommand("single", "one proof (Prove)");
  add_job_options(single, o);
  auto* batch = app.add_subcommand("batch", "N proofs, C at a time (Prove); reports throughput");
  add_job_options(batch, o);
  batch->add_option("-n,--count", o.count, "number of proofs")->capture_default_str();
  batch->add_option("-j,--concurrency", o.concurrency, "concurrent Prove calls")->capture_default_str();
  batch->add_option("--timeline", o.timeline, "write an SVG timeline of every partition's stages per worker");
  auto* stress = app.add_subcommand("stress", "mixed kinds at given rates for a bounded time (Prove); summary");
  add_job_options(stress, o);
  stress->add_option("--rate", o.rates, "KIND[:K[:PARTITIONS]]=PER_SECOND, repeatable (e.g. test:10:2=1.5)")
      ->required();
  stress->add_option("--duration", o.duration_s, "seconds of submissions")->capture_default_str();
  stress->add_option("--max-inflight", o.max_inflight, "client limit on open calls (more arrivals are dropped)")
      ->capture_default_str();
  stress->add_option("--timeline", o.timeline, "write an SVG timeline of every partition's stages per worker");
  auto* submit = app.add_subcommand("submit", "submit without waiting (SubmitProof); prints the job id");
  add_job_options(submit, o);
  auto* await = app.add_subcommand("await", "wait for a job (AwaitProof)");
  await->add_option("job_id", o.job_id)->required();
  await->add_option("--timeout-ms", o.timeout_ms, "0 = wait forever");
  auto* cancel = app.add_subcommand("cancel", "cancel a job (CancelProof)");
  cancel->add_option("job_id", o.job_id)->required();
  auto* preload = app.add_subcommand("preload", "load an SRS (PreloadSRS)");
  preload->add_option("circuit_id", o.circuit_id, "e.g. porep-32g")->required();
  auto* evict = app.add_subcommand("evict", "evict an SRS (EvictSRS)");
  evict->add_option("circuit_id", o.circuit_id, "e.g. porep-32g")->required();

  CLI11_PARSE(app, argc, argv);
  if (*status) return cmd_status(o);
  if (*version) return cmd_version(o);
  if (*health) return cmd_health(o);
  if (*metrics) return cmd_metrics(o);
  if (*single) return cmd_single(o);
  if (*batch) return cmd_batch(o);
  if (*stress) return cmd_stress(o);
  if (*submit) return cmd_submit(o);
  if (*await) return cmd_await(o);
  if (*cancel) return cmd_cancel(o);
  if (*preload) return cmd_preload(o, false);
  if (*evict) return cmd_preload(o, true);
  return 2;
}
