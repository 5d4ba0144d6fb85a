// Witness packing for the PCIe copy (witness_packing.hpp has the format).
#include "backend/cuda/witness_packing.hpp"

#include <bit>
#include <cstring>

namespace cuzk::cuda {

namespace {

// Blocks per parallel task: 256 blocks = 64K elements = 2 MB read.
constexpr std::size_t blocks_per_task = 256;

// Branch-free: zero and one are about equally likely and interleaved at random in a PoRep
// witness, so a branch on them mispredicts about half the time (8.5 ns per value against ~1).
uint32_t code_of(const ff::fr& x, const ff::fr& one) {
  const uint64_t* a = x.v.w;
  const uint64_t* o = one.v.w;
  const uint32_t zero = (a[0] | a[1] | a[2] | a[3]) == 0;
  const uint32_t is_one = ((a[0] ^ o[0]) | (a[1] ^ o[1]) | (a[2] ^ o[2]) | (a[3] ^ o[3])) == 0;
  static_assert(packed_zero == 0 && packed_one == 1 && packed_other == 2);
  return 2 - 2 * zero - is_one;  // zero and one exclude each other
}

}  // namespace

std::size_t pack_witness_chunk(std::span<const ff::fr> src, std::byte* dst, base::executor& ex) {
  const packed_chunk_layout l = packed_chunk_layout::of(src.size());
  auto* codes = reinterpret_cast<uint32_t*>(dst);
  auto* blocks = codes + l.words;
  auto* others = reinterpret_cast<ff::fr*>(dst + l.others_offset);
  const ff::fr one = ff::fr::one();
  const std::size_t n = src.size();
  const auto block_end = [&](std::size_t b) { return std::min(l.words, (b + 1) * packed_words_per_block); };
  // Pass 1: codes, and each block's count of other values (in blocks[b] for now).
  ex.parallel_for(l.blocks, blocks_per_task, [&](std::size_t b0, std::size_t b1) {
    for (std::size_t b = b0; b < b1; ++b) {
      uint32_t count = 0;
      for (std::size_t w = b * packed_words_per_block; w < block_end(b); ++w) {
        uint32_t word = 0;
        const std::size_t e_end = std::min(n, (w + 1) * packed_per_word);
        for (std::size_t i = w * packed_per_word, k = 0; i < e_end; ++i, k += 2) word |= code_of(src[i], one) << k;
        codes[w] = word;
        count += static_cast<uint32_t>(std::popcount(word & packed_other_bits));
      }
      blocks[b] = count;
    }
  });
  // Counts -> offsets (exclusive prefix; a chunk holds below 2^32 elements).
  uint32_t total = 0;
  for (std::size_t b = 0; b < l.blocks; ++b) {
    const uint32_t c = blocks[b];
    blocks[b] = total;
    total += c;
  }
  // Pass 2: the other values, read again only where the codes say so.
  ex.parallel_for(l.blocks, blocks_per_task, [&](std::size_t b0, std::size_t b1) {
    for (std::size_t b = b0; b < b1; ++b) {
      uint32_t at = blocks[b];
      for (std::size_t w = b * packed_words_per_block; w < block_end(b); ++w) {
        for (uint32_t rest = codes[w] & packed_other_bits; rest; rest &= rest - 1) {
          const std::size_t i = w * packed_per_word + static_cast<std::size_t>(std::countr_zero(rest)) / 2;
          std::memcpy(&others[at++], &src[i], sizeof(ff::fr));
        }
      }
    }
  });
  return l.bytes(total);
}

void unpack_witness_chunk(const std::byte* src, std::span<ff::fr> dst) {
  const std::size_t words = packed_chunk_layout::of(dst.size()).words;
  for (std::size_t w = 0; w < words; ++w) unpack_witness_word(src, dst.size(), w, dst.data());
}

}  // namespace cuzk::cuda
