// Run-time detection and the test / benchmark entries of the 8-lane IFMA Fp arithmetic
// (fp_ifma.hpp). Only the functions marked with the IFMA target use AVX-512 instructions.
#include "ff/fp_ifma.hpp"

namespace cuzk::ff::ifma {

#if CUZK_HAVE_FP_IFMA

namespace {

// libgcc's CPU model also checks that the OS saves the AVX-512 state (XCR0).
bool detect() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma");
}

#define CUZK_FP_IFMA_ENTRY __attribute__((target("avx512f,avx512ifma"), noinline))

CUZK_FP_IFMA_ENTRY void mul8_impl(bigint<6>* out, const bigint<6>* a, const bigint<6>* b, bool square) {
  const vfp x = load_array(a);
  const vfp y = square ? x : load_array(b);
  store_array(out, canon(square ? sq(x) : mul(x, y)));
}

CUZK_FP_IFMA_ENTRY void chain_impl(bigint<6>* x, const bigint<6>* y, std::size_t reps) {
  vfp v = load_array(x);
  const vfp w = load_array(y);
  for (std::size_t i = 0; i < reps; ++i) v = mul(v, w);
  store_array(x, canon(v));
}

}  // namespace

bool available() {
  static const bool has = detect();
  return has;
}

bool mul8(bigint<6>* out, const bigint<6>* a, const bigint<6>* b) {
  if (!available()) return false;
  mul8_impl(out, a, b, false);
  return true;
}
bool square8(bigint<6>* out, const bigint<6>* a) {
  if (!available()) return false;
  mul8_impl(out, a, a, true);
  return true;
}
bool mul8_chain(bigint<6>* x, const bigint<6>* y, std::size_t reps) {
  if (!available()) return false;
  chain_impl(x, y, reps);
  return true;
}

#else

bool available() { return false; }
bool mul8(bigint<6>*, const bigint<6>*, const bigint<6>*) { return false; }
bool square8(bigint<6>*, const bigint<6>*) { return false; }
bool mul8_chain(bigint<6>*, const bigint<6>*, std::size_t) { return false; }

#endif

}  // namespace cuzk::ff::ifma
