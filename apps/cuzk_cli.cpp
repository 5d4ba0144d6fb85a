// cuzk: the offline command-line tool.
//
//   cuzk prove  --zkey Z --wtns W --proof proof.json --public public.json   (snarkjs keys)
//   cuzk verify --vkey verification_key.json --proof proof.json --public public.json
//   cuzk zkey info FILE
//   cuzk zkey export-vkey --zkey Z --vkey verification_key.json
//   cuzk zkey new --circuit test-k<K> --zkey OUT.zkey [--wtns OUT.wtns --seed N]  (snarkjs key of a
//                                                                             built-in test circuit)
//   cuzk params info FILE                                                  (bellperson .params/.vk)
//   cuzk setup  --circuit test-k<K> --params OUT.params --vk OUT.vk         (bellperson format,
//   cuzk prove  --circuit test-k<K> --params P --seed N --proof OUT.proof --public OUT.inputs
//   cuzk verify --vk V.vk --proof P.proof --public I.inputs                  built-in test circuits)
//
// prove/verify pick the snarkjs or bellperson row by the options given (--zkey/--vkey vs
// --circuit/--vk) or by --format snarkjs|bellperson. Bellperson public inputs files: one Fr per
// line, 64 hex digits = its 32-byte little-endian canonical encoding (ONE not listed).
//
// Exit status: 0 success (verify: the proof is valid); 1 the operation ran and the answer is
// negative (verify: invalid proof; prove: the new proof failed its self-check, e.g. a witness
// that does not satisfy the circuit); 2 usage, I/O or format errors. Every error is one line on
// stderr starting with "cuzk: ".
//
// Commands live in one table (kCommands): a command is a word path ("params", "info"), its
// option names, a usage line and a handler; rows that share a path carry a format and are told
// apart by select_row.

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "backend/cpu/cpu_backend.hpp"
#include "base/executor.hpp"
#include "base/os_rng.hpp"
#include "ec/subgroup.hpp"
#include "gadgets/circuit/circuit_registry.hpp"
#include "groth16/digest.hpp"
#include "groth16/file_io.hpp"
#include "groth16/params_reader.hpp"
#include "groth16/params_writer.hpp"
#include "groth16/proof.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/snarkjs_format.hpp"
#include "groth16/snarkjs_json.hpp"
#include "groth16/snarkjs_prover.hpp"
#include "groth16/snarkjs_writer.hpp"
#include "groth16/verifier.hpp"
#include "groth16/verifying_key.hpp"
#include "testcircuit/mimc_chain.hpp"

#ifndef CUZK_VERSION
#define CUZK_VERSION "0.1.0"
#endif

namespace {

namespace g16 = cuzk::groth16;
namespace sj = cuzk::groth16::snarkjs;
using cuzk::ff::fr;

constexpr int kOk = 0;
constexpr int kNegative = 1;
constexpr int kUsage = 2;

// A failure that ends the command: message (one line) and exit status.
struct cli_error {
  int status;
  std::string message;
};

[[noreturn]] void usage_error(const std::string& m) { throw cli_error{kUsage, m}; }
[[noreturn]] void format_error(const std::string& m) { throw cli_error{kUsage, m}; }

// --- arguments ---------------------------------------------------------------------------------
struct args {
  std::map<std::string, std::string> options;  // --name value / --name=value
  std::set<std::string> flags;                 // --name (declared as a flag)
  std::vector<std::string> positional;

