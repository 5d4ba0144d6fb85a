// Native SHA-256 (FIPS 180-4) and Filecoin's 254-bit truncated digest, the twin of the
// sha256 circuit gadget. Two compression kernels with one contract: sha256_compress_portable
// (plain C++, the oracle) and sha256_compress_shani (x86 SHA extensions, compiled for the
// "sha,sse4.1" target only inside its function, so the binary still runs on CPUs without them;
// callers must check has_sha_ni() first). sha256_compress() picks the fastest available one.
//
// State words are the FIPS H0..H7 values (native uint32_t); blocks are 64 raw message bytes
// (words read big-endian, as FIPS specifies).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace cuzk::gadgets::native {

using sha256_state = std::array<uint32_t, 8>;
using sha256_digest = std::array<uint8_t, 32>;

// FIPS 180-4 §5.3.3: first 32 bits of the fractional parts of the square roots of the first
// eight primes.
inline constexpr sha256_state sha256_iv = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                           0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};

// FIPS 180-4 §4.2.2: first 32 bits of the fractional parts of the cube roots of the first 64
// primes.
extern const uint32_t sha256_k[64];

// True when the CPU has the SHA extensions (CPUID.7.0:EBX[29]) and SSE4.1 (CPUID.1:ECX[19]).
// Computed once; always false off x86-64.
bool has_sha_ni();

// Compress nblocks consecutive 64-byte blocks into state (64 rounds each).
void sha256_compress_portable(uint32_t state[8], const uint8_t* blocks, std::size_t nblocks);
// Same result; precondition: has_sha_ni(). (Off x86-64 it forwards to the portable kernel.)
void sha256_compress_shani(uint32_t state[8], const uint8_t* blocks, std::size_t nblocks);
// The SHA-NI kernel when available, else the portable one.
void sha256_compress(uint32_t state[8], const uint8_t* blocks, std::size_t nblocks);

// Which kernel an incremental hasher uses (tests force one to compare them).
enum class sha256_kernel : uint8_t { automatic, portable, sha_ni };

// Incremental SHA-256 with FIPS padding (0x80, zeros, 64-bit big-endian bit length).
class sha256_hasher {
 public:
  explicit sha256_hasher(sha256_kernel kernel = sha256_kernel::automatic);
  void update(std::span<const uint8_t> data);
  void update(const void* data, std::size_t n) {
    update(std::span<const uint8_t>(static_cast<const uint8_t*>(data), n));
  }
  // Pads, compresses the last block(s) and returns the digest (H0..H7 big-endian). The hasher
  // is left finished; call reset() before reusing it.
  sha256_digest finalize();
  void reset();

 private:
  void compress(const uint8_t* blocks, std::size_t nblocks);
  sha256_state state_;
  std::array<uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
  sha256_kernel kernel_;
};

// One-shot SHA-256.
sha256_digest sha256(std::span<const uint8_t> data);

// Filecoin's Fr-safe digest (filecoin-hashers Sha256Domain::trim_to_fr32): SHA-256 with the top
// two bits of the last byte cleared (digest[31] &= 0x3f), so that the 32 bytes read
// little-endian are a 254-bit integer < r.
sha256_digest sha256_trunc254(std::span<const uint8_t> data);

// Filecoin's binary Merkle node (Sha256Function::hash2 / Algorithm::node):
// sha256_trunc254(left || right). Two compressions (the data block and the constant padding
// block of a 64-byte message).
sha256_digest sha256_trunc254_node(const uint8_t left[32], const uint8_t right[32]);

// Serialises a state as the 32-byte digest (big-endian words).
sha256_digest sha256_state_to_bytes(const sha256_state& s);

}  // namespace cuzk::gadgets::native
