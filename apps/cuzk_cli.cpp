// cuzk: the offline command-line tool.
//
//   cuzk prove  --zkey Z --wtns W --proof proof.json --public public.json   (snarkjs keys)
//   cuzk verify --vkey verification_key.json --proof proof.json --public public.json
//   cuzk zkey info FILE
//   cuzk zkey export-vkey --zkey Z --vkey verification_key.json
//   cuzk params info FILE                                                  (bellperson .params/.vk)
//
// Exit status: 0 success (verify: the proof is valid); 1 the operation ran and the answer is
// negative (verify: invalid proof; prove: the new proof failed its self-check, e.g. a witness
// that does not satisfy the circuit); 2 usage, I/O or format errors. Every error is one line on
// stderr starting with "cuzk: ".
//
// Commands live in one table (kCommands): a command is a word path ("params", "info"), its
// option names, a usage line and a handler. Adding the bellperson-format setup/prove/verify for
// the sample circuits is adding rows (e.g. {"bellperson", "prove"}) and handlers.

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/executor.hpp"
#include "base/os_rng.hpp"
#include "ec/subgroup.hpp"
#include "groth16/digest.hpp"
#include "groth16/file_io.hpp"
#include "groth16/params_reader.hpp"
#include "groth16/snarkjs_format.hpp"
#include "groth16/snarkjs_json.hpp"
#include "groth16/snarkjs_prover.hpp"
#include "groth16/verifier.hpp"
#include "groth16/verifying_key.hpp"

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

// --- the table ---------------------------------------------------------------------------------
int cmd_help(const args&);

const std::vector<command> kCommands = {
    {{"prove"}, {"zkey", "wtns", "proof", "public", "threads"}, {"no-self-check", "time"}, 0,
     "cuzk prove --zkey Z --wtns W --proof proof.json --public public.json [--threads N] [--time] [--no-self-check]",
     "Groth16 proof from a snarkjs proving key and witness (snarkjs's proof.json / public.json)", cmd_prove},
    {{"verify"}, {"vkey", "proof", "public"}, {}, 0,
     "cuzk verify --vkey verification_key.json --proof proof.json --public public.json",
     "verify a snarkjs-format Groth16 proof (exit 0 valid, 1 invalid, 2 error)", cmd_verify},
    {{"zkey", "info"}, {"threads"}, {}, 1, "cuzk zkey info FILE", "counts of a snarkjs .zkey (validates it fully)",
     cmd_zkey_info},
    {{"zkey", "export-vkey"}, {"zkey", "vkey", "threads"}, {}, 0,
     "cuzk zkey export-vkey --zkey Z --vkey verification_key.json", "snarkjs verification_key.json from a .zkey",
     cmd_zkey_export_vkey},
    {{"params", "info"}, {}, {"no-digest"}, 1, "cuzk params info FILE [--no-digest]",
     "kind, counts, sizes and parameters.json digest of a bellperson .params / .vk", cmd_params_info},
    {{"help"}, {}, {}, 0, "cuzk help", "this list", cmd_help},
};

int cmd_help(const args&) {
  std::printf("cuzk %s: offline Groth16 tool (BLS12-381)\n\n", CUZK_VERSION);
  for (const auto& c : kCommands) std::printf("  %s\n      %s\n", c.usage, c.summary);
  std::printf("\nexit status: 0 success, 1 negative answer (invalid proof), 2 usage/format/I-O error\n");
  return kOk;
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
