#include "groth16/proof.hpp"

#include "groth16/wire.hpp"

namespace cuzk::groth16 {

void encode_proof(const proof& p, std::span<uint8_t, proof_bytes> out) {
  ec::encode_g1_compressed(p.a, out.subspan<proof_offset_a, ec::g1_compressed_bytes>());
  ec::encode_g2_compressed(p.b, out.subspan<proof_offset_b, ec::g2_compressed_bytes>());
  ec::encode_g1_compressed(p.c, out.subspan<proof_offset_c, ec::g1_compressed_bytes>());
}

std::array<uint8_t, proof_bytes> encode_proof(const proof& p) {
  std::array<uint8_t, proof_bytes> out;
  encode_proof(p, out);
  return out;
}

void append_proofs(std::span<const proof> proofs, std::vector<uint8_t>& out) {
  std::size_t at = out.size();
  out.resize(at + proofs.size() * proof_bytes);
  for (const proof& p : proofs) {
    encode_proof(p, std::span<uint8_t, proof_bytes>(out.data() + at, proof_bytes));
    at += proof_bytes;
  }
}

namespace {

// Decodes the proof at bytes[base..base+192) (bounds already checked by the callers).
read_error decode_at(std::span<const uint8_t> bytes, uint64_t base, uint64_t index, proof& out,
                     ec::subgroup_check check) {
  proof p;
  read_error e = wire::decode_point<g1_affine, true>(bytes, base + proof_offset_a, section::proof_a, index, p.a, check);
  if (!e.ok()) return e;
  e = wire::decode_point<g2_affine, true>(bytes, base + proof_offset_b, section::proof_b, index, p.b, check);
  if (!e.ok()) return e;
  e = wire::decode_point<g1_affine, true>(bytes, base + proof_offset_c, section::proof_c, index, p.c, check);
  if (!e.ok()) return e;
  out = p;
  return {};
}

}  // namespace

read_error decode_proof(std::span<const uint8_t, proof_bytes> in, proof& out, ec::subgroup_check check) {
  return decode_at(std::span<const uint8_t>(in), 0, 0, out, check);
}

read_error decode_proofs(std::span<const uint8_t> in, std::vector<proof>& out, ec::subgroup_check check) {
  if (in.empty() || in.size() % proof_bytes != 0) {
    read_error e;
    e.code = read_errc::wrong_size;
    e.section = section::proof_a;
    e.count = in.size();
    return e;
  }
  std::vector<proof> proofs(in.size() / proof_bytes);
  for (std::size_t i = 0; i < proofs.size(); ++i) {
    read_error e = decode_at(in, i * proof_bytes, i, proofs[i], check);
    if (!e.ok()) return e;
  }
  out = std::move(proofs);
  return {};
}

}  // namespace cuzk::groth16
