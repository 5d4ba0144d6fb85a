// parameters.json (server/param_manifest.hpp) read from rust-fil-proofs' own manifest in the shared
// fixtures, and the SRS catalog's built-in file names and digests checked against it: the
// independent source for every Filecoin circuit id the daemon serves.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "engine/srs_catalog.hpp"
#include "server/param_manifest.hpp"

namespace cuzk::server {
namespace {

TEST(param_manifest, rust_fil_proofs_manifest_agrees_with_the_srs_catalog) {
  const std::string path = std::string(CUZK_FIXTURES_DIR) + "/filecoin/rust-fil-proofs/parameters.json";
  std::ifstream in(path);
  if (!in) GTEST_SKIP() << "fixtures not present: " << path;
  std::stringstream ss;
  ss << in.rdbuf();
  auto m = parse_param_manifest(ss.str());
  ASSERT_TRUE(m.has_value()) << m.error().message;
  EXPECT_GE(m->size(), 40u);  // .params and .vk of 2KiB..64GiB, four circuits each, and more
  for (const auto& f : engine::filecoin_srs_files()) {
    const auto it = m->find(std::string(f.file_name));
    ASSERT_NE(it, m->end()) << f.circuit_id << ": " << f.file_name;
    EXPECT_EQ(it->second, f.digest) << f.circuit_id;
  }
}

TEST(param_manifest, strict_syntax_lenient_content) {
  auto ok = parse_param_manifest(R"( {"a.params": {"cid": "Qm", "digest": "ABCDEF", "sector_size": 2048},
                                      "b.vk": {"digest": 7}, "c": [1, {"x": null}], "d.params": {}} )");
  ASSERT_TRUE(ok.has_value()) << ok.error().message;
  EXPECT_EQ(ok->size(), 1u);
  EXPECT_EQ(ok->at("a.params"), "abcdef");
  for (const char* bad : {"", "[]", "{", "{\"a\": {\"digest\": \"ab\"}", "{\"a\" {}}", "{\"a\": {\"digest\": \"ab}}",
                          "{} x", "{\"a\": tru}", "{\"a\": {\"b\": \"\\q\"}}"}) {
    auto r = parse_param_manifest(bad);
    EXPECT_FALSE(r.has_value()) << bad;
    if (!r) {
      EXPECT_EQ(r.error().message.rfind("parameters.json: ", 0), 0u) << r.error().message;
      EXPECT_GT(r.error().message.size(), 20u) << r.error().message;
    }
  }
  std::string deep(100, '[');
  EXPECT_FALSE(parse_param_manifest("{\"a\": " + deep).has_value());
}

}  // namespace
}  // namespace cuzk::server
