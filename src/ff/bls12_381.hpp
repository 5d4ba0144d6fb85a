// BLS12-381's base field Fp (381 bits) and scalar field Fr (255 bits), instances of
// mont_field. The moduli are the curve's published parameters (p and r below, from the
// BLS12-381 specification, x = -0xd201000000010000); every Montgomery constant is derived by
// mont_field and checked here against the literals that blst, zkcrypto and gnark publish.
#pragma once

#include "ff/mont_field.hpp"

namespace cuzk::ff {

struct fp_params {
  // p = (x - 1)^2 (x^4 - x^2 + 1) / 3 + x
  static constexpr bigint<6> modulus = hex<6>(
      "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab");
};

struct fr_params {
  // r = x^4 - x^2 + 1
  static constexpr bigint<4> modulus =
      hex<4>("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001");
};

using fp = mont_field<fp_params>;
using fr = mont_field<fr_params>;

// Derived constants, checked against the published values.
static_assert(fp::n0 == 0x89f3fffcfffcfffdULL);
static_assert(fp::r1 == bigint<6>{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                                   0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}});
static_assert(fp::r2 == bigint<6>{{0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL, 0x8de5476c4c95b6d5ULL,
                                   0x67eb88a9939d83c0ULL, 0x9a793e85b519952dULL, 0x11988fe592cae3aaULL}});
static_assert(fp::bits == 381 && fp::bytes == 48);
static_assert(fr::n0 == 0xfffffffeffffffffULL);
static_assert(fr::r1 == bigint<4>{{0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL,
                                   0x1824b159acc5056fULL}});
static_assert(fr::r2 == bigint<4>{{0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL, 0x05d314967254398fULL,
                                   0x0748d9d99f59ff11ULL}});
static_assert(fr::bits == 255 && fr::bytes == 32);
static_assert(fr::two_adicity == 32, "r - 1 = 2^32 * t");
static_assert(fp::two_adicity == 1, "p = 3 mod 4: square roots are a^((p+1)/4)");

}  // namespace cuzk::ff
