// The packed witness format (witness_packing.hpp) on the host: pack with one thread and with a
// thread pool, unpack with the host decoder (the device kernel's twin), compare. The pipelined
// encoder against a simulated upload (a copy thread with random delays). No GPU needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "backend/cuda/witness_packing.hpp"
#include "support/seed.hpp"

namespace {

using cuzk::ff::fr;
namespace cuda = cuzk::cuda;

// The encoders this CPU runs: scalar always, AVX2 where the CPU has it (said once otherwise).
std::vector<cuda::pack_encoder> encoders() {
  if (cuda::pack_encoder_avx2_supported()) return {cuda::pack_encoder::scalar, cuda::pack_encoder::avx2};
  static bool said = false;
  if (!said) std::printf("this CPU has no AVX2: only the scalar encoder is tested\n");
  said = true;
  return {cuda::pack_encoder::scalar};
}

// n values: zero with probability z, one with probability o, else random.
std::vector<fr> mixed(std::mt19937_64& rng, std::size_t n, double z, double o) {
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<fr> v(n);
  for (auto& x : v) {
    const double t = u(rng);
    x = t < z ? fr::zero() : t < z + o ? fr::one() : fr::random(rng);
  }
  return v;
}

TEST(WitnessPacking, RoundTripsEveryMixAndLength) {
  std::mt19937_64 rng(cuzk::test::test_seed());
  cuzk::base::serial_executor serial;
  const auto pool = cuzk::base::make_thread_pool_executor(4);
  struct mix {
    double zero, one;
  };
  // PoRep's measured mix, all zero, all one, no 0 or 1 (the worst case), half and half.
  const mix mixes[] = {{0.514, 0.473}, {1, 0}, {0, 1}, {0, 0}, {0.5, 0}};
  // Lengths around the word (16) and block (256) sizes, and several thousand blocks.
  const std::size_t lengths[] = {0, 1, 15, 16, 17, 255, 256, 257, 4095, 4097, 1u << 20};
  for (const mix& m : mixes)
    for (std::size_t n : lengths) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", zero " + std::to_string(m.zero) + ", one " + std::to_string(m.one));
      std::vector<fr> src = mixed(rng, n, m.zero, m.one);
      if (n > 3) src[n - 1] = -fr::one(), src[n / 2] = fr::one();  // edge values
      if (n > 6) {
        // "Other" values one word away from zero or one: each 64-bit word must count.
        for (int k = 0; k < 4; ++k) src[k] = fr::zero(), src[k].v.w[k] = uint64_t{1} << (17 * k);
        src[4] = fr::one(), src[4].v.w[3] ^= uint64_t{1} << 40;
        src[5] = fr::one(), src[5].v.w[0] ^= 1;
      }
      const auto layout = cuda::packed_chunk_layout::of(n);
      // 32-byte aligned, and poisoned so that an unwritten byte shows.
      std::vector<fr> buf(layout.max_bytes() / sizeof(fr) + 1);
      std::memset(buf.data(), 0xa5, buf.size() * sizeof(fr));
      auto* dst = reinterpret_cast<std::byte*>(buf.data());
      std::size_t others = 0;
      for (const fr& x : src) others += !x.is_zero() && !(x == fr::one());
      std::vector<std::byte> first;  // the first encoder's bytes: every encoder writes the same
      for (cuda::pack_encoder encoder : encoders())
        for (cuzk::base::executor* ex : {static_cast<cuzk::base::executor*>(&serial), pool.get()}) {
          SCOPED_TRACE("encoder " + std::to_string(static_cast<int>(encoder)));
          std::memset(buf.data(), 0xa5, buf.size() * sizeof(fr));
          const std::size_t bytes = cuda::pack_witness_chunk(src, dst, *ex, encoder);
          ASSERT_EQ(bytes, layout.bytes(others));
          ASSERT_LE(bytes, layout.max_bytes());
          if (first.empty()) first.assign(dst, dst + bytes);
          ASSERT_TRUE(std::equal(first.begin(), first.end(), dst));
          std::vector<fr> back(n, fr::one() + fr::one());
          cuda::unpack_witness_chunk(dst, back);
          ASSERT_TRUE(back == src);
        }
    }
}

