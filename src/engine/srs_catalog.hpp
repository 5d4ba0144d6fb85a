// Filecoin's Groth16 parameter files by circuit id ("porep-32g", ... as the Rust cuzk names them):
// the file name rust-fil-proofs gives each (v28-<circuit>-<shape>-<identifier hash>.params, as in
// its parameters.json) and the digest parameters.json lists for it (first 32 hex digits of the
// file's BLAKE2b-512). A parameters.json found by the daemon overrides these digests.
//
// (The table belongs to a filecoin/ layer once one exists; until then the engine holds it because
// the SRS manager is its only user.)
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/srs_manager.hpp"

namespace cuzk::engine {

struct filecoin_srs_file {
  std::string_view circuit_id;  // "porep-32g"
  std::string_view file_name;   // "v28-stacked-proof-of-replication-...params"
  std::string_view digest;      // parameters.json "digest" of that file
};

// The 32 GiB and 64 GiB PoRep, WindowPoSt, WinningPoSt and SnapDeals parameter files.
const std::vector<filecoin_srs_file>& filecoin_srs_files();
std::vector<std::string> filecoin_circuit_ids();

// Resolves Filecoin circuit ids to sources in `dir`. `digests` (file name -> digest, from a
// parameters.json) overrides the built-in digests. The decoder reads bellperson .params into
// groth16::parameters (subgroup checks skipped when the digest matched, as bellperson's loader).
srs_resolver filecoin_srs_resolver(std::string dir, std::map<std::string, std::string> digests = {});

// Host bytes of groth16::parameters decoded from a .params file of `file_bytes` bytes (every G1
// point is 96 bytes in the file and sizeof(g1_affine) in memory, every G2 point 192 / sizeof(g2_affine)).
std::uint64_t decoded_parameters_bytes(std::uint64_t file_bytes);

}  // namespace cuzk::engine
