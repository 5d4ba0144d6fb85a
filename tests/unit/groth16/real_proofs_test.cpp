// Real Filecoin PoRep proofs (rust-fil-proofs' seal regression records, made and verified by
// bellperson): every one decodes with full checks and re-encodes to the same bytes. Verifying
// them needs the published .vk files, which are not in the fixtures.
#include <gtest/gtest.h>

#include <sstream>

#include "groth16/proof.hpp"
#include "unit/groth16/test_util.hpp"

namespace cuzk::groth16 {
namespace {

void check_records(const char* name, std::size_t expect_proofs) {
  std::istringstream lines(test::read_text_file(std::string(CUZK_FIXTURES_DIR "/filecoin/rust-fil-proofs/") + name));
  std::string line;
  std::size_t records = 0, proofs = 0, aggregates = 0;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    const test::json r = test::json::parse(line);
    std::vector<uint8_t> bytes;
    for (const test::json& b : r["proof"].items) bytes.push_back(static_cast<uint8_t>(std::stoul(b.s)));
    bool aggregate = false;
    for (const test::json& f : r["porep_config"]["api_features"].items) aggregate |= f.s == "NonInteractivePoRep";
    ++records;
    if (aggregate) {  // a SnarkPack aggregate, another format
      ++aggregates;
      continue;
    }
    const uint64_t partitions = std::stoull(r["porep_config"]["partitions"].s);
    ASSERT_EQ(bytes.size(), partitions * proof_bytes) << name << " record " << records;
    std::vector<proof> ps;
    read_error e = decode_proofs(bytes, ps);
    ASSERT_TRUE(e.ok()) << name << " record " << records << ": " << e.message();
    std::vector<uint8_t> again;
    append_proofs(ps, again);
    ASSERT_EQ(again, bytes) << name << " record " << records;
    proofs += ps.size();
  }
  std::printf("[ records  ] %s: %zu records, %zu proofs decoded, %zu aggregates skipped\n", name, records, proofs,
              aggregates);
  EXPECT_EQ(proofs, expect_proofs);
}

// v16: 442 single-partition records + 6 ten-partition ones.
TEST(Groth16RealProofs, RegressionRecordsV16) { check_records("seal_regression_records-v16.json", 442 + 60); }
// v18: 88 single-partition records + 1 ten-partition one (24 NI aggregates skipped).
TEST(Groth16RealProofs, RegressionRecordsV18) { check_records("seal_regression_records-v18.json", 88 + 10); }

}  // namespace
}  // namespace cuzk::groth16
