// The `cuzk` tool's params info (bellperson .params / .vk), its bellperson-format setup/prove/verify of
// the built-in test circuit, and its exit codes, run as a process
// (CUZK_CLI is the binary's path), and `zkey new`. The snarkjs prove/verify paths are exercised
// end to end against snarkjs by tests/snarkjs/crosscheck.mjs and zkey_writer.mjs.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "ec/point.hpp"
#include "groth16/digest.hpp"
#include "groth16/file_io.hpp"
#include "groth16/params_writer.hpp"
#include "groth16/snarkjs_json.hpp"
#include "groth16/verifying_key.hpp"

namespace g16 = cuzk::groth16;
using cuzk::ff::fr;

namespace {

struct result {
  int status;
  std::string out;  // stdout and stderr together
};

result run(const std::string& args) {
  const std::string cmd = std::string(CUZK_CLI) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return {-1, ""};
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  const int st = pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

template <class Curve>
std::vector<cuzk::ec::affine_point<Curve>> points(std::mt19937_64& rng, std::size_t n) {
  std::vector<cuzk::ec::affine_point<Curve>> v(n);
  auto p = cuzk::ec::jacobian_point<Curve>::generator();
  for (auto& x : v) {
    p = cuzk::ec::scalar_mul(p, fr::random(rng));
    x = p.to_affine();
  }
  return v;
}

class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() / ("cuzk_cli_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string file(const std::string& n) const { return (path_ / n).string(); }

 private:
  std::filesystem::path path_;
};

g16::parameters toy_params() {
  std::mt19937_64 rng(3);
  g16::parameters p;
  auto g1 = points<cuzk::ec::g1_curve>(rng, 4);
  auto g2 = points<cuzk::ec::g2_curve>(rng, 3);
  p.vk = {g1[0], g1[1], g2[0], g2[1], g1[2], g2[2], points<cuzk::ec::g1_curve>(rng, 3)};
  p.h = points<cuzk::ec::g1_curve>(rng, 7);
  p.l = points<cuzk::ec::g1_curve>(rng, 5);
  p.a = points<cuzk::ec::g1_curve>(rng, 6);
  p.b_g1 = points<cuzk::ec::g1_curve>(rng, 4);
  p.b_g2 = points<cuzk::ec::g2_curve>(rng, 2);
  return p;
}

}  // namespace

TEST(CuzkCli, ParamsInfo) {
  TempDir dir;
  const auto p = toy_params();
  const std::string path = dir.file("toy.params");
  ASSERT_TRUE(g16::write_parameters_file(path, p).ok());
  g16::blake2b_512_digest d;
  ASSERT_TRUE(g16::blake2b_512_file(path, d).ok());

  const auto r = run("params info " + path);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("kind: params\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("size: " + std::to_string(g16::parameters_size(p)) + "\n"), std::string::npos) << r.out;
  for (const char* row : {"ic: 3 ", "h: 7 ", "l: 5 ", "a: 6 ", "b_g1: 4 ", "b_g2: 2 "})
    EXPECT_NE(r.out.find(row), std::string::npos) << row << "\n" << r.out;
  EXPECT_NE(r.out.find("digest: " + g16::parameters_json_digest(d) + "\n"), std::string::npos) << r.out;

  const std::string vk = dir.file("toy.vk");
  ASSERT_TRUE(g16::write_verifying_key_file(vk, p.vk).ok());
  const auto v = run("params info " + vk);
  EXPECT_EQ(v.status, 0) << v.out;
  EXPECT_NE(v.out.find("kind: vk\nsize: 1156\nic: 3\n"), std::string::npos) << v.out;

  // Truncated: one line naming the section, non-zero exit.
  const auto bytes = g16::encode_parameters(p);
  ASSERT_TRUE(g16::write_file(path, std::span(bytes).first(bytes.size() - 10)).ok());
  const auto t = run("params info " + path);
  EXPECT_EQ(t.status, 2);
  EXPECT_EQ(t.out.rfind("cuzk: ", 0), 0u) << t.out;
  EXPECT_EQ(t.out.find('\n'), t.out.size() - 1) << t.out;
  EXPECT_NE(t.out.find("b_g2"), std::string::npos) << t.out;

  const auto m = run("params info " + dir.file("missing.params"));
  EXPECT_EQ(m.status, 2) << m.out;
}

TEST(CuzkCli, UsageErrors) {
  EXPECT_EQ(run("").status, 0);  // help
  EXPECT_EQ(run("--version").status, 0);
  EXPECT_EQ(run("params").status, 2);
  EXPECT_EQ(run("params info").status, 2);
  EXPECT_EQ(run("params info a b").status, 2);
  EXPECT_EQ(run("verify --vkey").status, 2);
  EXPECT_EQ(run("verify --bogus x").status, 2);
  EXPECT_EQ(run("prove --threads many --zkey a --wtns b --proof c --public d").status, 2);
  const auto z = run(std::string("zkey info ") + CUZK_TESTDATA_DIR + "/snarkjs/chain.zkey");
  EXPECT_EQ(z.status, 0) << z.out;
  EXPECT_NE(z.out.find("domain_size: 512 (2^9)"), std::string::npos) << z.out;
  const auto w = run(std::string("zkey info ") + CUZK_TESTDATA_DIR + "/snarkjs/witness.wtns");
  EXPECT_EQ(w.status, 2) << w.out;
  EXPECT_NE(w.out.find("magic is \"wtns\", expected \"zkey\""), std::string::npos) << w.out;
}

namespace {

std::string slurp(const std::string& path) {
  std::string s;
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return s;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, f)) s.append(buf, n);
  std::fclose(f);
  return s;
}

void spill(const std::string& path, const std::string& bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr) << path;
  ASSERT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), f), bytes.size());
  std::fclose(f);
}

}  // namespace

