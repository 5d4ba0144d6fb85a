// Groth16 parameter generation with the point multiplications on the device, leaving the H, L,
// A, B_G1 and B_G2 bases resident in device memory for cuda_backend (no host round trip of the
// ~47 GB SRS of a 2^27 PoRep partition). Same toxic waste -> the same parameters as
// groth16::setup (bellperson's generate_parameters; setup.hpp has the formulas), byte for byte:
//
//   host    H scalars tau^i z(tau) / delta (powers), the QAP at tau (as groth16::evaluate_qap:
//           powers, IFFT, then the scatter through the CSR matrices spread over every thread
//           by column ranges), the density checks and the
//           IC / L scalars (beta u + alpha v + w) / (gamma | delta), all as groth16::setup;
//           the fixed-base tables of g1 and g2 (c = 16: 2^19 points each);
//   device  fixed-base multiplications (fixed_base_cuda.hpp) straight into the resident bases:
//           H (m - 1), L (n_aux), A (nonzero u), B_G1 and B_G2 (nonzero v);
//   host    IC (num_inputs points) and the verifying key by host scalar multiplications.
// Result: device_parameters (cuda_backend.hpp): the verifying key on the host, the bases on the
// device with their arbiter reservation; prove with cuda_backend::prove_partition(device_parameters
// ...), share between the workers of the device by sharing the object.
//
// Cost prediction at 2^27 (PoRep-like: m = 2^27, n_aux ~ 1.30e8, A ~ 1.30e8, B ~ 3.3e7):
//   device: (m + n_aux + |A| + |B|) ~ 4.3e8 G1 points x ~735 Fp products + 3.3e7 G2 points x
//   ~1,000 = 3.5e11 products at 1.77e10/s ~ 20 s;
//   host (16 cores): powers + IFFT of 2^27 (~3 s), the scatter (~7.5e8 entries, one matrix per
//   core, ~10 s), scalar folding (4.4e8, parallel, ~2 s), tables (~1 s): ~16 s;
//   scalar upload 14 GB pageable (~1.5 s). Total ~40 s.
// Measured on the H200 machine (docs/gpu-prove-2-27.md): device 21.0 s (predicted 19.2 s), host
// 38.3 s (powers + IFFT 15.2 s, scatter 15.0 s: both far above the guess), total 60.6 s.
// Errors as groth16::setup (setup_error), device failures as std::runtime_error.
#pragma once

#include <chrono>
#include <memory>

#include "backend/cuda/cuda_backend.hpp"
#include "base/executor.hpp"
#include "groth16/setup.hpp"
#include "r1cs/shape.hpp"

namespace cuzk::cuda {

struct device_setup_timings {
  double host_scalars = 0;  // H powers, the QAP at tau, density checks, IC / L scalars
  double host_lagrange = 0; //   of which: powers of tau and the IFFT (Lagrange coefficients)
  double host_scatter = 0;  //   of which: u, v, w through the CSR matrices
  double tables = 0;        // host tables + upload
  double h = 0, l = 0, a = 0, b_g1 = 0, b_g2 = 0;  // fold + upload + device kernels (synchronised)
  double vk = 0;            // IC and the verifying key on the host
  double total = 0;
};

// Generates the parameters of `shape` for `tw` on the calling thread's current device. The bases'
// bytes are reserved on `arbiter` (waiting at most `timeout`) for as long as the result lives.
device_parameters setup_on_device(const r1cs::r1cs_shape& shape, const groth16::toxic_waste& tw,
                                  base::executor& ex, const std::shared_ptr<device_memory_arbiter>& arbiter,
                                  std::chrono::milliseconds timeout, device_setup_timings* timings = nullptr);

// The bases back on the host as a groth16::parameters (tests: compare with groth16::setup).
groth16::parameters download_parameters(const device_parameters& p);

}  // namespace cuzk::cuda