  const std::string& required(const std::string& name) const {
    auto it = options.find(name);
    if (it == options.end()) usage_error("missing --" + name);
    return it->second;
  }
  std::optional<std::string> get(const std::string& name) const {
    auto it = options.find(name);
    if (it == options.end()) return std::nullopt;
    return it->second;
  }
  bool flag(const std::string& name) const { return flags.count(name) != 0; }
};

struct command {
  std::vector<std::string_view> path;
  std::vector<std::string_view> value_options;  // take a value
  std::vector<std::string_view> flag_options;   // take none
  std::size_t positional;                       // exact count
  const char* usage;
  const char* summary;
  int (*run)(const args&);
  std::string_view format = {};  // rows sharing a path: "snarkjs" / "bellperson" (see select_row)
};

args parse_args(const command& c, int argc, char** argv, int first) {
  args a;
  auto known = [](const std::vector<std::string_view>& v, std::string_view n) {
    for (auto x : v)
      if (x == n) return true;
    return false;
  };
  for (int i = first; i < argc; ++i) {
    std::string_view s = argv[i];
    if (s.size() > 2 && s.substr(0, 2) == "--") {
      std::string name(s.substr(2));
      std::optional<std::string> value;
      if (auto eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name.resize(eq);
      }
      if (known(c.flag_options, name)) {
        if (value) usage_error("--" + name + " takes no value");
        a.flags.insert(name);
      } else if (known(c.value_options, name)) {
        if (!value) {
          if (i + 1 >= argc) usage_error("--" + name + " needs a value");
          value = argv[++i];
        }
        if (a.options.count(name)) usage_error("--" + name + " given twice");
        a.options[name] = *value;
      } else {
        usage_error("unknown option --" + name + " (usage: " + c.usage + ")");
      }
    } else {
      a.positional.emplace_back(s);
    }
  }
  if (a.positional.size() != c.positional)
    usage_error(std::string("wrong number of arguments (usage: ") + c.usage + ")");
  return a;
}

// --- helpers -----------------------------------------------------------------------------------
void check(const sj::error& e) {
  if (!e.ok()) format_error(e.message());
}

std::unique_ptr<cuzk::base::executor> make_executor(const args& a) {
  std::size_t threads = 0;
  if (auto t = a.get("threads")) {
    char* end = nullptr;
    errno = 0;
    const unsigned long v = std::strtoul(t->c_str(), &end, 10);
    if (errno || !end || *end || t->empty() || v > 4096) usage_error("--threads: not a thread count: " + *t);
    threads = v;
  }
  return cuzk::base::make_thread_pool_executor(threads);
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::string read_text(const std::string& path) {
  std::string s;
  check(sj::read_text_file(path, s));
  return s;
}

void write_text(const std::string& path, const std::string& text) { check(sj::write_text_file(path, text)); }

// --- prove (snarkjs keys) ----------------------------------------------------------------------
int cmd_prove(const args& a) {
  const auto t0 = std::chrono::steady_clock::now();
  const bool timing = a.flag("time");
  auto ex = make_executor(a);

  sj::zkey z;
  check(sj::read_zkey_file(a.required("zkey"), z, *ex));
  const double zkey_ms = ms_since(t0);
  std::vector<fr> w;
  const auto t1 = std::chrono::steady_clock::now();
  check(sj::read_wtns_file(a.required("wtns"), w));
  if (w.size() != z.n_vars)
    format_error("witness has " + std::to_string(w.size()) + " values, the zkey expects nVars = " +
                 std::to_string(z.n_vars));
  if (!w.empty() && !w[0].is_one()) format_error("witness value 0 is not 1 (not a circom witness)");
  const double wtns_ms = ms_since(t1);

  // r, s from the OS CSPRNG.
  cuzk::base::os_rng rng;
  const fr r = fr::random(rng);
  const fr s = fr::random(rng);

  sj::prove_timings tm;
  const g16::proof p = sj::prove(z, w, r, s, *ex, &tm);
  const std::vector<fr> pub = sj::public_signals(z, w);

  // Always (3 endomorphism tests): a zkey whose query points have components outside the
  // prime-order subgroups (the reader checks those points only for being on the curve) would give
  // proof elements whose small-order parts leak witness bits mod the cofactor, and the pairing
  // check below would not notice (pairings kill such components). Refuse to write such a proof.
  if (!cuzk::ec::is_in_subgroup(p.a) || !cuzk::ec::is_in_subgroup(p.b) || !cuzk::ec::is_in_subgroup(p.c))
    throw cli_error{kNegative, "the new proof has points outside the prime-order subgroups: the zkey's query "
                               "points are not all in G1/G2 (not written)"};

  // Self-check with our verifier (one pairing product): catches a witness that does not satisfy
  // the circuit before a bad proof leaves this process.
  double verify_ms = 0;
  if (!a.flag("no-self-check")) {
    const auto tv = std::chrono::steady_clock::now();
    const auto pvk = g16::prepare_verifying_key(sj::verifying_key_of(z));
    const auto res = g16::verify(pvk, p, pub);
    verify_ms = ms_since(tv);
    if (res != g16::verify_result::valid)
      throw cli_error{kNegative, std::string("the new proof does not verify (") + g16::to_string(res) +
                                     "): the witness does not satisfy the circuit of this zkey"};
  }
  write_text(a.required("proof"), sj::write_proof_json(p));
  write_text(a.required("public"), sj::write_public_json(pub));
  if (timing) {
    std::fprintf(stderr,
                 "cuzk prove: nVars %u nPublic %u domain 2^%u threads %zu | read zkey %.1f ms, wtns %.1f ms | "
                 "h %.1f ms, msm %.1f ms, prove %.1f ms | self-check %.1f ms | total %.1f ms\n",
                 z.n_vars, z.n_public, z.log_domain_size(), ex->concurrency(), zkey_ms, wtns_ms, tm.h_ms, tm.msm_ms,
                 tm.total_ms, verify_ms, ms_since(t0));
  }
  return kOk;
}

// --- verify (snarkjs JSON) ---------------------------------------------------------------------
int cmd_verify(const args& a) {
  g16::verifying_key vk;
  uint32_t n_public = 0;
  check(sj::read_vkey_json(read_text(a.required("vkey")), vk, n_public));

  // Proof and public inputs: malformed files are format errors (2); well-formed ones whose
  // points or values are not valid group / field elements make the proof invalid (1).
  g16::proof p;
  if (sj::error e = sj::read_proof_json(read_text(a.required("proof")), p); !e.ok()) {
    if (e.code == sj::errc::bad_point) throw cli_error{kNegative, "invalid proof: " + e.message()};
    format_error(e.message());
  }
  std::vector<fr> pub;
  if (sj::error e = sj::read_public_json(read_text(a.required("public")), pub); !e.ok()) {
    if (e.code == sj::errc::bad_point) throw cli_error{kNegative, "invalid proof: " + e.message()};
    format_error(e.message());
  }
  if (pub.size() != n_public)
    throw cli_error{kNegative, "invalid proof: " + std::to_string(pub.size()) +
                                   " public inputs, the verification key has nPublic = " + std::to_string(n_public)};
  const auto res = g16::verify(g16::prepare_verifying_key(vk), p, pub);
  if (res != g16::verify_result::valid) throw cli_error{kNegative, std::string("invalid proof (") + g16::to_string(res) + ")"};
  std::printf("OK: proof is valid\n");
  return kOk;
}

// --- zkey --------------------------------------------------------------------------------------
int cmd_zkey_info(const args& a) {
  auto ex = make_executor(a);
  sj::zkey z;
  const auto t0 = std::chrono::steady_clock::now();
  check(sj::read_zkey_file(a.positional[0], z, *ex));
  std::size_t na = 0, nb = 0;
  for (const auto& c : z.coeffs) (c.matrix == 0 ? na : nb)++;
  std::printf("kind: snarkjs zkey (groth16, bls12381)\n");
  std::printf("n_vars: %u\nn_public: %u\ndomain_size: %u (2^%u)\n", z.n_vars, z.n_public, z.domain_size,
              z.log_domain_size());
  std::printf("coefficients: %zu (A %zu, B %zu)\n", z.coeffs.size(), na, nb);
  std::printf("points: ic %zu, a %zu, b_g1 %zu, b_g2 %zu, c %zu, h %zu\n", z.ic.size(), z.a.size(), z.b_g1.size(),
              z.b_g2.size(), z.c.size(), z.h.size());
  std::printf("read_ms: %.1f\n", ms_since(t0));
  return kOk;
}

int cmd_zkey_export_vkey(const args& a) {
  auto ex = make_executor(a);
  sj::zkey z;
  check(sj::read_zkey_file(a.required("zkey"), z, *ex));
  write_text(a.required("vkey"), sj::write_vkey_json(z));
  return kOk;
}

// --- params info (bellperson .params / .vk) ------------------------------------------------------
int cmd_params_info(const args& a) {
  const std::string& path = a.positional[0];
  g16::mapped_file m;
  if (g16::read_error e = g16::mapped_file::open(path, m); !e.ok()) format_error(path + ": " + e.message());
  const auto bytes = m.bytes();

  const char* kind = nullptr;
  g16::params_layout layout{};
  g16::point_run ic{};
  // A .vk is exactly the verifying key; anything longer must be a whole .params file.
  if (g16::read_error e = g16::detail::scan_verifying_key(bytes, 0, ic); !e.ok()) format_error(path + ": " + e.message());
  if (bytes.size() == g16::verifying_key_size(ic.count)) {
    kind = "vk";
    if (ic.count == 0) format_error(path + ": vk.ic: verifying key with no ic points");
  } else {
    if (g16::read_error e = g16::scan_parameters(bytes, layout); !e.ok()) format_error(path + ": " + e.message());
    kind = "params";
  }
  std::printf("file: %s\n", path.c_str());
  std::printf("kind: %s\n", kind);
  std::printf("size: %zu\n", bytes.size());
  if (std::strcmp(kind, "vk") == 0) {
    std::printf("ic: %llu\n", static_cast<unsigned long long>(ic.count));
  } else {
    auto row = [](const char* n, const g16::point_run& r, unsigned bytes_per_point) {
      std::printf("%s: %llu (%llu bytes at offset %llu)\n", n, static_cast<unsigned long long>(r.count),
                  static_cast<unsigned long long>(r.count * bytes_per_point), static_cast<unsigned long long>(r.offset));
    };
    row("ic", layout.ic, 96);
    row("h", layout.h, 96);
    row("l", layout.l, 96);
    row("a", layout.a, 96);
    row("b_g1", layout.b_g1, 96);
    row("b_g2", layout.b_g2, 192);
  }
  m = g16::mapped_file();  // the digest reads the file sequentially
  if (!a.flag("no-digest")) {
    g16::blake2b_512_digest d;
    if (g16::read_error e = g16::blake2b_512_file(path, d); !e.ok()) format_error(path + ": " + e.message());
    std::printf("digest: %s\n", g16::parameters_json_digest(d).c_str());
    std::printf("blake2b_512: %s\n", g16::to_hex(d).c_str());
  }
  return kOk;
}

// --- bellperson format: setup / prove / verify of the built-in test circuits -------------------
// Files: .params and .vk in bellperson's layout (groth16 params_writer / verifying_key), the proof
// as its raw 192 bytes (A, B, C compressed), the public inputs as text: one Fr per line, 64
// lowercase hex digits = the 32-byte little-endian canonical encoding (an optional 0x prefix is
// accepted on reading; blank lines are ignored). ONE is not listed; the test circuits have two
// public inputs, x_0 and y.
unsigned parse_test_circuit(const std::string& name) {
  constexpr std::string_view prefix = "test-k";
  if (name.size() <= prefix.size() || std::string_view(name).substr(0, prefix.size()) != prefix)
    usage_error("--circuit: unknown circuit '" + name + "' (expected test-k<K>)");
  const std::string digits = name.substr(prefix.size());
  char* end = nullptr;
  errno = 0;
  const unsigned long k = std::strtoul(digits.c_str(), &end, 10);
  if (errno || !end || *end || digits.empty() || digits[0] < '0' || digits[0] > '9' ||
      k < cuzk::testcircuit::min_log2 || k > cuzk::testcircuit::max_log2)
    usage_error("--circuit: '" + name + "': K must be an integer in [" + std::to_string(cuzk::testcircuit::min_log2) +
                ", " + std::to_string(cuzk::testcircuit::max_log2) + "]");
  return static_cast<unsigned>(k);
}

std::uint64_t parse_seed(const std::string& t) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(t.c_str(), &end, 10);
  if (errno || !end || *end || t.empty() || t[0] < '0' || t[0] > '9') usage_error("--seed: not an unsigned 64-bit integer: " + t);
  return v;
}

std::string fr_hex(const fr& x) {
  std::uint8_t b[32];
  x.to_bytes_le(b);
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (auto c : b) {
    s += digits[c >> 4];
    s += digits[c & 15];
  }
  return s;
}

std::vector<fr> read_public_inputs(const std::string& path) {
  const std::string text = read_text(path);
  std::vector<fr> out;
  std::size_t line_no = 0, pos = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    std::size_t b = 0;
    while (b < line.size() && (line[b] == ' ' || line[b] == '\t')) ++b;
    line.erase(0, b);
    if (line.empty()) continue;
    if (line.size() >= 2 && line[0] == '0' && (line[1] == 'x' || line[1] == 'X')) line.erase(0, 2);
    const std::string where = path + ":" + std::to_string(line_no) + ": ";
    if (line.size() != 64) format_error(where + "expected 64 hex digits (32-byte little-endian Fr)");
    std::uint8_t bytes[32];
    for (std::size_t i = 0; i < 32; ++i) {
      auto nib = [&](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        format_error(where + "not a hex digit: '" + std::string(1, c) + "'");
      };
      bytes[i] = static_cast<std::uint8_t>(nib(line[2 * i]) << 4 | nib(line[2 * i + 1]));
    }
    fr x;
    if (!fr::from_bytes_le(bytes, x)) format_error(where + "value is not a canonical Fr (>= r)");
    out.push_back(x);
  }
  return out;
}