// Bellperson-format setup -> prove -> verify of the built-in test circuit k=8, then tampering.
// Exit codes as documented in `cuzk help`: 0 valid, 1 invalid (including proof points that do not
// decode), 2 usage/format (a proof file that is not 192 bytes, a malformed inputs line).
TEST(CuzkCli, BellpersonTestCircuitRoundTrip) {
  TempDir dir;
  const std::string params = dir.file("k8.params"), vk = dir.file("k8.vk"), proof = dir.file("k8.proof"),
                    inputs = dir.file("k8.inputs");
  const auto s = run("setup --circuit test-k8 --params " + params + " --vk " + vk);
  ASSERT_EQ(s.status, 0) << s.out;
  const auto p = run("prove --circuit test-k8 --params " + params + " --seed 42 --proof " + proof + " --public " + inputs);
  ASSERT_EQ(p.status, 0) << p.out;
  const std::string proof_bytes = slurp(proof), input_text = slurp(inputs);
  ASSERT_EQ(proof_bytes.size(), 192u);
  ASSERT_EQ(input_text.size(), 2 * 65u) << input_text;  // x_0 and y: 64 hex digits + '\n' each

  const std::string verify_args = "verify --vk " + vk + " --proof ";
  const auto ok = run(verify_args + proof + " --public " + inputs);
  EXPECT_EQ(ok.status, 0) << ok.out;
  EXPECT_EQ(run("verify --format bellperson --vk " + vk + " --proof " + proof + " --public " + inputs).status, 0);

  // One flipped proof byte (in B's x coordinate): the point no longer decodes or the pairing
  // check fails; either way the proof is invalid.
  for (std::size_t at : {std::size_t{20}, std::size_t{100}, std::size_t{170}}) {
    std::string bad = proof_bytes;
    bad[at] = static_cast<char>(bad[at] ^ 0x01);
    const std::string bad_path = dir.file("bad.proof");
    spill(bad_path, bad);
    const auto r = run(verify_args + bad_path + " --public " + inputs);
    EXPECT_EQ(r.status, 1) << "byte " << at << ": " << r.out;
    EXPECT_EQ(r.out.rfind("cuzk: invalid proof", 0), 0u) << r.out;
    EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << r.out;
  }

  // A changed public input (y's lowest nibble): valid encoding, wrong statement.
  {
    std::string changed = input_text;
    char& c = changed[65];  // first hex digit of y (low byte's high nibble)
    c = c == '0' ? '1' : '0';
    const std::string path = dir.file("changed.inputs");
    spill(path, changed);
    const auto r = run(verify_args + proof + " --public " + path);
    EXPECT_EQ(r.status, 1) << r.out;
    // Another seed's (valid) inputs do not match this proof either.
    const auto q = run("prove --circuit test-k8 --params " + params + " --seed 43 --proof " + dir.file("o.proof") +
                       " --public " + path);
    ASSERT_EQ(q.status, 0) << q.out;
    EXPECT_EQ(run(verify_args + proof + " --public " + path).status, 1);
    // Only one input: wrong count.
    spill(path, input_text.substr(0, 65));
    EXPECT_EQ(run(verify_args + proof + " --public " + path).status, 1);
    // Malformed lines and a truncated proof file: format errors.
    spill(path, "xyz\n");
    EXPECT_EQ(run(verify_args + proof + " --public " + path).status, 2);
    spill(dir.file("short.proof"), proof_bytes.substr(0, 191));
    EXPECT_EQ(run(verify_args + dir.file("short.proof") + " --public " + inputs).status, 2);
  }

  // Usage: unknown circuit, K out of range, params of another circuit, missing options.
  EXPECT_EQ(run("setup --circuit mimc --params " + params + " --vk " + vk).status, 2);
  EXPECT_EQ(run("setup --circuit test-k99 --params " + params + " --vk " + vk).status, 2);
  EXPECT_EQ(run("prove --circuit test-k9 --params " + params + " --seed 1 --proof " + proof + " --public " + inputs)
                .status,
            2);
  EXPECT_EQ(run("prove --circuit test-k8 --params " + params + " --seed x --proof " + proof + " --public " + inputs)
                .status,
            2);
  EXPECT_EQ(run("verify --vk " + vk + " --proof " + proof).status, 2);
  EXPECT_EQ(run("verify --format nope --vk " + vk).status, 2);
  // The snarkjs rows still parse their own options (a .vk is not verification_key.json).
  EXPECT_EQ(run("verify --vkey " + vk + " --proof " + proof + " --public " + inputs).status, 2);
}

