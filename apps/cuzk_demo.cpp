// cuzk-demo: the main job until the daemon lands. It exercises the BLS12-381 stack end to end
// (encodings, scalar multiplication, subgroup checks, a pairing check), prints the time of the
// core operations, and, where the CUDA backend is built and a GPU is present, checks the field
// arithmetic on the device against the CPU. Exit status 0 only if every check passed.
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "ec/encoding.hpp"
#include "ec/point.hpp"
#include "ec/subgroup.hpp"
#include "pairing/pairing.hpp"

#if CUZK_WITH_CUDA
#include "backend/cuda/field_selftest.hpp"
#endif

namespace {

using namespace cuzk;
using ec::g1_affine;
using ec::g2_affine;
using g1 = ec::jacobian_point<ec::g1_curve>;
using g2 = ec::jacobian_point<ec::g2_curve>;
using ff::fp;
using ff::fr;

int failures = 0;

void check(bool ok, const char* what) {
  std::printf("  [%s] %s\n", ok ? " ok " : "FAIL", what);
  if (!ok) ++failures;
}

// Median-free quick timing: runs fn for about 0.2 s and returns nanoseconds per call.
template <class Fn>
double time_ns(Fn&& fn) {
  using clock = std::chrono::steady_clock;
  std::size_t iters = 1;
  for (;;) {
    auto t0 = clock::now();
    for (std::size_t i = 0; i < iters; ++i) fn();
    double ns = std::chrono::duration<double, std::nano>(clock::now() - t0).count();
    if (ns > 2e8) return ns / static_cast<double>(iters);
    iters *= 2;
  }
}

}  // namespace

int main() {
  std::random_device rd;
  const uint64_t seed = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  std::mt19937_64 rng(seed);
  std::printf("cuzk-demo: BLS12-381 end to end (seed %llu)\n", static_cast<unsigned long long>(seed));

  const fr a = fr::random(rng), b = fr::random(rng);
  const g1_affine p = ec::scalar_mul(g1::generator(), a).to_affine();
  const g2_affine q = ec::scalar_mul(g2::generator(), b).to_affine();
  const g1_affine ab_g1 = ec::scalar_mul(g1::generator(), a * b).to_affine();

  std::puts("checks:");
  uint8_t c1[ec::g1_compressed_bytes], c2[ec::g2_compressed_bytes];
  ec::encode_g1_compressed(p, c1);
  ec::encode_g2_compressed(q, c2);
  g1_affine p2;
  g2_affine q2;
  check(ec::decode_g1(c1, p2) == ec::decode_error::ok && p2 == p, "G1 compressed encode/decode round trip");
  check(ec::decode_g2(c2, q2) == ec::decode_error::ok && q2 == q, "G2 compressed encode/decode round trip");
  check(ec::is_in_subgroup(p) && ec::is_in_subgroup(q), "random points are in the prime-order subgroups");
  const pairing::g1g2_pair bilinear[] = {{p, q}, {-ab_g1, g2_affine::generator()}};
  check(pairing::pairing_check(bilinear), "e(aG1, bG2) * e(-abG1, G2) == 1 (bilinearity)");
  const pairing::g1g2_pair tampered[] = {{p, q}, {-p, g2_affine::generator()}};
  check(!pairing::pairing_check(tampered), "a tampered pairing check is rejected");
  check(!pairing::pairing(g1_affine::generator(), g2_affine::generator()).is_one(), "e(G1, G2) != 1");

#if CUZK_WITH_CUDA
  std::string why;
  if (cuda::device_count(why) > 0) {
    std::vector<fp> xa(1 << 16), xb(1 << 16);
    std::vector<fr> xc(1 << 16), xd(1 << 16);
    for (std::size_t i = 0; i < xa.size(); ++i) {
      xa[i] = fp::random(rng);
      xb[i] = fp::random(rng);
      xc[i] = fr::random(rng);
      xd[i] = fr::random(rng);
    }
    cuda::field_selftest_result out;
    std::string error;
    bool ok = cuda::run_field_selftest(xa, xb, xc, xd, out, error);
    for (std::size_t i = 0; ok && i < xa.size(); ++i)
      ok = out.fp_out[i] == cuda::selftest_fp_formula(xa[i], xb[i]) &&
           out.fr_out[i] == cuda::selftest_fr_formula(xc[i], xd[i]) &&
           out.fp2_out[i] == cuda::selftest_fp2_formula(xa[i], xb[i]);
    check(ok, ("GPU field arithmetic equals the CPU on 65,536 inputs " + error).c_str());
  } else {
    std::printf("  [skip] GPU field arithmetic: %s\n", why.c_str());
  }
#else
  std::puts("  [skip] GPU field arithmetic: built without CUDA");
#endif

  std::puts("timings (one core, ns per operation):");
  fp x = fp::random(rng), y = fp::random(rng);
  std::printf("  Fp mul           %10.1f\n", time_ns([&] { x = x * y; }));
  fr s = fr::random(rng), t = fr::random(rng);
  std::printf("  Fr mul           %10.1f\n", time_ns([&] { s = s * t; }));
  g1 acc = g1::from_affine(p);
  const g1 other = g1::from_affine(ab_g1);
  std::printf("  G1 add           %10.1f\n", time_ns([&] { acc = acc + other; }));
  std::printf("  G1 mixed add     %10.1f\n", time_ns([&] { acc = acc + ab_g1; }));
  ff::fp12 e;
  std::printf("  pairing          %10.1f\n", time_ns([&] { e = pairing::pairing(p, q); }));
  // Keep the results observable so the timed loops are not optimised away.
  std::printf("  (checksum %d)\n", static_cast<int>(x.is_zero() + s.is_zero() + acc.is_identity() + e.is_one()));

  std::printf("%s\n", failures == 0 ? "cuzk-demo: all checks passed" : "cuzk-demo: CHECKS FAILED");
  return failures == 0 ? 0 : 1;
}