TEST(WitnessPacking, PorepMixIsSmall) {
  // The measured PoRep mix packs to about 2 bits per value plus 32 B per other value.
  std::mt19937_64 rng(cuzk::test::test_seed());
  const std::size_t n = 1u << 20;
  const std::vector<fr> src = mixed(rng, n, 0.514, 0.473);
  std::vector<fr> buf(cuda::packed_chunk_layout::of(n).max_bytes() / sizeof(fr) + 1);
  cuzk::base::serial_executor serial;
  const std::size_t bytes = cuda::pack_witness_chunk(src, reinterpret_cast<std::byte*>(buf.data()), serial);
  EXPECT_LT(static_cast<double>(bytes), 0.025 * static_cast<double>(n * sizeof(fr)));
}

// ---------------------------------------------------------------------------------------------
// pack_witness_pipelined
// ---------------------------------------------------------------------------------------------

// Runs a parallel_for's bodies on `threads` threads of its own, one body after another on each:
// fewer at a time than concurrency() promises, as a oneTBB arena busy with other work does
// (threads = 1: every body after the previous one has returned).
class staggered_executor final : public cuzk::base::executor {
 public:
  staggered_executor(std::size_t threads, std::size_t concurrency) : threads_(threads), concurrency_(concurrency) {}
  std::size_t concurrency() const override { return concurrency_; }
  void parallel_for(std::size_t n, std::size_t grain,
                    const std::function<void(std::size_t, std::size_t)>& body) override {
    grain = std::max<std::size_t>(grain, 1);
    std::atomic<std::size_t> next{0};
    std::exception_ptr first;
    std::mutex m;
    const auto run = [&] {
      for (std::size_t b; (b = next.fetch_add(grain)) < n;) {
        try {
          body(b, std::min(n, b + grain));
        } catch (...) {
          const std::lock_guard<std::mutex> lock(m);
          if (!first) first = std::current_exception();
        }
      }
    };
    std::vector<std::thread> others;
    for (std::size_t t = 1; t < threads_; ++t) others.emplace_back(run);
    run();
    for (std::thread& t : others) t.join();
    if (first) std::rethrow_exception(first);
  }

 private:
  std::size_t threads_, concurrency_;
};

// The caller's side of pack_witness_pipelined with a simulated copy engine: chunk_ready takes a
// snapshot of the half and queues its "DMA", which a thread of its own completes after a random
// delay, comparing the half with the snapshot first (a half written before wait_half_free let it
// shows as a difference); wait_half_free(k) waits for chunk k - 2's copy. The hooks' contract is
// checked as they run (`problems`, read after the run). Failures can be injected per chunk.
class fake_upload {
 public:
  static constexpr std::size_t never = ~std::size_t{0};
  enum class fault { none, wait_fails, wait_throws, ready_fails, ready_throws };

  fake_upload(std::array<std::byte*, 2> halves, std::size_t chunks, uint64_t seed, unsigned max_delay_us)
      : copies(chunks), waits(chunks, 0), halves_(halves), rng_(seed), max_delay_us_(max_delay_us),
        copier_([this] { copy_loop(); }) {}
  ~fake_upload() { finish(); }

  void inject(fault f, std::size_t chunk) { fault_ = f, fault_chunk_ = chunk; }

  cuda::pack_pipeline_hooks hooks() {
    cuda::pack_pipeline_hooks h;
    h.wait_half_free = [this](std::size_t k, std::string& error) { return wait_half_free(k, error); };
    h.chunk_ready = [this](std::size_t k, std::size_t bytes, std::string& error) {
      return chunk_ready(k, bytes, error);
    };
    return h;
  }

  // Completes the queued copies and stops the copy thread.
  void finish() {
    {
      const std::lock_guard<std::mutex> lock(m_);
      closed_ = true;
    }
    cv_.notify_all();
    if (copier_.joinable()) copier_.join();
  }

  std::size_t handed() const { return handed_.load(); }

  std::vector<std::vector<std::byte>> copies;  // per chunk, what its "DMA" read
  std::vector<int> waits;                      // wait_half_free calls per chunk
  std::vector<std::string> problems;

 private:
  struct job {
    std::size_t chunk;
    std::vector<std::byte> bytes;
  };

  void problem(const std::string& what) {  // with m_ held
    problems.push_back(what);
  }

