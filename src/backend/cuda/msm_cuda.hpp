// G1 and G2 multi-scalar multiplication on one CUDA device, with the bases resident in device memory
// or, for a device that cannot hold them, streamed from pinned host memory in chunks.
// Plain C++ (no CUDA types): callers need no nvcc. The result equals msm::pippenger /
// msm::multiexp (the CPU oracle) as a group element; tests compare affine coordinates.
//
// Usage: upload the bases once (g1_device_bases, or g1_pinned_bases to stream them), then call
// g1_msm_context::msm with scalars from the host or already on the device (e.g. the h vector left
// by ntt_context::compute_h).
//
// Algorithm (docs/gpu.md has the measurements and the window choice):
//   1. scalars (Montgomery Fr) -> canonical k; k > (r-1)/2 becomes r - k with the point negated
//      (k < 2^254); W = ceil(255/c) windows of floor(255/W) or one more bits (the spare bits
//      spread: 2^27, c = 22 gives 3 windows of 22 bits and 9 of 21), signed digits d in
//      [-2^(b-1)+1, 2^(b-1)] for a window of b bits;
//   2. per group of windows, (key = window|bucket |d|, value = point index|sign) pairs, sorted by
//      key on the device (CUB radix sort over c + log2(group) bits);
//   3. accumulation balanced by entries, not buckets: the sorted list is cut into equal ranges,
//      one thread per range adds its bases (XYZZ, 8M + 2S each) bucket by bucket; a bucket
//      wholly inside one range is written directly, one that crosses range ends leaves partial
//      sums that a few merge passes (16 to 1) combine, so a bucket of any size (all scalars 1)
//      is split over many threads;
//   4. bucket reduction per window: segments of g buckets, one thread each, running sums
//      give A = sum i B_i and R = sum B_i, plus (segment offset) * R by double-and-add; the
//      segment sums are added in a tree on the device, the last few per window on the host;
//   5. windows combined on the host (Horner: c doublings per window).
// G2 (bellperson's B_G2 MSM) runs the same kernels over Fp2 points (g2_device.cuh): one bucket
// addition is 28 Fp products instead of 10, a point 384 B instead of 192 B; G2 always uses the
// ptx32_call multiplier (options().mul applies to G1 only).
// Every CUDA failure comes back as false plus an error string naming the call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "backend/cuda/ntt_cuda.hpp"
#include "backend/cuda/owned_allocation.hpp"
#include "base/density_bitmap.hpp"
#include "ec/point.hpp"

namespace cuzk::cuda {

// n affine points in device memory, of the parameter files' type Host (ec::g1_affine: 96 B each,
// x, y in Montgomery form; ec::g2_affine: 192 B, x, y as Fp2), the point at infinity as (0, 0).
// Move-only; freed with the object.
template <class Host>
class device_bases {
 public:
  // Copies the points in (any previous contents are freed).
  bool upload(std::span<const Host> points, std::string& error);
  // n points: points[i] = distinct[i mod distinct.size()] (benchmarks: a few distinct points
  // make any n without generating n points on the host).
  bool upload_repeated(std::span<const Host> distinct, std::size_t n, std::string& error);

  std::size_t size() const { return mem_.count(); }
  const void* device_data() const { return mem_.get(); }  // a device pointer: not for host access

 private:
  device_allocation mem_;
};
using g1_device_bases = device_bases<ec::g1_affine>;
using g2_device_bases = device_bases<ec::g2_affine>;

// n affine points in pinned (page-locked) host memory, already in the device layout (G1: 96 B,
// G2: 192 B; infinity as (0, 0)): the bases of a device that cannot hold the SRS. The MSMs of
// g1_msm_context copy them to the device in double-buffered chunks (the next chunk's copy runs on
// its own stream while this chunk's kernels run), so each point crosses PCIe once per MSM.
// Move-only; the pinned memory is freed with the object.
template <class Host>
class pinned_bases {
 public:
  // Converts host points (parameter-file layout) into pinned memory, on up to 16 threads.
  bool upload(std::span<const Host> points, std::string& error);
  // Copies resident device bases out (parameters generated on the device).
  bool copy_from(const device_bases<Host>& bases, std::string& error);

  std::size_t size() const { return mem_.count(); }
  const void* host_data() const { return mem_.get(); }  // pinned host memory in the device layout

