// Fuzz target: what the SRS manager reads from the parameter cache directory. The first byte picks
// the decoder:
//   0: parameters.json (server::parse_param_manifest)
//   1: the verified-digests record (engine::parse_verified_digests); a parse must format and
//      parse back to itself
//   2: bellperson .params (groth16::read_parameters, subgroup checks skipped as for a verified file)
//   3: bellperson .vk (groth16::decode_verifying_key) and 192-byte proofs (groth16::decode_proofs)
// Properties: never crashes, never reads out of bounds (ASan in the fuzz build), no unbounded
// allocation from a length field.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string_view>
#include <vector>

#include "engine/verified_digests.hpp"
#include "groth16/params.hpp"
#include "groth16/params_reader.hpp"
#include "groth16/proof.hpp"
#include "groth16/verifying_key.hpp"
#include "server/param_manifest.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::span<const std::uint8_t> body(data + 1, size - 1);
  const std::string_view text(reinterpret_cast<const char*>(body.data()), body.size());
  switch (data[0] % 4) {
    case 0: (void)cuzk::server::parse_param_manifest(text); break;
    case 1: {
      const auto m = cuzk::engine::parse_verified_digests(text);
      if (cuzk::engine::parse_verified_digests(cuzk::engine::format_verified_digests(m)).size() != m.size()) {
        std::abort();
      }
      break;
    }
    case 2: {
      cuzk::groth16::parameters p;
      (void)cuzk::groth16::read_parameters(body, p, cuzk::ec::subgroup_check::skip);
      break;
    }
    case 3: {
      cuzk::groth16::verifying_key vk;
      (void)cuzk::groth16::decode_verifying_key(body, vk);
      std::vector<cuzk::groth16::proof> proofs;
      (void)cuzk::groth16::decode_proofs(body, proofs);
      break;
    }
  }
  return 0;
}