void write_bytes(const std::string& path, std::span<const std::uint8_t> bytes) {
  if (g16::read_error e = g16::write_file(path, bytes); !e.ok()) format_error(path + ": " + e.message());
}

std::shared_ptr<const cuzk::testcircuit::compiled_circuit> test_circuit(const args& a) {
  return cuzk::testcircuit::circuit_cache::global().get(parse_test_circuit(a.required("circuit")));
}

int cmd_bp_setup(const args& a) {
  const auto t0 = std::chrono::steady_clock::now();
  auto ex = make_executor(a);
  const auto c = test_circuit(a);
  g16::parameters p;
  {
    cuzk::base::os_rng rng;
    const auto tw = g16::toxic_waste::random(rng);
    p = g16::setup(c->shape, tw, *ex);
  }  // the toxic waste is gone here
  const std::string& params = a.required("params");
  const std::string& vk = a.required("vk");
  if (g16::read_error e = g16::write_parameters_file(params, p); !e.ok()) format_error(params + ": " + e.message());
  if (g16::read_error e = g16::write_verifying_key_file(vk, p.vk); !e.ok()) format_error(vk + ": " + e.message());
  if (a.flag("time"))
    std::fprintf(stderr, "cuzk setup: test-k%u constraints %zu | total %.1f ms\n", c->k(), c->shape.num_constraints,
                 ms_since(t0));
  return kOk;
}