 private:
  bool allocate(std::size_t n, std::string& error);
  pinned_allocation mem_;
};
using g1_pinned_bases = pinned_bases<ec::g1_affine>;
using g2_pinned_bases = pinned_bases<ec::g2_affine>;

// Points per streamed chunk when g1_msm_options::stream_chunk_points is 0: 1.5 GiB of device
// memory per buffer (two buffers) for either group, and a chunk MSM large enough to keep its
// window reduction small beside its accumulation (2^24 G1 points: 103 ms of kernels against
// ~32 ms for the copy at PCIe 5 rates).
inline constexpr std::size_t default_stream_chunk_g1 = std::size_t{1} << 24;
inline constexpr std::size_t default_stream_chunk_g2 = std::size_t{1} << 23;

// ptx32: PTX CIOS inlined at every call site; ptx32_call: the same product as one out-of-line
// function (smaller code); portable64: the mont_field template (fp_device.cuh).
enum class fp_mul_kernel : uint8_t { ptx32, portable64, ptx32_call };

struct g1_msm_options {
  unsigned window_bits = 0;           // c; 0 = default_window_bits(n); else 2..24
  // Measured at 2^26 (128-register cap): ptx32_call 616 ms, ptx32 704 ms (inlined, its code
  // outgrows the instruction cache); portable64 1.7x slower than ptx32 at 2^24 (it spills).
  fp_mul_kernel mul = fp_mul_kernel::ptx32_call;
  std::size_t max_pairs_per_sort = std::size_t{1} << 28;  // windows per sort: n * group <= this
  unsigned accumulate_threads = 0;    // threads over the sorted list; 0 = 4 per resident slot
  unsigned accumulate_block = 256;    // threads per block of the accumulation kernel (32..256,
                                      // multiple of 32)
  unsigned accumulate_min_blocks = 2; // register cap of the accumulation kernel: 1 = none, 2 = 128
                                      // registers (16 warps per SM), 3 = 85; measured best: 2
                                      // with 256-thread blocks (docs/gpu.md). Only ptx32_call
                                      // has all three; the other multipliers always use 2
  unsigned g2_accumulate_min_blocks = 1;  // the same cap for G2 (1 or 2; 3 acts as 2): measured
                                          // best 1, no cap (2^24: 604 ms against 706 with 128)
  unsigned reduce_segment = 0;        // buckets per reduction thread; 0 = automatic
  unsigned reduce_min_blocks = 2;     // register cap of the G1 reduction kernel (ptx32_call):
                                      // 1 = none (255 registers, 8 warps per SM), 2 = 128;
                                      // measured best 2 (2^26 and 2^27, g = 64: reduction
                                      // 23.6 -> 22.8 ms; docs/gpu-runs/2026-12-01-msm-reduce-cap.txt)
  // Pairwise batch-affine halving rounds between the sort and the XYZZ accumulation of G1
  // (0..8; 0 = the plain XYZZ path; G2 has g2_affine_rounds below). Each round pairs consecutive
  // entries of a bucket into one affine sum with one shared inversion per up to affine_range / 2 pairs
  // (6 Fp products per addition plus a share of the safegcd inversion, instead of 10), so the
  // accumulation then adds ~1/2^rounds of the entries (msm_batch_affine.cuh). Needs two affine
  // arrays and the running products in scratch; when they do not fit, the rounds stop early
  // (exact either way). Default 0: measured slower on the H200 (2^26: 348.3 ms; 1 / 3 rounds at
  // ranges of 32: 371.9 / 391.9 ms; docs/gpu-msm-batch-affine.md).
  unsigned affine_rounds = 0;
  unsigned affine_range = 32;         // entries per thread of a halving round (power of two,
                                      // 16..16384): up to range / 2 pairs share one inversion;
                                      // 32 measured best (112.6 SM-cycles per addition, 1024: 148)
  bool affine_local_prefix = false;   // first version: running products in local memory, ranges
                                      // of 512 (affine_range ignored); measured slower (docs)
  // The same rounds for G2 (the global-scratch kernel only). An affine G2 addition is 17 Fp
  // products plus its share of an Fp2 inversion, against 28 for the XYZZ one.
  // Measured on the H200 (docs/gpu-msm-batch-affine.md, "G2"): 4 rounds at ranges of 128 take
  // the G2 MSM 2^24 from 373 to 299 ms with the default group bound below (288 with all windows in
  // one sort; ~269 SM-cycles per affine addition, ~480 per mixed one).
  unsigned g2_affine_rounds = 4;
  unsigned g2_affine_range = 128;
  // The halving arrays of a list of E entries: two affine arrays (typically E/2 and E/4 points; at
  // most E each, since a round runs once one pair forms), running products and pair positions
  // for E/2 (G2: ~192 B per entry typically, 434 at most; G1 half). So with rounds a window group
  // holds at most this many entries (fewer windows per sort; a single window with more entries
  // runs without rounds: 2^26 bounds G2's arrays to 29 GB, ~13 typical), and the ones of
  // msm_mostly_binary's G2 split (one bucket: E/2 + E/4 points exactly) are halved in chunks of it.
  std::size_t affine_max_pairs_per_sort = std::size_t{1} << 26;
  // Pippenger MSMs of fewer points run without the rounds (the split's ones are always halved
  // when g2_affine_rounds > 0): below ~2^20 points their fixed costs (a host synchronisation per
  // round and window group, short launches) eat the gain (G2 2^20: -5%; the B_G2 split's rest of
  // 439K points: none).
  std::size_t affine_min_points = std::size_t{1} << 20;
  // Streamed bases (pinned_bases): points per chunk, 0 = default_stream_chunk_g1 / _g2. Each
  // chunk is one MSM (its own window plan, sort and reduction) whose sum is added on the host.
  std::size_t stream_chunk_points = 0;
  // msm_mostly_binary over G1: the ones listed first (word counts, a scan, the positions) and
  // added in equal shares per thread, instead of one pass over equal ranges of positions, whose
  // threads hold unequal numbers of ones (a warp runs as long as its busiest lane).
  bool g1_ones_listed = true;
  // The listed G1 ones halved by this many batch-affine rounds first (ranges of affine_range
  // entries), as the G2 split's ones are: a list of one bucket in position order, so a range's
  // points are near neighbours in memory, unlike the Pippenger rounds' random gathers. 0 = off.
  unsigned g1_ones_rounds = 0;
  bool profile = false;               // time each phase (adds synchronisation; see profile())
};

// Device scratch of msm_mostly_binary's G2 ones halved in chunks of `chunk` entries (the halving
// arrays of one chunk) for n positions (the word counts): what a caller that reserves device
// memory adds when g2_affine_rounds > 0.
std::size_t g2_ones_halving_bytes(std::size_t chunk, std::size_t n);

// Milliseconds per phase of the last msm call (profile = true), summed over window groups.
struct g1_msm_profile {
  double scalars_ms = 0;     // upload (host scalars) + canonical form + sign fold
  double digits_ms = 0;      // digit extraction into (key, value) pairs
  double sort_ms = 0;
  double affine_ms = 0;      // batch-affine halving rounds (affine_rounds > 0)
  double accumulate_ms = 0;  // bucket sums, merge passes included
  double reduce_ms = 0;      // bucket reduction and device tree sums
  double host_ms = 0;        // copy back, last sums and window combination on the host
  double total_ms = 0;
  unsigned window_bits = 0, windows = 0, windows_per_sort = 0;
  // Entries after the sort and entries left for the XYZZ accumulation (summed over groups; equal
  // without halving), halving rounds run (summed over groups) and rounds cut short for memory.
  std::size_t sorted_entries = 0, xyzz_entries = 0;
  unsigned affine_rounds_done = 0, affine_fallbacks = 0;
  // Streamed bases: chunks copied and the time the kernels waited for a copy (host clock; the
  // phases above are then the last chunk's).
  std::size_t stream_chunks = 0;
  double stream_wait_ms = 0;
  // msm_mostly_binary: whether the 0/1 split ran (else the plain MSM) and the rest's size; the
  // phases above are then the rest's Pippenger.
  bool binary_split = false;
  std::size_t binary_rest = 0;
  // With the split (host clock, each phase ends in a synchronisation): classification and the
  // rest's gather, the ones' sum (kernel, tree sums, host sum), the rest's Pippenger.
  double binary_classify_ms = 0, binary_ones_ms = 0, binary_rest_ms = 0;
};

// The window size used when none is forced, from measurements on the H200 (docs/gpu.md).
unsigned default_window_bits(std::size_t n);

class g1_msm_context {
 public:
  // A context on the calling thread's current device with its own stream; scratch memory grows
  // on demand and is kept.
  static std::unique_ptr<g1_msm_context> create(std::string& error);
  ~g1_msm_context();
  g1_msm_context(const g1_msm_context&) = delete;
  g1_msm_context& operator=(const g1_msm_context&) = delete;

