#include "backend/cuda/porep_like_circuit.hpp"

#include <algorithm>
#include <cstdint>

namespace cuzk::cuda {

namespace {

using ff::fr;

constexpr std::size_t coeff_table = 200;

// SplitMix64 on a counter: a stateless hash, so rows and values are made in parallel.
uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// A counter-based generator for fr::random.
struct mix_rng {
  using result_type = uint64_t;
  uint64_t state;
  static constexpr uint64_t min() { return 0; }
  static constexpr uint64_t max() { return ~uint64_t{0}; }
  uint64_t operator()() { return mix(state++); }
};

enum kind : uint8_t { zero, one, other };

// Everything a row needs: the witness kinds per column and the sizes.
struct builder {
  std::size_t ni, na;
  uint64_t seed;
  const std::vector<uint8_t>& kinds;  // per column (inputs, then aux)

  uint64_t h(std::size_t r, unsigned which, unsigned j) const {
    return mix(seed ^ (uint64_t{r} << 8) ^ (uint64_t{which} << 4) ^ j ^ 0x5bd1e995ULL);
  }
  // A column near row r (aux among the 64 before it, 5% anywhere), 3% ONE when allowed.
  std::size_t near(std::size_t r, unsigned which, unsigned j, bool allow_one) const {
    const uint64_t x = h(r, which, j);
    if (allow_one && x % 100 < 3) return 0;
    const std::size_t aux = x % 100 < 8 ? (x >> 8) % na : (r > 64 ? r - (x >> 8) % 64 : (x >> 8) % (r + 1)) % na;
    return ni + aux;
  }
  // A (which 0): 17.5% +1, 20.3% -1 (measured); C (which 2): 60% +1, 30% -1; the rest from the table.
  uint32_t coeff(std::size_t r, unsigned which, unsigned j) const {
    const uint64_t x = h(r, which, 16 + j);
    const uint64_t plus = which == 0 ? 175 : 600, minus = which == 0 ? 378 : 900;
    return x % 1000 < plus ? 0 : x % 1000 < minus ? 1 : static_cast<uint32_t>(2 + (x >> 12) % (coeff_table - 2));
  }
  unsigned len(std::size_t r, unsigned which) const {
    const uint64_t x = mix(seed ^ (r * 3 + which)) % 10;
    return which == 0 ? (x < 4 ? 3 : 2) : (x < 2 ? 3 : 2);
  }

  struct row_t {
    unsigned na_ = 0, nc = 0;
    uint32_t a_col[3], a_id[3], b_col, b_id, c_col[3], c_id[3];
  };

  static bool has(const uint32_t* c, unsigned n, uint32_t v) { return std::find(c, c + n, v) != c + n; }