int cmd_bp_prove(const args& a) {
  const auto t0 = std::chrono::steady_clock::now();
  auto ex = make_executor(a);
  const auto c = test_circuit(a);
  const std::uint64_t seed = parse_seed(a.required("seed"));
  const std::string& path = a.required("params");
  g16::parameters p;
  // Subgroup checks on every point cost minutes at 2^20 (~50 us per point); --no-subgroup-check
  // keeps the on-curve checks only, for parameter files you made yourself (benchmarks).
  const auto check_points =
      a.flag("no-subgroup-check") ? cuzk::ec::subgroup_check::skip : cuzk::ec::subgroup_check::verify;
  if (g16::read_error e = g16::read_parameters_file(path, p, check_points); !e.ok())
    format_error(path + ": " + e.message());
  try {
    g16::check_parameters(g16::parameters_view::of(p), c->shape);
  } catch (const std::invalid_argument& e) {
    format_error(path + " does not fit circuit test-k" + std::to_string(c->k()) + ": " + e.what());
  }
  if (p.vk.ic.size() != c->shape.num_inputs)
    format_error(path + ": verifying key has " + std::to_string(p.vk.ic.size()) + " ic points, circuit test-k" +
                 std::to_string(c->k()) + " has " + std::to_string(c->shape.num_inputs) + " inputs");
  const double read_ms = ms_since(t0);

  const auto t1 = std::chrono::steady_clock::now();
  const auto w = cuzk::testcircuit::compute_witness(*c, cuzk::testcircuit::partition_start(seed, 0));
  const std::vector<fr> pub(w.inputs.begin() + 1, w.inputs.end());  // ONE excluded
  cuzk::backend::cpu::cpu_backend backend(*ex);
  g16::proof pr;
  g16::prove_timings st;
  {
    cuzk::base::os_rng rng;
    const fr r = fr::random(rng), s = fr::random(rng);
    pr = g16::prove(g16::parameters_view::of(p), c->shape, w.inputs, w.aux, r, s, backend, &st);
  }
  const double prove_ms = ms_since(t1);
  if (!a.flag("no-self-check")) {
    const auto res = g16::verify(g16::prepare_verifying_key(p.vk), pr, pub);
    if (res != g16::verify_result::valid)
      throw cli_error{kNegative, std::string("the new proof does not verify (") + g16::to_string(res) +
                                     "): the parameters do not belong to this circuit"};
  }
  const auto enc = g16::encode_proof(pr);
  write_bytes(a.required("proof"), enc);
  std::string text;
  for (const auto& x : pub) text += fr_hex(x) + "\n";
  write_text(a.required("public"), text);
  if (a.flag("time")) {
    std::fprintf(stderr, "cuzk prove: test-k%u seed %llu | read params %.1f ms | witness+prove %.1f ms | total %.1f ms\n",
                 c->k(), static_cast<unsigned long long>(seed), read_ms, prove_ms, ms_since(t0));
    std::fprintf(stderr,
                 "cuzk prove stages (ms): abc %.1f h %.1f msm_h %.1f msm_l %.1f msm_a %.1f msm_b_g1 %.1f msm_b_g2 %.1f "
                 "assembly %.1f prove %.1f\n",
                 1e3 * st.abc, 1e3 * st.h, 1e3 * st.msm_h, 1e3 * st.msm_l, 1e3 * st.msm_a, 1e3 * st.msm_b_g1,
                 1e3 * st.msm_b_g2, 1e3 * st.assembly, 1e3 * st.total);
  }
  return kOk;
}