  const g1_msm_options& options() const;
  bool set_options(const g1_msm_options& o, std::string& error);

  // sum_i scalars[i] * bases[i], i < scalars.size() <= bases.size(); scalars in Montgomery form
  // (ff::fr values, as the prover holds them).
  bool msm(const g1_device_bases& bases, std::span<const ff::fr> scalars, ec::g1_jacobian& out, std::string& error);
  // The same with the scalars already on the device (the first n elements of `scalars`).
  bool msm(const g1_device_bases& bases, const device_fr_vector& scalars, std::size_t n, ec::g1_jacobian& out,
           std::string& error);
  // bellperson's density-filtered multiexp: sum over positions i with density.test(i) of
  // scalars[i] * bases[rank(i)]; scalars.size() == density.size(), bases.size() >= density.count().
  bool msm(const g1_device_bases& bases, const base::density_bitmap& density, std::span<const ff::fr> scalars,
           ec::g1_jacobian& out, std::string& error);
  // The same three over G2 bases (same options and profile; mul is ignored).
  bool msm(const g2_device_bases& bases, std::span<const ff::fr> scalars, ec::g2_jacobian& out, std::string& error);
  bool msm(const g2_device_bases& bases, const device_fr_vector& scalars, std::size_t n, ec::g2_jacobian& out,
           std::string& error);
  bool msm(const g2_device_bases& bases, const base::density_bitmap& density, std::span<const ff::fr> scalars,
           ec::g2_jacobian& out, std::string& error);

