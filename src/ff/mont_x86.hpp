// x86-64 Montgomery multiplication kernels (mulx/adcx/adox). Placeholder until the kernels land:
// has_kernel<N> is false, so mont_field uses its portable path everywhere.
#pragma once
#include <cstddef>
#include <cstdint>

#define CUZK_HAVE_X86_MONT 0

namespace cuzk::ff::x86 {
template <std::size_t N>
inline constexpr bool has_kernel = false;
template <std::size_t N>
void mont_mul(uint64_t*, const uint64_t*, const uint64_t*, const uint64_t*, uint64_t);
template <std::size_t N>
void mont_sqr(uint64_t*, const uint64_t*, const uint64_t*, uint64_t);
}  // namespace cuzk::ff::x86
