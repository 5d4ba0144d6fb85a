// Witness packing for the PCIe copy (witness_packing.hpp has the format).
#include "backend/cuda/witness_packing.hpp"

#include <bit>
#include <cstring>
#include <stdexcept>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace cuzk::cuda {

namespace {

// Blocks per parallel task: 64 blocks = 16K elements = 512 KB read (64 tasks per 2^20-value
// chunk, so that 16 threads even out).
constexpr std::size_t blocks_per_task = 64;

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

// The code word of count <= 16 values.
uint32_t scalar_word(const ff::fr* p, std::size_t count, const ff::fr& one) {
  uint32_t word = 0;
  for (std::size_t j = 0; j < count; ++j) word |= code_of(p[j], one) << (2 * j);
  return word;
}

uint32_t scalar_full_word(const ff::fr* p, const ff::fr& one) { return scalar_word(p, packed_per_word, one); }

#if defined(__x86_64__)
// One 32-byte load and two vptest per value (zero: v & v == 0; one: (v ^ 1) & (v ^ 1) == 0),
// about half the instructions of four 64-bit loads and their compares.
__attribute__((target("avx2"))) uint32_t avx2_full_word(const ff::fr* p, const ff::fr& one_value) {
  const __m256i one = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&one_value));
  uint32_t word = 0;
  for (unsigned j = 0; j < packed_per_word; ++j) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + j));
    const __m256i d = _mm256_xor_si256(v, one);
    const auto zero = static_cast<uint32_t>(_mm256_testz_si256(v, v));
    const auto is_one = static_cast<uint32_t>(_mm256_testz_si256(d, d));
    word |= (2 - 2 * zero - is_one) << (2 * j);
  }
  return word;
}
#endif

using full_word_fn = uint32_t (*)(const ff::fr*, const ff::fr&);

full_word_fn full_word_for(pack_encoder encoder) {
  if (encoder == pack_encoder::automatic)
    encoder = pack_encoder_avx2_supported() ? pack_encoder::avx2 : pack_encoder::scalar;
  if (encoder == pack_encoder::scalar) return scalar_full_word;
  if (!pack_encoder_avx2_supported())
    throw std::invalid_argument("pack_witness_chunk: the AVX2 encoder needs a CPU with AVX2");
#if defined(__x86_64__)
  return avx2_full_word;
#else
  return scalar_full_word;  // not reached: no AVX2 off x86-64
#endif
}

}  // namespace

bool pack_encoder_avx2_supported() {
#if defined(__x86_64__)
  static const bool supported = __builtin_cpu_supports("avx2");
  return supported;
#else
  return false;
#endif
}

std::size_t pack_witness_chunk(std::span<const ff::fr> src, std::byte* dst, base::executor& ex,
                               pack_encoder encoder) {
  const full_word_fn full_word = full_word_for(encoder);
  const packed_chunk_layout l = packed_chunk_layout::of(src.size());
  auto* codes = reinterpret_cast<uint32_t*>(dst);
  auto* blocks = codes + l.words;
  auto* others = reinterpret_cast<ff::fr*>(dst + l.others_offset);
  const ff::fr one = ff::fr::one();
  const std::size_t n = src.size();
  const std::size_t tasks = (l.blocks + blocks_per_task - 1) / blocks_per_task;
  std::vector<uint32_t> task_others(tasks);
  // Task t: blocks [t blocks_per_task, task_blocks_end(t)); its other values first go to
  // task_staging(t), the position of its first element.
  const auto task_blocks_end = [&](std::size_t t) { return std::min(l.blocks, (t + 1) * blocks_per_task); };
  const auto task_staging = [&](std::size_t t) { return others + t * blocks_per_task * packed_per_block; };
  // One pass: task t writes its codes, its blocks' offsets counted from the task's start, and its
  // other values (copied while they are in L1) from others[first element of the task], which is
  // never past where they belong (at most that many values precede them).
  ex.parallel_for(tasks, 1, [&](std::size_t t0, std::size_t t1) {
    for (std::size_t t = t0; t < t1; ++t) {
      ff::fr* out = task_staging(t);
      uint32_t count = 0;
      for (std::size_t b = t * blocks_per_task; b < task_blocks_end(t); ++b) {
        blocks[b] = count;
        const std::size_t w_end = std::min(l.words, (b + 1) * packed_words_per_block);
        for (std::size_t w = b * packed_words_per_block; w < w_end; ++w) {
          const std::size_t i = w * packed_per_word;
          const uint32_t word = i + packed_per_word <= n ? full_word(&src[i], one) : scalar_word(&src[i], n - i, one);
          codes[w] = word;
          for (uint32_t rest = word & packed_other_bits; rest; rest &= rest - 1)
            std::memcpy(&out[count++], &src[i + static_cast<std::size_t>(std::countr_zero(rest)) / 2], sizeof(ff::fr));
        }
      }
      task_others[t] = count;
    }
  });
  // In task order, each task's other values move down to their place (after every earlier
  // task's; the earlier ones have moved already, so the ranges never clash), and its block
  // offsets become absolute. ~1.3% of the chunk's bytes for a PoRep witness.
  uint32_t total = 0;
  for (std::size_t t = 0; t < tasks; ++t) {
    std::memmove(others + total, task_staging(t), task_others[t] * sizeof(ff::fr));
    for (std::size_t b = t * blocks_per_task; b < task_blocks_end(t); ++b) blocks[b] += total;
    total += task_others[t];
  }
  return l.bytes(total);
}

void unpack_witness_chunk(const std::byte* src, std::span<ff::fr> dst) {
  const std::size_t words = packed_chunk_layout::of(dst.size()).words;
  for (std::size_t w = 0; w < words; ++w) unpack_witness_word(src, dst.size(), w, dst.data());
}

}  // namespace cuzk::cuda
