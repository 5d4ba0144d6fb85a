// Fr NTTs and the Groth16 h pipeline on one CUDA device, with the data resident in device
// memory. Plain C++ (no CUDA types): callers need no nvcc. Same conventions and results, bit for
// bit, as poly::ntt / poly::coset_ntt / poly::compute_h (bellperson's domain: omega from
// 7^((r-1)/2^32), coset generator 7, inverse scaled by 1/n).
//
// Algorithm (docs/gpu.md has the measurements):
//   - radix-2 Gentleman-Sande (natural -> bit-reversed) and Cooley-Tukey (bit-reversed ->
//     natural), as on the CPU, grouped into passes of up to `max_stages_per_pass` stages; one
//     pass = one kernel that reads a tile of 2^K x L elements from device memory once, does K
//     stages (3 at a time in registers, 8 elements per thread, exchanging through shared memory)
//     and writes it back once. 2^27 = 3 passes of 9 stages.
//   - twiddles: one precomputed device table w_N^x, x < N/2, N = 2^max_log_size (32 B * N/2);
//     stage span m reads w_{2m}^j = table[j * N/(2m)]; inverse twiddles come from the same table
//     (w_{2m}^-j = -w_{2m}^(m-j)).
//   - coset powers g^i, the 1/n scale and 1/z(g) are folded into the first pass's loads or the
//     last pass's stores (two multiplications per element: g^i = lo[i mod 2^b] * hi[i >> b]);
//     compute_h folds a*b into the loads of its last inverse transform and the subtraction of c
//     into its final bit reversal.
//   - Fr multiplication (fr_device.cuh): 32-bit limbs with even/odd accumulators in PTX carry
//     chains (fr_mul_kernel::ptx32, the default: fastest measured), the portable 64-bit
//     mont_field template compiled by nvcc (portable64), the first row-by-row CIOS (cios32) and
//     a plain-C 64-bit multiply-add CIOS (wide32); each is the others' twin in the tests.
//   - ntt_algorithm::radix2_reference: one kernel launch per stage, twiddles by exponentiation,
//     separate scaling passes; independent of the fast path, for tests.
//
// Every CUDA failure is reported: functions return false with `error` naming the call and
// CUDA's message. Work is queued on the context's stream; functions that move data to or from
// the host (upload, download, synchronize) wait for it, and report errors of kernels queued
// before them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backend/cuda/owned_allocation.hpp"
#include "ff/bls12_381.hpp"
#include "poly/ntt.hpp"

namespace cuzk::cuda {

// n Fr elements in device memory (Montgomery form, the same 32 bytes as ff::fr). Move-only.
class device_fr_vector {
 public:
  // Allocates n elements (contents undefined); frees what was held before.
  bool resize(std::size_t n, std::string& error);
  // Resizes to src.size() and copies src in.
  bool upload(std::span<const ff::fr> src, std::string& error);
  // Copies the first dst.size() elements out (dst.size() <= size()).
  bool download(std::span<ff::fr> dst, std::string& error) const;
  // Fills with uniform-looking values < r derived from `seed` (a device hash; for benchmarks).
  bool fill_random(uint64_t seed, std::string& error);

  std::size_t size() const { return mem_.count(); }
  ff::fr* device_data() const { return mem_.as<ff::fr>(); }  // a device pointer: not for host access

