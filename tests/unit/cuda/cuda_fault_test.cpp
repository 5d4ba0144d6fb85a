// A sticky device fault on the CUDA backend (device_fault.hpp), in a process of its own: the fault
// leaves this process's CUDA context unusable, so no other GPU test may run after it here.
//   * before the fault: a proof on one of two workers sharing a device's fault state equals the
//     CPU backend's bytes; a refused reservation fails its job without marking the device;
//   * then a kernel stores to an unmapped address (cudaErrorIllegalAddress, sticky);
//   * the next proof fails with device_fault_error naming that error and the GPU as unusable, the
//     shared state holds the reason, and the other worker refuses a proof and a lower operation
//     at once with the same reason.
// Skipped without a GPU.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "backend/cpu/cpu_backend.hpp"
#include "backend/cuda/cuda_backend.hpp"
#include "backend/cuda/field_selftest.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "r1cs/r1cs.hpp"
#include "support/seed.hpp"
#include "testcircuit/mimc_chain.hpp"
#include "unit/cuda/backend_test_support.hpp"

namespace cuzk::cuda {
namespace {

using ff::fr;
using gpu_test::cpu_pool;

TEST(CudaDeviceFault, StickyFaultFailsTheJobThenEveryLaterOneAtOnce) {
  CUZK_REQUIRE_GPU("device-fault test skipped");
  std::mt19937_64 rng(test::test_seed());
  const testcircuit::chain_definition def(10);
  const fr start = fr::random(rng);
  r1cs::shape_recorder rec;
  ASSERT_TRUE(testcircuit::synthesize_chain(rec, def, start).ok());
  r1cs::witness_builder wb;
  ASSERT_TRUE(testcircuit::synthesize_chain(wb, def, start).ok());
  const r1cs::r1cs_shape shape = std::move(rec).finish();
  const std::vector<fr> inputs = wb.take_inputs(), aux = wb.take_aux();
  const groth16::parameters params = groth16::setup_random(shape, rng, cpu_pool());
  const groth16::parameters_view pv = groth16::parameters_view::of(params);

  // Two workers of one device: they share its fault state (as the daemon's workers do).
  cuda_backend_options o;
  o.fault = std::make_shared<device_fault_state>();
  std::string error;
  auto worker0 = cuda_backend::create(cpu_pool(), o, error);
  ASSERT_TRUE(worker0) << error;
  auto worker1 = cuda_backend::create(cpu_pool(), o, error);
  ASSERT_TRUE(worker1) << error;

  backend::cpu::cpu_backend cpu(cpu_pool());
  const fr r = fr::random(rng), s = fr::random(rng);
  const auto want = groth16::encode_proof(groth16::prove(pv, shape, inputs, aux, r, s, cpu));
  EXPECT_EQ(groth16::encode_proof(groth16::prove(pv, shape, inputs, aux, r, s, *worker0)), want);

  // A refused reservation fails its job only: no device fault (its own state, same device).
  cuda_backend_options tiny;
  tiny.arbiter = std::make_shared<device_memory_arbiter>(std::size_t{1} << 16);
  auto starved = cuda_backend::create(cpu_pool(), tiny, error);
  ASSERT_TRUE(starved) << error;
  EXPECT_THROW((void)groth16::prove(pv, shape, inputs, aux, r, s, *starved), device_memory_error);
  EXPECT_FALSE(starved->fault().faulted());
  EXPECT_FALSE(o.fault->faulted());

  const std::string injected = trigger_illegal_address_fault();
  ASSERT_NE(injected.find("cudaErrorIllegalAddress"), std::string::npos) << "the store did not fault: " << injected;

  try {
    (void)groth16::prove(pv, shape, inputs, aux, r, s, *worker0);
    FAIL() << "expected device_fault_error";
  } catch (const device_fault_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cudaErrorIllegalAddress"), std::string::npos) << what;
    EXPECT_NE(what.find("GPU 0 is unusable after a device fault"), std::string::npos) << what;
    EXPECT_NE(what.find("restart the process"), std::string::npos) << what;
  }
  ASSERT_TRUE(o.fault->faulted());
  EXPECT_NE(o.fault->reason().find("cudaErrorIllegalAddress"), std::string::npos) << o.fault->reason();
  EXPECT_TRUE(worker1->fault().faulted());

  // The other worker refuses at once, with the recorded reason, for proofs and lower operations.
  for (int op = 0; op < 2; ++op) {
    SCOPED_TRACE(op == 0 ? "prove_partition" : "compute_h");
    try {
      if (op == 0) {
        (void)groth16::prove(pv, shape, inputs, aux, r, s, *worker1);
      } else {
        std::vector<fr> a(8, fr::one()), b(8, fr::one()), c(8, fr::one());
        worker1->compute_h(a, b, c);
      }
      FAIL() << "expected device_fault_error";
    } catch (const device_fault_error& e) {
      EXPECT_NE(std::string(e.what()).find("unusable after a device fault (cudaErrorIllegalAddress"),
                std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace cuzk::cuda