int cmd_bp_verify(const args& a) {
  const std::string& vk_path = a.required("vk");
  g16::verifying_key vk;
  if (g16::read_error e = g16::read_verifying_key_file(vk_path, vk); !e.ok()) format_error(vk_path + ": " + e.message());
  if (vk.ic.empty()) format_error(vk_path + ": verifying key with no ic points");

  // A proof file of the wrong size is a format error (2); 192 bytes whose points do not decode
  // (off the curve or subgroup, identity, bad flags) make the proof invalid (1).
  const std::string& proof_path = a.required("proof");
  const std::string raw = read_text(proof_path);
  if (raw.size() != g16::proof_bytes)
    format_error(proof_path + ": " + std::to_string(raw.size()) + " bytes, a proof is " +
                 std::to_string(g16::proof_bytes));
  g16::proof p;
  if (g16::read_error e = g16::decode_proof(
          std::span<const std::uint8_t, g16::proof_bytes>(reinterpret_cast<const std::uint8_t*>(raw.data()),
                                                          g16::proof_bytes),
          p);
      !e.ok())
    throw cli_error{kNegative, "invalid proof: " + e.message()};
  const std::vector<fr> pub = read_public_inputs(a.required("public"));
  if (pub.size() + 1 != vk.ic.size())
    throw cli_error{kNegative, "invalid proof: " + std::to_string(pub.size()) +
                                   " public inputs, the verifying key takes " + std::to_string(vk.ic.size() - 1)};
  const auto res = g16::verify(g16::prepare_verifying_key(vk), p, pub);
  if (res != g16::verify_result::valid) throw cli_error{kNegative, std::string("invalid proof (") + g16::to_string(res) + ")"};
  std::printf("OK: proof is valid\n");
  return kOk;
}