 private:
  device_allocation mem_;
};

enum class fr_mul_kernel : uint8_t { ptx32, portable64, cios32, wide32 };
const char* fr_mul_name(fr_mul_kernel k);
enum class ntt_algorithm : uint8_t { shared_memory_passes, radix2_reference };

// Defaults are the fastest measured on the H200 (docs/gpu-field-products.md, 2026-11-30):
// the even/odd PTX multiplier (4.9 SM-cycles per product) runs the 2^27 forward NTT in 43.5 ms
// against 59.4 (portable64), 70.4 (cios32) and 54.5 (wide32). With it, 4 columns beat 8 where
// K <= 8 (2^24: 4.81 vs 5.08 ms) and tie at K = 9 (2^27: L is capped at 4 there; L = 2 is
// 2% faster at 2^27 but 8% slower at 2^24).
struct ntt_options {
  ntt_algorithm algorithm = ntt_algorithm::shared_memory_passes;
  fr_mul_kernel mul = fr_mul_kernel::ptx32;
  // K <= this per pass, 3..10, passes balanced; 0: by size, 8 from 2^26 up (2^27: 4 passes of 7,
  // 7, 7, 6, NR 37.9 ms against 41.4 with 3 passes of 9; 2^26: 18.1 against 19.0 ms), 10 below
  // (2^24: 3 passes of 8, 4.26 ms against 4.48 with K <= 8).
  unsigned max_stages_per_pass = 0;
  // L: columns per tile (1, 2, 4, 8; 0: by size, 4 from 2^26 up, 2 below: 2^24 4.26 ms against
  // 4.49 with 4); capped at 256 threads per block (2^K L <= 256 x elements_per_thread).
  unsigned lanes = 0;
  // Pass-kernel blocks per SM the register cap allows: 4 elements 3 (85 registers, 76 used) or 4
  // (64, ~100 B of spills); 8 elements 2 (128) or 3 (85, spills, slower). 3 measured best since
  // the 6-transform h (same run, 2^27: h 255.0 against 259.1 ms, fwd NR 37.3 against 37.7, RN
  // 37.7 against 38.1; docs/gpu-runs/2026-12-01-ntt-h-six-transforms.txt).
  // Variants other than (8, 2) exist for the ptx32 multiplier only.
  unsigned min_blocks = 3;
  // Elements per thread: 4 (2 stages per shared-memory exchange, 64-76 registers, 24-32 warps per
  // SM) or 8 (3 stages per exchange, ~118 registers, 16 warps). The 8-element kernel waited on
  // latency (ncu: multiply pipe 71% busy); 4 elements: 2^27 RN 41.6 -> 40.05 ms, h 327 -> 312 ms.
  unsigned elements_per_thread = 4;
};

// The pass plan for 2^log_n under these options (log_n >= 3; the "by size" zeros resolved):
// the stage cap per pass, the columns per tile asked for, and the number of passes.
unsigned ntt_max_stages_per_pass(const ntt_options& o, unsigned log_n);
unsigned ntt_lanes(const ntt_options& o, unsigned log_n);
unsigned ntt_pass_count(const ntt_options& o, unsigned log_n);

class ntt_context {
 public:
  // Creates a context on the calling thread's current device with the twiddle table for sizes up to 2^max_log_size
  // (1 <= max_log_size <= 30). Returns nullptr with `error` set on failure.
  static std::unique_ptr<ntt_context> create(unsigned max_log_size, std::string& error);
  ~ntt_context();
  ntt_context(const ntt_context&) = delete;
  ntt_context& operator=(const ntt_context&) = delete;

  unsigned max_log_size() const;
  const ntt_options& options() const;
  // Rejects out-of-range values (returns false with error set, keeps the old options).
  bool set_options(const ntt_options& o, std::string& error);

  // In place; a.size() must be 2^k with 1 <= k <= max_log_size (size 1 is the identity).
  bool ntt(device_fr_vector& a, poly::ntt_direction dir, poly::ntt_order order, std::string& error);
  bool coset_ntt(device_fr_vector& a, poly::ntt_direction dir, poly::ntt_order order, std::string& error);
  // poly::compute_h on device: a, b, c hold the constraint evaluations (natural order, size
  // 2^k); on return a holds the n coefficients of h = (A B - C) / (X^n - 1); b and c are
  // clobbered. No host round trip: 6 transforms (c needs no coset values: h = (icoset(A_g B_g)
  // - c) / z(g), poly::compute_h derives it), with the coset powers, scales and the pointwise
  // a*b fused into transform passes, plus one bit-reversal pass that also subtracts c.
  bool compute_h(device_fr_vector& a, device_fr_vector& b, device_fr_vector& c, std::string& error);

  // Waits for queued work; reports any error raised by it.
  bool synchronize(std::string& error);

  // Timing with CUDA events on the context's stream: mark_start(), queue work, then
  // elapsed_ms() waits for it and returns the milliseconds between the two (or -1 on error).
  bool mark_start(std::string& error);
  double elapsed_ms(std::string& error);

 private:
  ntt_context();
  struct impl;
  std::unique_ptr<impl> impl_;
};

// Device 0's name, SM count and clock (for benchmark tables); false when there is no device.
struct device_info {
  std::string name;
  int sm_count = 0;
  int clock_khz = 0;
  std::size_t total_memory = 0;
};
bool get_device_info(device_info& info, std::string& error);

// Element-wise products on device with every multiplier (fr_mul_ptx = even/odd, the portable
// template, the row-by-row CIOS, wide), plus a + b and a - b with the PTX adders: the device
// half of the FrMul tests.
struct fr_mul_selftest_result {
  std::vector<ff::fr> mul_ptx, mul_portable, mul_cios, mul_wide, add, sub;
};
bool run_fr_mul_selftest(std::span<const ff::fr> a, std::span<const ff::fr> b, fr_mul_selftest_result& out,
                         std::string& error);

// Throughput of one multiplier: `chains` independent dependent-product chains of `length`
// products each; returns products per second (or -1 with error set). For the floor tables.
double measure_fr_mul_rate(fr_mul_kernel kind, std::size_t chains, unsigned length, std::string& error);

}  // namespace cuzk::cuda
