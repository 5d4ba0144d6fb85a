// Witness packing for the PCIe copy (witness_packing.hpp has the format).
#include "backend/cuda/witness_packing.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
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

std::size_t tasks_of(const packed_chunk_layout& l) { return (l.blocks + blocks_per_task - 1) / blocks_per_task; }

// Task t of a chunk: blocks [t blocks_per_task, min(blocks, (t + 1) blocks_per_task)). Writes
// the task's codes, its blocks' offsets counted from the task's start, and its other values
// (copied while they are in L1) from others[first element of the task], which is never past
// where they belong (at most that many values precede them). Returns its count of other values.
uint32_t encode_task(std::span<const ff::fr> src, const packed_chunk_layout& l, std::byte* dst, std::size_t t,
                     full_word_fn full_word) {
  auto* codes = reinterpret_cast<uint32_t*>(dst);
  auto* blocks = codes + l.words;
  ff::fr* out = reinterpret_cast<ff::fr*>(dst + l.others_offset) + t * blocks_per_task * packed_per_block;
  const ff::fr one = ff::fr::one();
  const std::size_t n = src.size();
  uint32_t count = 0;
  for (std::size_t b = t * blocks_per_task; b < std::min(l.blocks, (t + 1) * blocks_per_task); ++b) {
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
  return count;
}

// The fix-up after every task of a chunk: in task order, each task's other values move down to
// their place (after every earlier task's; the earlier ones have moved already, so the ranges
// never clash), and its block offsets become absolute. ~1.3% of the chunk's bytes for a PoRep
// witness. The padding before the other values is zeroed, so that a chunk's bytes do not depend
// on what the buffer held before (a pinned half holds the chunk before last). Returns the
// chunk's packed bytes.
std::size_t place_others(const packed_chunk_layout& l, std::byte* dst, const uint32_t* task_others) {
  auto* blocks = reinterpret_cast<uint32_t*>(dst) + l.words;
  const std::size_t padding = (l.words + l.blocks) * sizeof(uint32_t);
  std::memset(dst + padding, 0, l.others_offset - padding);
  auto* others = reinterpret_cast<ff::fr*>(dst + l.others_offset);
  uint32_t total = 0;
  for (std::size_t t = 0; t < tasks_of(l); ++t) {
    std::memmove(others + total, others + t * blocks_per_task * packed_per_block, task_others[t] * sizeof(ff::fr));
    for (std::size_t b = t * blocks_per_task; b < std::min(l.blocks, (t + 1) * blocks_per_task); ++b)
      blocks[b] += total;
    total += task_others[t];
  }
  return l.bytes(total);
}

// Waits until ready() (true) or `failed` is set (false): yields for the first spin_time (the
// pipeline's waits are usually a fix-up or one chunk's DMA, tens of microseconds), then sleeps
// in short naps (a copy held up behind other kernels) so that waiting threads leave the cores.
constexpr auto spin_time = std::chrono::milliseconds(1);
constexpr auto nap_time = std::chrono::microseconds(50);
template <class Ready>
bool await(const Ready& ready, const std::atomic<bool>& failed) {
  const auto t0 = std::chrono::steady_clock::now();
  while (!ready()) {
    if (failed.load(std::memory_order_acquire)) return false;
    if (std::chrono::steady_clock::now() - t0 < spin_time)
      std::this_thread::yield();
    else
      std::this_thread::sleep_for(nap_time);
  }
  return true;
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
  const std::size_t tasks = tasks_of(l);
  std::vector<uint32_t> task_others(tasks);
  ex.parallel_for(tasks, 1, [&](std::size_t t0, std::size_t t1) {
    for (std::size_t t = t0; t < t1; ++t) task_others[t] = encode_task(src, l, dst, t, full_word);
  });
  return place_others(l, dst, task_others.data());
}

// pack_witness_pipelined. State: a task counter over all chunks (task g of the witness is task
// g % tasks_per_chunk of chunk g / tasks_per_chunk), per chunk a "half free" flag and the count
// of its tasks not yet done, and the count of chunks handed to chunk_ready.
//
// Deadlock freedom. The executor may run fewer bodies at a time than asked (a oneTBB arena busy
// with other work, a serial_executor running one body after another), so no thread may wait for
// work that no running body has taken. A thread waits only
//   (a) holding task 0 of chunk k >= 2, for chunk k - 2 to be handed to chunk_ready;
//   (b) holding task 0 of chunk k, in wait_half_free(k), for a copy the caller queued (it ends
//       without this pipeline);
//   (c) holding another task of chunk k, for (a) and (b) of chunk k's task 0;
//   (d) for the mutex around chunk_ready, whose holder waits for nothing.
// Tasks are taken in order from one counter and a body finishes the task it took before it takes
// another, so when task 0 of chunk k is taken every task of the chunks before k has been taken
// by a running body. By induction on k: the tasks of chunks 0 and 1 wait only for (b) and (c);
// those of chunk k >= 2 wait for chunk k - 2, all of whose tasks are held by running bodies that
// finish (induction), the last of them hands chunk k - 2 over once k - 3 is (induction), so (a)
// ends. Hence every taken task ends, with any number of bodies at a time from one up.
// Stale events: (a) comes before (b), so wait_half_free(k) never sees the half as it was before
// chunk k - 2 was queued (in pack_in: the half's event still recording chunk k - 4's copy).
// Failures: the first failure or exception sets `failed`; every wait also ends on it, bodies
// take no more tasks, and no exception leaves a body (oneTBB would rethrow it only after the
// other bodies return, and they might be waiting for the thread that threw).
bool pack_witness_pipelined(std::span<const ff::fr> src, std::size_t chunk_elements,
                            std::array<std::byte*, 2> halves, std::size_t half_bytes, base::executor& ex,
                            const pack_pipeline_hooks& hooks, std::string& error, pack_encoder encoder) {
  const full_word_fn full_word = full_word_for(encoder);
  if (chunk_elements == 0) throw std::invalid_argument("pack_witness_pipelined: chunk_elements must be positive");
  const std::size_t n = src.size();
  if (n == 0) return true;
  const packed_chunk_layout largest = packed_chunk_layout::of(std::min(chunk_elements, n));
  if (half_bytes < largest.max_bytes())
    throw std::invalid_argument("pack_witness_pipelined: the halves cannot hold a chunk's worst case");
  const std::size_t chunks = (n + chunk_elements - 1) / chunk_elements;
  const std::size_t tasks_per_chunk = tasks_of(largest);
  const auto chunk_values = [&](std::size_t k) {
    return src.subspan(k * chunk_elements, std::min(chunk_elements, n - k * chunk_elements));
  };
  const std::size_t total_tasks =
      (chunks - 1) * tasks_per_chunk + tasks_of(packed_chunk_layout::of(chunk_values(chunks - 1).size()));

  struct chunk_state {
    std::atomic<bool> half_free{false};   // set after wait_half_free(k) returned
    std::atomic<std::size_t> pending{0};  // tasks not done
    bool packed = false;                  // fix-up done (under `m`)
    std::size_t bytes = 0;                // (under `m`)
  };
  const std::unique_ptr<chunk_state[]> state(new chunk_state[chunks]);
  for (std::size_t k = 0; k < chunks; ++k)
    state[k].pending.store(tasks_of(packed_chunk_layout::of(chunk_values(k).size())), std::memory_order_relaxed);
  std::vector<uint32_t> task_others(total_tasks);
  std::atomic<std::size_t> next_task{0};
  std::atomic<std::size_t> handed{0};  // chunks [0, handed) given to chunk_ready (written under m)
  std::atomic<bool> failed{false};
  std::mutex m;  // the report order, chunk_state::packed / bytes, error

  const auto record_failure = [&](const std::string& why) {  // with m held
    if (!failed.load(std::memory_order_relaxed)) error = why.empty() ? "pack_witness_pipelined: a hook failed" : why;
    failed.store(true, std::memory_order_release);
  };
  const auto fail = [&](const std::string& why) {
    const std::lock_guard<std::mutex> lock(m);
    record_failure(why);
  };
  // One task; false when the pipeline has failed.
  const auto run_task = [&](std::size_t g) {
    const std::size_t k = g / tasks_per_chunk, t = g % tasks_per_chunk;
    chunk_state& s = state[k];
    std::byte* half = halves[k % 2];
    if (t == 0) {
      if (k >= 2 && !await([&] { return handed.load(std::memory_order_acquire) >= k - 1; }, failed)) return false;
      std::string why;
      if (!hooks.wait_half_free(k, why)) {
        fail(why);
        return false;
      }
      s.half_free.store(true, std::memory_order_release);
    } else if (!await([&] { return s.half_free.load(std::memory_order_acquire); }, failed)) {
      return false;
    }
    const std::span<const ff::fr> values = chunk_values(k);
    const packed_chunk_layout l = packed_chunk_layout::of(values.size());
    task_others[g] = encode_task(values, l, half, t, full_word);
    if (s.pending.fetch_sub(1, std::memory_order_acq_rel) != 1) return true;
    // The chunk's last task: its fix-up here, beside the other threads' next tasks, then the
    // chunks packed so far go to chunk_ready in order (a chunk finished before the one ahead of
    // it is handed over by the thread that finishes that one).
    const std::size_t bytes = place_others(l, half, &task_others[k * tasks_per_chunk]);
    const std::lock_guard<std::mutex> lock(m);
    s.packed = true;
    s.bytes = bytes;
    for (std::size_t next = handed.load(std::memory_order_relaxed); next < chunks && state[next].packed; ++next) {
      if (failed.load(std::memory_order_acquire)) return false;
      std::string why;
      if (!hooks.chunk_ready(next, state[next].bytes, why)) {
        record_failure(why);
        return false;
      }
      handed.store(next + 1, std::memory_order_release);
    }
    return true;
  };
  const std::size_t bodies = std::max<std::size_t>(1, std::min(ex.concurrency(), total_tasks));
  ex.parallel_for(bodies, 1, [&](std::size_t, std::size_t) {
    try {
      while (!failed.load(std::memory_order_acquire)) {
        const std::size_t g = next_task.fetch_add(1, std::memory_order_relaxed);
        if (g >= total_tasks || !run_task(g)) return;
      }
    } catch (const std::exception& e) {
      fail(e.what());
    } catch (...) {
      fail("pack_witness_pipelined: unknown exception");
    }
  });
  return !failed.load(std::memory_order_acquire);
}

void unpack_witness_chunk(const std::byte* src, std::span<ff::fr> dst) {
  const std::size_t words = packed_chunk_layout::of(dst.size()).words;
  for (std::size_t w = 0; w < words; ++w) unpack_witness_word(src, dst.size(), w, dst.data());
}

}  // namespace cuzk::cuda