  bool wait_half_free(std::size_t k, std::string& error) {
    std::unique_lock<std::mutex> lock(m_);
    if (k >= waits.size()) {
      problem("wait_half_free(" + std::to_string(k) + ") past the last chunk");
      return false;
    }
    ++waits[k];
    if (k >= 2 && handed_.load() < k - 1)
      problem("wait_half_free(" + std::to_string(k) + ") before chunk_ready(" + std::to_string(k - 2) + ")");
    if (fault_chunk_ == k && fault_ == fault::wait_fails) {
      error = "injected wait failure at " + std::to_string(k);
      return false;
    }
    if (fault_chunk_ == k && fault_ == fault::wait_throws) throw std::runtime_error("injected wait exception");
    if (k >= 2 && !cv_.wait_for(lock, std::chrono::seconds(20), [&] { return copied_ >= k - 1; })) {
      problem("wait_half_free(" + std::to_string(k) + "): chunk " + std::to_string(k - 2) + " never copied");
      return false;
    }
    return true;
  }

  bool chunk_ready(std::size_t k, std::size_t bytes, std::string& error) {
    const bool alone = in_ready_.fetch_add(1) == 0;
    struct leave {
      std::atomic<int>& n;
      ~leave() { n.fetch_sub(1); }
    } on_return{in_ready_};
    std::unique_lock<std::mutex> lock(m_);
    if (!alone) problem("chunk_ready(" + std::to_string(k) + ") while another ran");
    if (k != handed_.load()) problem("chunk_ready(" + std::to_string(k) + ") out of order");
    if (k >= waits.size() || waits[k] != 1) problem("chunk_ready(" + std::to_string(k) + ") without one wait");
    if (fault_chunk_ == k && fault_ == fault::ready_fails) {
      error = "injected ready failure at " + std::to_string(k);
      return false;
    }
    if (fault_chunk_ == k && fault_ == fault::ready_throws) throw std::runtime_error("injected ready exception");
    queue_.push_back({k, std::vector<std::byte>(halves_[k % 2], halves_[k % 2] + bytes)});
    handed_.store(k + 1);
    lock.unlock();
    cv_.notify_all();
    return true;
  }

  void copy_loop() {
    std::unique_lock<std::mutex> lock(m_);
    for (;;) {
      cv_.wait(lock, [&] { return closed_ || !queue_.empty(); });
      if (queue_.empty()) return;
      job j = std::move(queue_.front());
      queue_.pop_front();
      const auto delay = std::chrono::microseconds(max_delay_us_ ? rng_() % (max_delay_us_ + 1) : 0);
      lock.unlock();
      std::this_thread::sleep_for(delay);
      const bool kept = std::equal(j.bytes.begin(), j.bytes.end(), halves_[j.chunk % 2]);
      lock.lock();
      if (!kept) problem("half " + std::to_string(j.chunk % 2) + " written while chunk " + std::to_string(j.chunk) +
                         " was copied");
      copies[j.chunk] = std::move(j.bytes);
      copied_ = j.chunk + 1;
      cv_.notify_all();
    }
  }

  std::array<std::byte*, 2> halves_;
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<job> queue_;
  bool closed_ = false;
  std::size_t copied_ = 0;  // chunks [0, copied_) copied (in order)
  std::atomic<std::size_t> handed_{0};
  std::atomic<int> in_ready_{0};
  fault fault_ = fault::none;
  std::size_t fault_chunk_ = never;
  std::mt19937_64 rng_;  // the copy delays
  unsigned max_delay_us_;
  std::thread copier_;  // last: it starts with every other member made
};

// Two halves of `half_bytes` (32-byte aligned), poisoned.
struct halves_buffer {
  explicit halves_buffer(std::size_t half_bytes) : half(half_bytes / sizeof(fr) + 1), store(2 * half) {
    std::memset(store.data(), 0xa5, store.size() * sizeof(fr));
  }
  std::array<std::byte*, 2> halves() {
    return {reinterpret_cast<std::byte*>(store.data()), reinterpret_cast<std::byte*>(store.data() + half)};
  }
  std::size_t bytes() const { return half * sizeof(fr); }
  std::size_t half;
  std::vector<fr> store;
};

// pack_witness_chunk's bytes for chunk k of src.
std::vector<std::byte> reference_chunk(const std::vector<fr>& src, std::size_t chunk_elements, std::size_t k,
                                       cuda::pack_encoder encoder) {
  const std::size_t off = k * chunk_elements, n = std::min(chunk_elements, src.size() - off);
  std::vector<fr> buf(cuda::packed_chunk_layout::of(n).max_bytes() / sizeof(fr) + 1);
  cuzk::base::serial_executor serial;
  auto* dst = reinterpret_cast<std::byte*>(buf.data());
  const std::size_t bytes = cuda::pack_witness_chunk(std::span<const fr>(src).subspan(off, n), dst, serial, encoder);
  return {dst, dst + bytes};
}

