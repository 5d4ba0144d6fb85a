// BLAKE2b-512 of buffers and files, and the parameters.json digest form.
#include <gtest/gtest.h>

#include <cerrno>

#include "groth16/digest.hpp"
#include "groth16/file_io.hpp"
#include "unit/groth16/test_util.hpp"

namespace cuzk::groth16 {
namespace {

// RFC 7693 appendix A: BLAKE2b-512("abc"); also `printf abc | b2sum`.
constexpr const char* abc_digest =
    "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
    "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923";
// `b2sum` (GNU coreutils 9.1) of an empty file.
constexpr const char* empty_digest =
    "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419"
    "d25e1031afee585313896444934eb04b903a685b1448b755d56f701afe9be2ce";
// `b2sum` of the 5 MiB + 123 byte file with byte i = ((131 i + 7) >> 3) mod 256 (made with
// python3 and hashed with coreutils b2sum): longer than one 4 MiB read block, not a multiple.
constexpr const char* pattern_digest =
    "469240d3c12c3315ede1d74d3ac09235d677e181361cf99b8c0255918eb4c8bc"
    "261750afe3b52853d5b8703e82744fa6d1ea09d6c0a53cdbe44328b498ed0f6b";

std::vector<uint8_t> pattern() {
  std::vector<uint8_t> b(5 * 1024 * 1024 + 123);
  for (uint64_t i = 0; i < b.size(); ++i) b[i] = static_cast<uint8_t>((i * 131 + 7) >> 3);
  return b;
}

TEST(Groth16Digest, Buffers) {
  const uint8_t abc[] = {'a', 'b', 'c'};
  EXPECT_EQ(to_hex(blake2b_512(abc)), abc_digest);
  EXPECT_EQ(to_hex(blake2b_512({})), empty_digest);
  EXPECT_EQ(to_hex(blake2b_512(pattern())), pattern_digest);
}

TEST(Groth16Digest, FilesAndParametersJsonForm) {
  test::temp_path tmp("digest.bin");
  blake2b_512_digest d;
  ASSERT_TRUE(write_file(tmp.path, pattern()).ok());
  ASSERT_TRUE(blake2b_512_file(tmp.path, d).ok());
  EXPECT_EQ(to_hex(d), pattern_digest);
  // parameters.json keeps the first 32 hex characters.
  EXPECT_EQ(parameters_json_digest(d), std::string(pattern_digest).substr(0, 32));

  ASSERT_TRUE(write_file(tmp.path, {}).ok());
  ASSERT_TRUE(blake2b_512_file(tmp.path, d).ok());
  EXPECT_EQ(to_hex(d), empty_digest);

  read_error e = blake2b_512_file("/nonexistent/cuzk/file.params", d);
  EXPECT_EQ(e.code, read_errc::io);
  EXPECT_EQ(e.sys_errno, ENOENT);
}

}  // namespace
}  // namespace cuzk::groth16