  // For scalars that are mostly 0 and 1 (PoRep's L, A and B scalars): zeros are dropped, the bases
  // of the ones summed by one addition each, and only the rest (at most n / 8 scalars; otherwise
  // this is the plain msm above) goes through Pippenger, over compact copies of its bases and
  // scalars. Same result as msm(bases, scalars, n, ...); profile().binary_split says which ran.
  bool msm_mostly_binary(const g1_device_bases& bases, const device_fr_vector& scalars, std::size_t n,
                         ec::g1_jacobian& out, std::string& error);
  bool msm_mostly_binary(const g2_device_bases& bases, const device_fr_vector& scalars, std::size_t n,
                         ec::g2_jacobian& out, std::string& error);

  // The same over bases in pinned host memory, streamed to the device chunk by chunk
  // (options().stream_chunk_points); mostly-binary scalars take the 0/1 split per chunk.
  bool msm(const g1_pinned_bases& bases, const device_fr_vector& scalars, std::size_t n, ec::g1_jacobian& out,
           std::string& error);
  bool msm(const g2_pinned_bases& bases, const device_fr_vector& scalars, std::size_t n, ec::g2_jacobian& out,
           std::string& error);
  bool msm_mostly_binary(const g1_pinned_bases& bases, const device_fr_vector& scalars, std::size_t n,
                         ec::g1_jacobian& out, std::string& error);
  bool msm_mostly_binary(const g2_pinned_bases& bases, const device_fr_vector& scalars, std::size_t n,
                         ec::g2_jacobian& out, std::string& error);

  const g1_msm_profile& profile() const;

 private:
  g1_msm_context();
  struct impl;
  std::unique_ptr<impl> impl_;
};

// Device halves of the G1 arithmetic tests: element-wise on device 0 with both multipliers.
//   fp: mul (ptx, portable), add, sub, neg of (a[i], b[i]);
//   points: for xyzz p[i] (any, identity included) and affine q[i] (not infinity):
//   add_mixed(p, q), add(p, xyzz(q')) with q' = the xyzz p[(i+1) % n], dbl(p).
struct g1_selftest_result {
  std::vector<ff::fp> mul_ptx, mul_portable, add, sub, neg;
  std::vector<ec::g1_xyzz> add_mixed_ptx, add_mixed_portable, add_ptx, dbl_ptx;
};
bool run_g1_selftest(std::span<const ff::fp> a, std::span<const ff::fp> b, std::span<const ec::g1_xyzz> p,
                     std::span<const ec::g1_affine> q, g1_selftest_result& out, std::string& error);

// Device halves of the G2 arithmetic tests (ptx32_call multiplier, as the G2 MSM uses):
//   fp2: mul, sqr (of a[i]), add, sub, neg of (a[i], b[i]);
//   point_*: as for G1, add_mixed(p, q), add(p, p[(i+1) % n]), dbl(p).
struct g2_selftest_result {
  std::vector<ff::fp2> mul, sqr, add, sub, neg;
  std::vector<ec::g2_xyzz> point_add_mixed, point_add, point_dbl;
};
bool run_g2_selftest(std::span<const ff::fp2> a, std::span<const ff::fp2> b, std::span<const ec::g2_xyzz> p,
                     std::span<const ec::g2_affine> q, g2_selftest_result& out, std::string& error);

// Throughput of one Fp multiplier (chains x length dependent products); products per second.
double measure_fp_mul_rate(fp_mul_kernel kind, std::size_t chains, unsigned length, std::string& error);

}  // namespace cuzk::cuda