// The executors the pipeline must work on: one thread, a oneTBB pool, bodies run fewer at a time
// than asked (one after another; two at a time out of eight), and six threads at once (more
// than a small test machine's cores: chunks overtake each other).
struct named_executor {
  std::string name;
  std::unique_ptr<cuzk::base::executor> ex;
};
std::vector<named_executor> pipeline_executors() {
  std::vector<named_executor> v;
  v.push_back({"serial", std::make_unique<cuzk::base::serial_executor>()});
  v.push_back({"oneTBB x4", cuzk::base::make_thread_pool_executor(4)});
  v.push_back({"staggered 1 of 6", std::make_unique<staggered_executor>(1, 6)});
  v.push_back({"staggered 2 of 8", std::make_unique<staggered_executor>(2, 8)});
  v.push_back({"6 threads", std::make_unique<staggered_executor>(6, 6)});
  return v;
}

// Packs src pipelined through the fake upload and checks every chunk against pack_witness_chunk,
// the round trip through the host decoder, and the hooks' contract.
void check_pipelined(const std::vector<fr>& src, std::size_t chunk_elements, cuzk::base::executor& ex,
                     cuda::pack_encoder encoder, uint64_t delay_seed, unsigned max_delay_us) {
  const std::size_t n = src.size(), chunks = (n + chunk_elements - 1) / chunk_elements;
  halves_buffer buf(cuda::packed_chunk_layout::of(std::min(chunk_elements, n)).max_bytes());
  fake_upload upload(buf.halves(), chunks, delay_seed, max_delay_us);
  std::string error;
  const bool fine =
      cuda::pack_witness_pipelined(src, chunk_elements, buf.halves(), buf.bytes(), ex, upload.hooks(), error, encoder);
  upload.finish();
  ASSERT_TRUE(fine) << error;
  for (const std::string& p : upload.problems) ADD_FAILURE() << p;
  ASSERT_EQ(upload.handed(), chunks);
  for (std::size_t k = 0; k < chunks; ++k) {
    SCOPED_TRACE("chunk " + std::to_string(k));
    ASSERT_EQ(upload.waits[k], 1);
    ASSERT_TRUE(upload.copies[k] == reference_chunk(src, chunk_elements, k, encoder));
    const std::size_t off = k * chunk_elements, count = std::min(chunk_elements, n - off);
    std::vector<fr> back(count, fr::one() + fr::one());
    cuda::unpack_witness_chunk(upload.copies[k].data(), back);
    ASSERT_TRUE(std::equal(back.begin(), back.end(), src.begin() + static_cast<std::ptrdiff_t>(off)));
  }
}

TEST(WitnessPackingPipelined, MatchesChunkByChunkOnEveryExecutor) {
  std::mt19937_64 rng(cuzk::test::test_seed());
  struct shape {
    std::size_t chunk_elements, n;
  };
  // Several 16K-value tasks per chunk, the last chunk short; a chunk size that is no multiple of a
  // task or a block (40000: tasks of 64, 64 and 29 blocks); one task per chunk and many chunks; a
  // witness of one value, of less than a chunk, of exactly one chunk; empty.
  const shape shapes[] = {{1u << 16, 10 * (1u << 16) + 17}, {40000, 7 * 40000 + 12345}, {4096, 50 * 4096 + 1},
                          {1u << 16, 1},  {1u << 16, 1000}, {1u << 16, 1u << 16}, {1u << 16, 0}};
  for (const named_executor& e : pipeline_executors())
    for (const shape& sh : shapes)
      for (cuda::pack_encoder encoder : encoders()) {
        SCOPED_TRACE(e.name + ", chunk " + std::to_string(sh.chunk_elements) + ", n " + std::to_string(sh.n) +
                     ", encoder " + std::to_string(static_cast<int>(encoder)));
        const std::vector<fr> src = mixed(rng, sh.n, 0.514, 0.473);
        check_pipelined(src, sh.chunk_elements, *e.ex, encoder, rng(), 200);
        if (testing::Test::HasFatalFailure()) return;
      }
}

TEST(WitnessPackingPipelined, ProductionChunksAndWorstCase) {
  // The upload's 2^20-value chunks (three, the last partial), and values with no 0 or 1 (every
  // chunk at its max_bytes()).
  std::mt19937_64 rng(cuzk::test::test_seed());
  const auto pool = cuzk::base::make_thread_pool_executor(4);
  check_pipelined(mixed(rng, (std::size_t{2} << 20) + 12345, 0.514, 0.473), std::size_t{1} << 20, *pool,
                  cuda::pack_encoder::automatic, rng(), 300);
  check_pipelined(mixed(rng, 5 * 40000 + 3, 0, 0), 40000, *pool, cuda::pack_encoder::automatic, rng(), 300);
}

