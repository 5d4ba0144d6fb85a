// The witness in a packed form for its trip over PCIe (plain C++; the device decoder is in
// spmv_cuda.cu, a host twin here for the tests).
//
// Why: a 32 GiB PoRep partition's aux values are 51.4% zero, 47.3% one and 1.31% other
// (docs/porep-witness-statistics.md), so the 4.2 GB witness carries ~60 MB of information.
// Copied as is it costs 76 ms of PCIe at 55 GB/s per partition; packed, ~90 MB (1.6 ms), and the
// host reads the witness once instead of copying it into the pinned staging buffer.
//
// Format of one chunk of `count` elements (Montgomery-form Fr values):
//   codes   ceil(count / 16) 32-bit words, 2 bits per element from the low end:
//           0 = zero, 1 = one (Montgomery 1), 2 = another value;
//   blocks  ceil(count / 256) 32-bit words: block b's first "other" value is others[blocks[b]]
//           (the number of other values in elements [0, 256 b));
//   others  the other values in order, 32 B each, from a 32-byte aligned offset (the padding
//           before it zero, so that a chunk's bytes depend on its values only).
// A decoder of code word w (unpack_witness_word, shared by the device kernel and the host
// decoder) starts from blocks[w / 16] plus the other values among the block's earlier words (at
// most 15 popcounts) and walks its 16 codes.
// Worst case (no 0 or 1): count x 32 B + count / 4 + count / 64 bytes, 1.6% above the raw size.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "base/executor.hpp"
#include "ff/bls12_381.hpp"

#if defined(__CUDACC__)
#define CUZK_PACK_HD __host__ __device__ __forceinline__
#else
#define CUZK_PACK_HD inline
#endif

namespace cuzk::cuda {

inline constexpr unsigned packed_per_word = 16;    // 2-bit codes per 32-bit word
inline constexpr unsigned packed_per_block = 256;  // elements per block offset
inline constexpr unsigned packed_words_per_block = packed_per_block / packed_per_word;
inline constexpr uint32_t packed_zero = 0, packed_one = 1, packed_other = 2;
inline constexpr uint32_t packed_other_bits = 0xaaaaaaaau;  // the high bit of every 2-bit code

struct packed_chunk_layout {
  std::size_t count = 0;          // elements
  std::size_t words = 0;          // code words
  std::size_t blocks = 0;         // block offsets
  std::size_t others_offset = 0;  // byte offset of the other values (a multiple of 32)