// `cuzk zkey new`: a snarkjs key and witness for the test circuit that `cuzk prove` (snarkjs path)
// proves and `cuzk verify` accepts with the exported vkey; the witness is the one of
// `prove --circuit` for the same seed (same public inputs); usage errors exit 2. snarkjs itself
// checks these files in tests/snarkjs/zkey_writer.mjs.
TEST(CuzkCli, ZkeyNewForTestCircuit) {
  TempDir d;
  const std::string z = d.file("k.zkey"), w = d.file("w.wtns");
  result r = run("zkey new --circuit test-k6 --zkey " + z + " --wtns " + w + " --seed 5");
  ASSERT_EQ(r.status, 0) << r.out;
  r = run("zkey info " + z);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("domain_size: 64 (2^6)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("n_public: 2"), std::string::npos) << r.out;
  ASSERT_EQ(run("zkey export-vkey --zkey " + z + " --vkey " + d.file("vk.json")).status, 0);
  r = run("prove --zkey " + z + " --wtns " + w + " --proof " + d.file("p.json") + " --public " + d.file("pub.json"));
  ASSERT_EQ(r.status, 0) << r.out;
  r = run("verify --vkey " + d.file("vk.json") + " --proof " + d.file("p.json") + " --public " + d.file("pub.json"));
  EXPECT_EQ(r.status, 0) << r.out;

  // Same public inputs as the bellperson-path proof for seed 5: x_0 and y.
  ASSERT_EQ(run("setup --circuit test-k6 --params " + d.file("k.params") + " --vk " + d.file("k.vk")).status, 0);
  ASSERT_EQ(run("prove --circuit test-k6 --params " + d.file("k.params") + " --seed 5 --proof " + d.file("bp.proof") +
                " --public " + d.file("bp.inputs")).status, 0);
  auto slurp = [](const std::string& path) {
    std::ifstream f(path);
    return std::string(std::istreambuf_iterator<char>(f), {});
  };
  const std::string pub_json = slurp(d.file("pub.json")), bp_inputs = slurp(d.file("bp.inputs"));
  // bp.inputs: two lines of 64 hex digits (LE); pub.json: two decimal strings. Compare x_0 as
  // integers through its hex form.
  std::vector<std::string> hex;
  for (std::size_t pos = 0; pos + 64 <= bp_inputs.size(); pos += 65) hex.push_back(bp_inputs.substr(pos, 64));
  ASSERT_EQ(hex.size(), 2u);
  for (const std::string& h : hex) {
    uint8_t le[32];
    for (int i = 0; i < 32; ++i) le[i] = static_cast<uint8_t>(std::stoi(h.substr(2 * i, 2), nullptr, 16));
    fr x;
    ASSERT_TRUE(fr::from_bytes_le(le, x));
    EXPECT_NE(pub_json.find('"' + cuzk::groth16::snarkjs::to_decimal(x) + '"'), std::string::npos) << pub_json;
  }

  r = run("zkey new --circuit test-k3 --zkey " + z);
  EXPECT_EQ(r.status, 2) << r.out;
  r = run("zkey new --circuit test-k6 --zkey " + z + " --seed 1");
  EXPECT_EQ(r.status, 2) << r.out;
  r = run("zkey new --circuit test-k6");
  EXPECT_EQ(r.status, 2) << r.out;
}
