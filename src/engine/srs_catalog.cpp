#include "engine/srs_catalog.hpp"

#include <algorithm>
#include <filesystem>
#include <memory>

#include "groth16/params.hpp"
#include "groth16/params_reader.hpp"

namespace cuzk::engine {

const std::vector<filecoin_srs_file>& filecoin_srs_files() {
  // Names and digests as in rust-fil-proofs' parameters.json (filecoin.md §1.7); the identifier
  // hashes distinguish WindowPoSt (0377ded6 / 2627e400) from WinningPoSt (559e581f / b6209862).
  static const std::vector<filecoin_srs_file> files = {
      {"porep-32g",
       "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
       "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.params",
       "6a388072a518cf46ebd661f5cc46900a"},
      {"porep-64g",
       "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-"
       "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2.params",
       "1801f8a6e1b00bceb00cc27314bb5ce3"},
      {"wpost-32g",
       "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
       "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc.params",
       "2cf49eb26f1fee94c85781a390ddb4c8"},
      {"wpost-64g",
       "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-"
       "2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def.params",
       "3810b7780ac0e299b22ae70f1f94c9bc"},
      {"winning-32g",
       "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
       "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e.params",
       "d84f79a16fe40e9e25a36e2107bb1ba0"},
      {"winning-64g",
       "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-"
       "b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c.params",
       "2170a91ad5bae22ea61f2ea766630322"},
      {"snap-32g",
       "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-"
       "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18.params",
       "1b3cfd761a961543f9eb273e435a06a2"},
      {"snap-64g",
       "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-2-"
       "102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7.params",
       "1a392e7b759fb18e036c7559b5ece816"},
  };
  return files;
}

std::vector<std::string> filecoin_circuit_ids() {
  std::vector<std::string> out;
  for (const auto& f : filecoin_srs_files()) out.emplace_back(f.circuit_id);
  return out;
}

std::uint64_t decoded_parameters_bytes(std::uint64_t file_bytes) {
  // Scale by the larger of the two in-memory/in-file ratios (G1 and G2), rounding up.
  const std::uint64_t g1 = sizeof(groth16::g1_affine), g2 = sizeof(groth16::g2_affine);
  const std::uint64_t scaled = std::max((file_bytes / 96 + 1) * g1, (file_bytes / 192 + 1) * g2);
  return scaled + (64u << 10);  // vectors' slack and the verifying key
}

srs_resolver filecoin_srs_resolver(std::string dir, std::map<std::string, std::string> digests) {
  return [dir = std::move(dir), digests = std::move(digests)](std::string_view id) -> std::optional<srs_source> {
    const auto& files = filecoin_srs_files();
    auto it = std::find_if(files.begin(), files.end(), [&](const auto& f) { return f.circuit_id == id; });
    if (it == files.end()) return std::nullopt;
    srs_source s;
    s.path = (std::filesystem::path(dir) / it->file_name).string();
    const auto d = digests.find(std::string(it->file_name));
    s.digest = d != digests.end() ? d->second : std::string(it->digest);
    s.hot_bytes = decoded_parameters_bytes;
    s.decode = [](std::span<const std::uint8_t> file, bool verified, std::stop_token) -> result<srs_payload> {
      auto p = std::make_shared<groth16::parameters>();
      if (auto e = groth16::read_parameters(file, *p, verified ? ec::subgroup_check::skip : ec::subgroup_check::verify);
          !e.ok()) {
        return error{errc::data_loss, e.message()};
      }
      const std::uint64_t bytes = sizeof(groth16::g1_affine) * (p->h.size() + p->l.size() + p->a.size() +
                                                                p->b_g1.size() + p->vk.ic.size()) +
                                  sizeof(groth16::g2_affine) * p->b_g2.size() + sizeof(groth16::parameters);
      return srs_payload{std::shared_ptr<const void>(std::move(p)), bytes};
    };
    return s;
  };
}

}  // namespace cuzk::engine