// --- zkey new: a snarkjs key (and witness) for a built-in test circuit ---------------------------
// Random toxic waste (OS RNG, dropped after use); the witness is that of `prove --circuit` for the
// same seed (wires = inputs || aux: ONE, x_0, y, then the chain), so both provers can run on the
// same files.
int cmd_zkey_new(const args& a) {
  const auto t0 = std::chrono::steady_clock::now();
  auto ex = make_executor(a);
  const auto c = test_circuit(a);
  sj::zkey z;
  {
    cuzk::base::os_rng rng;
    z = sj::make_zkey(c->shape, g16::toxic_waste::random(rng), *ex);
  }
  const double setup_ms = ms_since(t0);
  check(sj::write_zkey_file(a.required("zkey"), z, *ex));
  if (auto wtns = a.get("wtns")) {
    const std::uint64_t seed = a.get("seed") ? parse_seed(*a.get("seed")) : 0;
    const auto w = cuzk::testcircuit::compute_witness(*c, cuzk::testcircuit::partition_start(seed, 0));
    std::vector<fr> all(w.inputs);
    all.insert(all.end(), w.aux.begin(), w.aux.end());
    check(sj::write_wtns_file(*wtns, all));
  } else if (a.get("seed")) {
    usage_error("--seed needs --wtns");
  }
  if (a.flag("time"))
    std::fprintf(stderr, "cuzk zkey new: test-k%u nVars %u domain 2^%u | key %.1f ms | total %.1f ms\n", c->k(),
                 z.n_vars, z.log_domain_size(), setup_ms, ms_since(t0));
  return kOk;
}

