// The committed snarkjs fixtures (testdata/snarkjs/README.md) as bytes or text, for the snarkjs
// unit tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace cuzk::test::snarkjs_fixtures {

inline const std::string kDir = std::string(CUZK_TESTDATA_DIR) + "/snarkjs/";

inline std::vector<uint8_t> slurp(const std::string& name) {
  std::ifstream f(kDir + name, std::ios::binary);
  EXPECT_TRUE(f) << "missing fixture " << name;
  return {std::istreambuf_iterator<char>(f), {}};
}

inline std::string text(const std::string& name) {
  const auto b = slurp(name);
  return {b.begin(), b.end()};
}

}  // namespace cuzk::test::snarkjs_fixtures