  row_t row(std::size_t r) const {
    row_t o;
    // B: ONE or a multiple-of-four aux; searched downwards for a 0/1 value unless aux r is 0.
    const bool a_zero = kinds[ni + r % na] == zero;  // A w can be made 0: B may be random-valued
    std::size_t bc = near(r, 1, 0, true);
    if (bc >= ni) {
      std::size_t aux = (bc - ni) & ~std::size_t{3};
      for (unsigned tries = 0; !a_zero && kinds[ni + aux] == other && tries < 64; ++tries)
        aux = aux >= 4 ? aux - 4 : (na - 1) & ~std::size_t{3};
      bc = kinds[ni + aux] == other && !a_zero ? 0 : ni + aux;  // (64 misses at <= 10% each: never)
    }
    o.b_col = static_cast<uint32_t>(bc);
    o.b_id = h(r, 1, 40) % 10 < 6 ? r1cs::coeff_id_one : r1cs::coeff_id_minus_one;
    const bool b_random = kinds[bc] == other;
    const int b = kinds[bc] == zero || b_random ? 0 : (o.b_id == r1cs::coeff_id_one ? 1 : -1);
    // A: aux r and 1-2 more distinct columns (zero-valued ones when b is random: A w = 0).
    const unsigned la = len(r, 0);
    o.a_col[0] = static_cast<uint32_t>(ni + r % na);
    o.a_id[0] = coeff(r, 0, 0);
    o.na_ = 1;
    for (unsigned j = 0; o.na_ < la && j < 32; ++j) {
      const auto c = static_cast<uint32_t>(near(r, 0, j + 1, !b_random));
      if (b_random && kinds[c] != zero) continue;
      if (has(o.a_col, o.na_, c)) continue;
      o.a_col[o.na_] = c;
      o.a_id[o.na_] = coeff(r, 0, o.na_);
      ++o.na_;
    }
    if (b != 0) {  // C = b A: the pair of a coefficient id is its negation
      o.nc = o.na_;
      for (unsigned j = 0; j < o.na_; ++j) o.c_col[j] = o.a_col[j], o.c_id[j] = b > 0 ? o.a_id[j] : o.a_id[j] ^ 1u;
    } else {  // C over zero-valued aux variables
      const unsigned lc = len(r, 2);
      for (unsigned j = 0; o.nc < lc && j < 64; ++j) {
        std::size_t c = near(r, 2, j, false);
        if (kinds[c] != zero) continue;
        if (has(o.c_col, o.nc, static_cast<uint32_t>(c))) continue;
        o.c_col[o.nc] = static_cast<uint32_t>(c);
        o.c_id[o.nc] = coeff(r, 2, o.nc);
        ++o.nc;
      }
    }
    sort(o.a_col, o.a_id, o.na_);
    sort(o.c_col, o.c_id, o.nc);
    return o;
  }
  static void sort(uint32_t* c, uint32_t* id, unsigned n) {
    for (unsigned i = 1; i < n; ++i)
      for (unsigned j = i; j > 0 && c[j - 1] > c[j]; --j) std::swap(c[j - 1], c[j]), std::swap(id[j - 1], id[j]);
  }
};

}  // namespace

std::size_t porep_like_constraints(unsigned log_m) {
  return static_cast<std::size_t>(static_cast<double>(std::size_t{1} << log_m) * 0.9707);
}

void set_densities(r1cs::r1cs_shape& s) {
  const std::size_t ni = s.num_inputs, na = s.num_aux;
  s.a_aux_density = r1cs::density_bitmap(na);
  s.b_input_density = r1cs::density_bitmap(ni);
  s.b_aux_density = r1cs::density_bitmap(na);
  for (uint32_t col : s.a.cols)
    if (col >= ni) s.a_aux_density.set(col - ni);
  for (uint32_t col : s.b.cols) {
    if (col < ni)
      s.b_input_density.set(col);
    else
      s.b_aux_density.set(col - ni);
  }
}

porep_like_circuit make_porep_like_circuit(std::size_t constraints, std::size_t inputs, base::executor& ex,
                                           uint64_t seed, witness_mix wmix) {
  porep_like_circuit out;
  r1cs::r1cs_shape& s = out.shape;
  const std::size_t ni = std::max<std::size_t>(inputs, 1), na = std::max<std::size_t>(constraints, 1);
  s.num_inputs = ni;
  s.num_constraints = na;
  s.num_aux = na;
  s.coeffs = {fr::one(), -fr::one()};
  mix_rng crng{seed * 7919};
  while (s.coeffs.size() < coeff_table) {
    const fr c = fr::random(crng);
    s.coeffs.push_back(c);
    s.coeffs.push_back(-c);
  }

  // Witness and its kinds.
  std::vector<uint8_t> kinds(ni + na);
  out.inputs.resize(ni);
  out.aux.resize(na);
  out.inputs[0] = fr::one();
  kinds[0] = one;
  for (std::size_t i = 1; i < ni; ++i) out.inputs[i] = fr::from_u64(mix(seed + i)), kinds[i] = other;
  // Per position class (B candidates j % 4 == 0, the rest), per 10,000: below `other` random,
  // below `zero` zero (the zero : one ratio of the mix kept), else one.
  struct thresholds {
    uint64_t other, zero;
  };
  auto class_of = [&](unsigned other) {
    return thresholds{other, other + (10000 - other) * uint64_t{wmix.zero} / (wmix.zero + wmix.one)};
  };
  const unsigned all_other = 10000 - wmix.zero - wmix.one;
  const thresholds b_class = class_of(wmix.b_other),
                   rest_class = class_of((4 * all_other > wmix.b_other ? 4 * all_other - wmix.b_other : 0) / 3);
  ex.parallel_for(na, 1 << 16, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t j = lo; j < hi; ++j) {
      const uint64_t x = mix(seed * 0x2545F4914F6CDD1DULL + j) % 10000;
      const thresholds& t = j % 4 == 0 ? b_class : rest_class;
      mix_rng rng{mix(seed ^ (j << 1)) };
      out.aux[j] = x < t.other ? fr::random(rng) : x < t.zero ? fr::zero() : fr::one();
      kinds[ni + j] = out.aux[j].is_zero() ? zero : out.aux[j] == fr::one() ? one : other;
    }
  });

  // Rows: lengths first (a parallel pass), offsets, then the entries (a second pass).
  const builder bld{ni, na, seed, kinds};
  for (r1cs::csr_matrix* m : {&s.a, &s.b, &s.c}) m->row_ptr.assign(na + 1, 0);
  ex.parallel_for(na, 1 << 14, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t r = lo; r < hi; ++r) {
      const auto o = bld.row(r);
      s.a.row_ptr[r + 1] = o.na_;
      s.b.row_ptr[r + 1] = 1;
      s.c.row_ptr[r + 1] = o.nc;
    }
  });
  for (r1cs::csr_matrix* m : {&s.a, &s.b, &s.c}) {
    for (std::size_t r = 0; r < na; ++r) m->row_ptr[r + 1] += m->row_ptr[r];
    m->cols.resize(m->row_ptr[na]);
    m->coeff_ids.resize(m->row_ptr[na]);
  }
  ex.parallel_for(na, 1 << 14, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t r = lo; r < hi; ++r) {
      const auto o = bld.row(r);
      std::copy(o.a_col, o.a_col + o.na_, s.a.cols.begin() + static_cast<std::ptrdiff_t>(s.a.row_ptr[r]));
      std::copy(o.a_id, o.a_id + o.na_, s.a.coeff_ids.begin() + static_cast<std::ptrdiff_t>(s.a.row_ptr[r]));
      s.b.cols[r] = o.b_col;
      s.b.coeff_ids[r] = o.b_id;
      std::copy(o.c_col, o.c_col + o.nc, s.c.cols.begin() + static_cast<std::ptrdiff_t>(s.c.row_ptr[r]));
      std::copy(o.c_id, o.c_id + o.nc, s.c.coeff_ids.begin() + static_cast<std::ptrdiff_t>(s.c.row_ptr[r]));
    }
  });

  set_densities(s);
  return out;
}

}  // namespace cuzk::cuda