// --- circuit-info: counts, nonzeros, densities and shape hash of a registered circuit ----------
void print_circuit_info(std::string_view name, const cuzk::r1cs::r1cs_shape& s, bool json, bool last) {
  if (json) {
    std::printf("  {\"name\": \"%.*s\", \"constraints\": %zu, \"inputs\": %zu, \"aux\": %zu, "
                "\"nnz_a\": %zu, \"nnz_b\": %zu, \"nnz_c\": %zu, \"a_aux_density\": %zu, "
                "\"b_input_density\": %zu, \"b_aux_density\": %zu, \"shape_hash\": \"%s\"}%s\n",
                static_cast<int>(name.size()), name.data(), s.num_constraints, s.num_inputs, s.num_aux, s.a.nnz(),
                s.b.nnz(), s.c.nnz(), s.a_aux_density.count(), s.b_input_density.count(), s.b_aux_density.count(),
                s.hash_hex().c_str(), last ? "" : ",");
    return;
  }
  std::printf("%.*s\n  constraints %zu  inputs %zu (incl. ONE)  aux %zu\n  nnz A %zu  B %zu  C %zu\n"
              "  density a_aux %zu/%zu  b_input %zu/%zu  b_aux %zu/%zu\n  shape hash %s\n",
              static_cast<int>(name.size()), name.data(), s.num_constraints, s.num_inputs, s.num_aux, s.a.nnz(),
              s.b.nnz(), s.c.nnz(), s.a_aux_density.count(), s.num_aux, s.b_input_density.count(), s.num_inputs,
              s.b_aux_density.count(), s.num_aux, s.hash_hex().c_str());
}

int cmd_circuit_info(const args& a) {
  const std::string& name = a.positional.at(0);
  std::vector<const cuzk::gadgets::circuit_entry*> entries;
  if (name == "all") {
    for (const auto& e : cuzk::gadgets::circuit_registry()) entries.push_back(&e);
  } else if (const auto* e = cuzk::gadgets::find_circuit(name)) {
    entries.push_back(e);
  } else {
    std::string known;
    for (const auto& entry : cuzk::gadgets::circuit_registry()) {
      known += ' ';
      known.append(entry.name);
    }
    usage_error("unknown circuit '" + name + "'; known:" + known);
  }
  const bool json = a.flag("json");
  if (json) std::printf("[\n");
  for (std::size_t i = 0; i < entries.size(); ++i)
    print_circuit_info(entries[i]->name, entries[i]->record(), json, i + 1 == entries.size());
  if (json) std::printf("]\n");
  return kOk;
}

// --- the table ---------------------------------------------------------------------------------
int cmd_help(const args&);

const std::vector<command> kCommands = {
    {{"prove"}, {"zkey", "wtns", "proof", "public", "threads", "format"}, {"no-self-check", "time"}, 0,
     "cuzk prove --zkey Z --wtns W --proof proof.json --public public.json [--threads N] [--time] [--no-self-check]",
     "Groth16 proof from a snarkjs proving key and witness (snarkjs's proof.json / public.json)", cmd_prove,
     "snarkjs"},
    {{"verify"}, {"vkey", "proof", "public", "format"}, {}, 0,
     "cuzk verify --vkey verification_key.json --proof proof.json --public public.json",
     "verify a snarkjs-format Groth16 proof (exit 0 valid, 1 invalid, 2 error)", cmd_verify, "snarkjs"},
    {{"setup"}, {"circuit", "params", "vk", "threads", "format"}, {"time"}, 0,
     "cuzk setup --circuit test-k<K> --params OUT.params --vk OUT.vk [--threads N] [--time]",
     "bellperson-format Groth16 parameters for the built-in test circuit of 2^K domain (random toxic waste)",
     cmd_bp_setup, "bellperson"},
    {{"prove"}, {"circuit", "params", "seed", "proof", "public", "threads", "format"},
     {"no-self-check", "time", "no-subgroup-check"}, 0,
     "cuzk prove --circuit test-k<K> --params P.params --seed N --proof OUT.proof --public OUT.inputs "
     "[--threads N] [--time] [--no-self-check] [--no-subgroup-check]",
     "bellperson-format proof of the test circuit for seed N (x_0 = the seed's start): OUT.proof is the raw "
     "192-byte proof, OUT.inputs one public input per line (x_0, y) as 64 hex digits = the 32-byte "
     "little-endian Fr",
     cmd_bp_prove, "bellperson"},
    {{"verify"}, {"vk", "proof", "public", "format"}, {}, 0,
     "cuzk verify --vk V.vk --proof P.proof --public I.inputs",
     "verify a bellperson-format proof (files as written by prove --circuit; exit 0 valid, 1 invalid incl. "
     "proof points that do not decode or a wrong input count, 2 usage/I-O/format error incl. a proof file "
     "that is not 192 bytes or a malformed inputs line)",
     cmd_bp_verify, "bellperson"},
    {{"zkey", "info"}, {"threads"}, {}, 1, "cuzk zkey info FILE", "counts of a snarkjs .zkey (validates it fully)",
     cmd_zkey_info},
    {{"zkey", "export-vkey"}, {"zkey", "vkey", "threads"}, {}, 0,
     "cuzk zkey export-vkey --zkey Z --vkey verification_key.json", "snarkjs verification_key.json from a .zkey",
     cmd_zkey_export_vkey},
    {{"zkey", "new"}, {"circuit", "zkey", "wtns", "seed", "threads"}, {"time"}, 0,
     "cuzk zkey new --circuit test-k<K> --zkey OUT.zkey [--wtns OUT.wtns [--seed N]] [--threads N] [--time]",
     "snarkjs .zkey for the built-in test circuit of 2^K domain (random toxic waste); with --wtns its witness "
     "for seed N (default 0), the one prove --circuit uses",
     cmd_zkey_new},
    {{"params", "info"}, {}, {"no-digest"}, 1, "cuzk params info FILE [--no-digest]",
     "kind, counts, sizes and parameters.json digest of a bellperson .params / .vk", cmd_params_info},
    {{"circuit-info"}, {}, {"json"}, 1, "cuzk circuit-info NAME|all [--json]",
     "constraints, inputs, aux, nonzeros of A/B/C, densities and shape hash of a registered circuit "
     "(gadget instances such as sha256-compression, sha256-label-1248, num-to-bits-le)",
     cmd_circuit_info},
    {{"help"}, {}, {}, 0, "cuzk help", "this list", cmd_help},
};

