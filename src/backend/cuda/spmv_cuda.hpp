// SpMV on the device: a, b, c = A w, B w, C w from a shape's CSR matrices resident in device
// memory, laid out exactly as groth16::prover_backend::evaluate_abc (and the CPU backend) lays
// them out: the shape's rows, then bellperson's input constraints (a = input_i, b = c = 0), then
// zeros up to the domain size m. The results stay on the device (device_fr_vector) for
// ntt_context::compute_h. Plain C++ (no CUDA types).
//
// Device layout of a shape (device_shape, uploaded once per shape):
//   - per matrix: row offsets (u32: each matrix must have < 2^32 entries), column indices (u32)
//     and one coefficient tag per entry, the shape's coefficient id (0 = +1, 1 = -1: an add or a
//     subtract, no multiply; else an index into the coefficient table), stored in 1, 2 or 4
//     bytes, the least that holds the table size (PoRep: a few hundred distinct coefficients ->
//     1 byte). So an entry costs 5 bytes instead of the host's 4 + 4 (+ 8 B row offsets).
//   - columns renumbered for the device witness layout w = aux || inputs (aux j -> j, input i ->
//     num_aux + i): the L MSM then takes the first num_aux elements of w in place, and the input
//     constraints read w[num_aux + i].
//   - the density bitmaps (a_aux, b_input, b_aux) with a per-word rank (u32), so the A and B
//     MSMs' scalars are compacted on the device (compact_msm_scalars).
// Kernel: one thread per domain row computes that row of all three matrices (an add or subtract
// per entry, plus one multiply per entry whose coefficient is not +-1; those products wait until
// the row's adds are done, so that a warp's lanes multiply together). Bytes per proof: the
// matrices (5 B per entry + 4 B per row per matrix), the witness gathered per entry (32 B
// sectors; an L2 hit when neighbouring rows share columns) and 96 B written per row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "backend/cuda/ntt_cuda.hpp"
#include "base/executor.hpp"
#include "ff/bls12_381.hpp"
#include "r1cs/shape.hpp"

namespace cuzk::cuda {

class pinned_host_pool;

// A shape's matrices and densities in device memory (see above). Move-only.
class device_shape {
 public:
  // Device bytes an upload of `shape` takes (for the arbiter, before uploading).
  static std::size_t device_bytes_for(const r1cs::r1cs_shape& shape);
  // Copies the shape in. Returns nullptr with `error` set on failure (CUDA, or a matrix with
  // 2^32 entries or more, or more than 2^32 columns).
  static std::unique_ptr<device_shape> upload(const r1cs::r1cs_shape& shape, std::string& error);
  ~device_shape();
  device_shape(const device_shape&) = delete;
  device_shape& operator=(const device_shape&) = delete;

  std::size_t num_constraints() const;
  std::size_t num_inputs() const;
  std::size_t num_aux() const;
  std::size_t a_aux_count() const;
  std::size_t b_input_count() const;
  std::size_t b_aux_count() const;
  unsigned tag_bytes() const;        // 1, 2 or 4
  std::size_t device_bytes() const;  // what upload allocated
  std::size_t matrix_bytes() const;  // the part SpMV reads per proof (offsets, columns, tags, table)

  struct impl;
  const impl& internals() const { return *impl_; }

 private:
  device_shape();
  std::unique_ptr<impl> impl_;
};

class spmv_context {
 public:
  // A context on the calling thread's current device with its own stream. `pinned` (may be
  // null: pageable copies) stages the witness upload in double-buffered chunks; it must outlive
  // the context. `copier` (may be null: one thread) splits each chunk's host copy into the pinned
  // half across its threads: one thread copies ~7 GB/s on the H200 machine, so a 2^27 witness
  // (4.2 GB) took ~0.59 s against a PCIe floor of 0.076 s (55 GB/s); it must outlive the context.
  // pipelined_encode: the packed upload's host encode runs as one pipeline over the copier's
  // threads for the whole witness (pack_witness_pipelined) instead of one parallel_for per chunk
  // (at 2^27 on the H200: 56.6 ms against 113.5; cuda_backend_options turns it on).
  static std::unique_ptr<spmv_context> create(pinned_host_pool* pinned, std::string& error,
                                              base::executor* copier = nullptr, bool pipelined_encode = false);
  ~spmv_context();
  spmv_context(const spmv_context&) = delete;
  spmv_context& operator=(const spmv_context&) = delete;

  // w = aux || inputs on the device (resized to num_aux + num_inputs). Waits for the copy.
  // With a pinned pool and a `stage` vector of at least 34 MB (its contents are overwritten; the
  // prover passes c, which SpMV writes next), aux crosses PCIe packed: 2 bits per value plus the
  // values other than 0 and 1 (witness_packing.hpp; a PoRep witness shrinks ~45x), encoded on
  // `copier`'s threads and decoded on the device. Otherwise plain copies as above.
  bool upload_witness(const device_shape& shape, std::span<const ff::fr> inputs, std::span<const ff::fr> aux,
                      device_fr_vector& w, device_fr_vector* stage, std::string& error);
  // a, b, c (each resized to m) = the domain evaluations (see above); m >= num_constraints +
  // num_inputs. Queued on the context's stream: call synchronize() before other contexts read them.
  bool evaluate_abc(const device_shape& shape, const device_fr_vector& w, std::size_t m, device_fr_vector& a,
                    device_fr_vector& b, device_fr_vector& c, std::string& error);
  // The scalars of the A and B query MSMs, compacted as bellperson's parameter files compact the
  // bases, into the first elements of `out` (out.size() must be large enough):
  //   a: inputs (all) || aux at the a_aux density's set positions    (num_inputs + a_aux_count)
  //   b: inputs at the b_input density's set positions || aux at b_aux's   (b_input + b_aux counts)
  // Queued on the context's stream. Returns the count in `n`.
  enum class query { a, b };
  bool compact_msm_scalars(const device_shape& shape, const device_fr_vector& w, query q, device_fr_vector& out,
                           std::size_t& n, std::string& error);

  bool synchronize(std::string& error);
  // CUDA-event timing on the context's stream (as ntt_context).
  bool mark_start(std::string& error);
  double elapsed_ms(std::string& error);

 private:
  spmv_context();
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace cuzk::cuda