  static constexpr packed_chunk_layout of(std::size_t count) {
    packed_chunk_layout l;
    l.count = count;
    l.words = (count + packed_per_word - 1) / packed_per_word;
    l.blocks = (count + packed_per_block - 1) / packed_per_block;
    l.others_offset = ((l.words + l.blocks) * 4 + 31) / 32 * 32;
    return l;
  }
  constexpr std::size_t bytes(std::size_t others) const { return others_offset + others * sizeof(ff::fr); }
  constexpr std::size_t max_bytes() const { return bytes(count); }
};

// How pass 1 classifies 16 values: 64-bit scalar compares, or one 256-bit load and two vptest
// per value (x86-64 with AVX2, checked at run time). `automatic` is AVX2 where the CPU has it.
enum class pack_encoder { scalar, avx2, automatic };

// Whether this CPU runs pack_encoder::avx2 (false on other architectures).
bool pack_encoder_avx2_supported();

// Packs src into dst (at least packed_chunk_layout::of(src.size()).max_bytes(), 32-byte
// aligned) in one pass split over `ex`'s threads (codes, block offsets and other values per
// task), then moves each task's other values into place on the calling thread. Returns the
// bytes written. Throws std::invalid_argument for avx2 on a CPU
// without it.
std::size_t pack_witness_chunk(std::span<const ff::fr> src, std::byte* dst, base::executor& ex,
                               pack_encoder encoder = pack_encoder::automatic);

// The caller's side of pack_witness_pipelined. Each returns false with its `error` set (or
// throws) to stop the pipeline.
struct pack_pipeline_hooks {
  // Returns once halves[chunk % 2] may be overwritten: chunk - 2's bytes (handed to chunk_ready)
  // have been copied out. Called once per chunk (chunks 0 and 1 included), before any of the
  // chunk's values is written, on one of the executor's threads; for chunk >= 2 only after
  // chunk_ready(chunk - 2) has returned, so that it never waits on the copy of chunk - 4. May run
  // at the same time as chunk_ready of an earlier chunk and as wait_half_free(chunk + 1).
  std::function<bool(std::size_t chunk, std::string& error)> wait_half_free;
  // Chunk `chunk` is packed in halves[chunk % 2], `bytes` long (pack_witness_chunk's bytes for
  // the chunk's values). Called once per chunk in order 0, 1, ..., never two at a time, on one of
  // the executor's threads; must not wait for the pipeline (other threads may wait for it).
  std::function<bool(std::size_t chunk, std::size_t bytes, std::string& error)> chunk_ready;
};

// Packs src in chunks of chunk_elements values (the last one may be shorter; each chunk in the
// format above, as pack_witness_chunk writes it) through two buffers of half_bytes >= the
// largest chunk's max_bytes(), chunk k into halves[k % 2], without a join per chunk: the
// executor's threads are started once and take 16K-value tasks in order across chunk
// boundaries; a task of chunk k first waits for wait_half_free(k); the thread that finishes a
// chunk's last task moves its other values into place and hands it to chunk_ready in order.
// Why: on the 16-core host the executor's threads read a 2^27 witness in 56.7 ms in one
// parallel_for but in 65.3 ms as 128 fork-joins of 2^20 values, and the upload chunk by chunk
// (each join followed by the chunk's serial fix-up on the calling thread) took ~73 ms: ~10-15 ms
// of a proof's latency with the GPU waiting.
// Waits spin (yield, then short sleeps) and never block inside the executor. Returns false with
// `error` (the first failure) when a hook fails or throws: chunk_ready is not called again (a
// wait_half_free under way on another thread may still run), and no thread writes the halves
// once it has returned. Throws std::invalid_argument for chunk_elements == 0, halves too small
// or the AVX2 encoder on a CPU without it.
bool pack_witness_pipelined(std::span<const ff::fr> src, std::size_t chunk_elements,
                            std::array<std::byte*, 2> halves, std::size_t half_bytes, base::executor& ex,
                            const pack_pipeline_hooks& hooks, std::string& error,
                            pack_encoder encoder = pack_encoder::automatic);

// Decodes code word w of a packed chunk of `count` elements into out[16 w, min(16 w + 16, count)).
CUZK_PACK_HD void unpack_witness_word(const std::byte* packed, std::size_t count, std::size_t w, ff::fr* out) {
  const packed_chunk_layout l = packed_chunk_layout::of(count);
  const auto* codes = reinterpret_cast<const uint32_t*>(packed);
  const auto* others = reinterpret_cast<const ff::fr*>(packed + l.others_offset);
  uint32_t rank = codes[l.words + w / packed_words_per_block];  // the block's offset
  for (std::size_t v = w / packed_words_per_block * packed_words_per_block; v < w; ++v) {
#ifdef __CUDA_ARCH__
    rank += static_cast<uint32_t>(__popc(codes[v] & packed_other_bits));
#else
    rank += static_cast<uint32_t>(std::popcount(codes[v] & packed_other_bits));
#endif
  }
  uint32_t code = codes[w];
  const std::size_t end = count < (w + 1) * packed_per_word ? count : (w + 1) * packed_per_word;
  for (std::size_t i = w * packed_per_word; i < end; ++i, code >>= 2) {
    const uint32_t k = code & 3;
    out[i] = k == packed_other ? others[rank++] : k == packed_one ? ff::fr::one() : ff::fr::zero();
  }
}

// The host decoder: dst.size() elements from a packed chunk, word by word as the device does.
void unpack_witness_chunk(const std::byte* src, std::span<ff::fr> dst);

}  // namespace cuzk::cuda