int cmd_help(const args&) {
  std::printf("cuzk %s: offline Groth16 tool (BLS12-381)\n\n", CUZK_VERSION);
  for (const auto& c : kCommands) std::printf("  %s\n      %s\n", c.usage, c.summary);
  std::printf("\nprove/verify read snarkjs files (--zkey/--vkey) or bellperson files (--circuit/--vk); "
              "--format snarkjs|bellperson picks one explicitly\n");
  std::printf("exit status: 0 success, 1 negative answer (invalid proof), 2 usage/format/I-O error\n");
  return kOk;
}

// Rows sharing a command path (prove, verify: snarkjs and bellperson files) are told apart by
// --format FORMAT if given, else by the first row (table order) that knows every option given;
// failing that, the first row (whose parser then names the unknown option).
const command* select_row(const command& first, int argc, char** argv) {
  std::vector<const command*> rows;
  for (const auto& c : kCommands)
    if (c.path == first.path) rows.push_back(&c);
  if (rows.size() < 2) return &first;
  std::vector<std::string> names;
  std::optional<std::string> format;
  for (int i = 1 + static_cast<int>(first.path.size()); i < argc; ++i) {
    std::string_view s = argv[i];
    if (s.size() <= 2 || s.substr(0, 2) != "--") continue;
    std::string name(s.substr(2));
    std::optional<std::string> value;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
    } else if (i + 1 < argc) {
      value = argv[i + 1];
    }
    if (name == "format") {
      if (!value) usage_error("--format needs a value");
      format = *value;
    }
    names.push_back(name);
  }
  if (format) {
    for (const auto* c : rows)
      if (c->format == *format) return c;
    usage_error("--format: unknown format '" + *format + "' (snarkjs or bellperson)");
  }
  for (const auto* c : rows) {
    bool all = true;
    for (const auto& n : names) {
      bool known = false;
      for (auto o : c->value_options) known |= o == n;
      for (auto o : c->flag_options) known |= o == n;
      all &= known;
    }
    if (all) return c;
  }
  return rows.front();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc < 2 || std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h")
      return cmd_help(args{});
    if (std::string_view(argv[1]) == "--version") {
      std::printf("cuzk %s\n", CUZK_VERSION);
      return kOk;
    }
    // The longest command path that matches the leading words.
    const command* best = nullptr;
    for (const auto& c : kCommands) {
      if (static_cast<std::size_t>(argc - 1) < c.path.size()) continue;
      bool match = true;
      for (std::size_t i = 0; i < c.path.size(); ++i)
        if (c.path[i] != argv[1 + i]) match = false;
      if (match && (!best || c.path.size() > best->path.size())) best = &c;
    }
    if (!best) usage_error(std::string("unknown command '") + argv[1] + "' (see cuzk help)");
    best = select_row(*best, argc, argv);
    const args a = parse_args(*best, argc, argv, 1 + static_cast<int>(best->path.size()));
    return best->run(a);
  } catch (const cli_error& e) {
    std::fprintf(stderr, "cuzk: %s\n", e.message.c_str());
    return e.status;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "cuzk: out of memory\n");
    return kUsage;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuzk: %s\n", e.what());
    return kUsage;
  }
}