TEST(WitnessPackingPipelined, SlowCopiesNeverOverwrittenEarly) {
  // Copies of up to 3 ms, far longer than a chunk's encode: every task waits on its half, past the
  // yielding phase into the sleeps.
  std::mt19937_64 rng(cuzk::test::test_seed());
  for (const named_executor& e : pipeline_executors()) {
    SCOPED_TRACE(e.name);
    check_pipelined(mixed(rng, 24 * (1u << 14) + 5, 0.514, 0.473), 1u << 14, *e.ex, cuda::pack_encoder::automatic,
                    rng(), 3000);
    if (testing::Test::HasFatalFailure()) return;
  }
}

TEST(WitnessPackingPipelined, HookFailureStopsIt) {
  std::mt19937_64 rng(cuzk::test::test_seed());
  using fault = fake_upload::fault;
  struct injected {
    fault f;
    std::size_t chunk;
    const char* error;
  };
  const injected cases[] = {{fault::ready_fails, 5, "injected ready failure at 5"},
                            {fault::ready_fails, 0, "injected ready failure at 0"},
                            {fault::ready_throws, 3, "injected ready exception"},
                            {fault::wait_fails, 6, "injected wait failure at 6"},
                            {fault::wait_fails, 1, "injected wait failure at 1"},
                            {fault::wait_throws, 0, "injected wait exception"},
                            {fault::wait_throws, 11, "injected wait exception"}};
  const std::size_t chunk_elements = 1u << 15, chunks = 12;  // two tasks per chunk
  const std::vector<fr> src = mixed(rng, chunks * chunk_elements - 100, 0.514, 0.473);
  for (const named_executor& e : pipeline_executors())
    for (const injected& c : cases) {
      SCOPED_TRACE(e.name + ", fault " + std::to_string(static_cast<int>(c.f)) + " at " + std::to_string(c.chunk));
      halves_buffer buf(cuda::packed_chunk_layout::of(chunk_elements).max_bytes());
      fake_upload upload(buf.halves(), chunks, rng(), 100);
      upload.inject(c.f, c.chunk);
      std::string error;
      const bool fine = cuda::pack_witness_pipelined(src, chunk_elements, buf.halves(), buf.bytes(), *e.ex,
                                                     upload.hooks(), error);
      upload.finish();
      EXPECT_FALSE(fine);
      EXPECT_EQ(error, c.error);
      for (const std::string& p : upload.problems) ADD_FAILURE() << p;
      // Nothing is handed over from the failing chunk on (chunks before a failed wait may or may
      // not be); what was handed over is right.
      const bool ready_fault = c.f == fault::ready_fails || c.f == fault::ready_throws;
      if (ready_fault)
        EXPECT_EQ(upload.handed(), c.chunk);
      else
        EXPECT_LE(upload.handed(), c.chunk);
      for (std::size_t k = 0; k < upload.handed(); ++k)
        EXPECT_TRUE(upload.copies[k] == reference_chunk(src, chunk_elements, k, cuda::pack_encoder::automatic))
            << "chunk " << k;
    }
}

TEST(WitnessPackingPipelined, RejectsBadArguments) {
  const std::vector<fr> src(1000, fr::one());
  cuzk::base::serial_executor serial;
  halves_buffer buf(cuda::packed_chunk_layout::of(1000).max_bytes());
  cuda::pack_pipeline_hooks hooks;
  hooks.wait_half_free = [](std::size_t, std::string&) { return true; };
  hooks.chunk_ready = [](std::size_t, std::size_t, std::string&) { return true; };
  std::string error;
  EXPECT_THROW(cuda::pack_witness_pipelined(src, 0, buf.halves(), buf.bytes(), serial, hooks, error),
               std::invalid_argument);
  EXPECT_THROW(cuda::pack_witness_pipelined(src, 1000, buf.halves(), buf.bytes() / 2, serial, hooks, error),
               std::invalid_argument);
  // Halves sized for the witness, not the chunk size, when the witness is smaller than a chunk.
  EXPECT_TRUE(cuda::pack_witness_pipelined(src, 1u << 20, buf.halves(), buf.bytes(), serial, hooks, error)) << error;
}

}  // namespace
