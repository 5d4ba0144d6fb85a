// Field-element gadgets with bellpepper-core 0.2.x shapes (bpc:src/gadgets/num.rs):
// allocated_num (one variable), num (a linear combination with its value), the bit
// decompositions, and the selection gadgets Filecoin's Merkle circuits use (pick/select from
// storage-proofs-core gadgets/insertion.rs). See boolean.hpp for the exactness contract.
//
// Costs (constraints / aux):
//   alloc 0/1; inputize 1/0 (+1 input); add, mul, square 1/1; assert_nonzero 1/1;
//   to_bits_le 256/255 (255 boolean bits + the unpacking constraint 0 * 0 = sum 2^i b_i - x;
//   non-strict: the bits may encode x + r); to_bits_le_strict 255 + runs + 1 (the bits are the
//   canonical encoding: the decomposition is forced below r by the run-AND chain over r - 1's bits);
//   conditionally_reverse 2/2; pick 1/1; select over 2^k values (2^k - 1)/(2^k - 1).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "gadgets/circuit/boolean.hpp"
#include "gadgets/circuit/gadget_support.hpp"

namespace cuzk::gadgets {

struct allocated_num {
  r1cs::variable var;
  fr value = fr::zero();  // meaningful only when the CS computes values

  // One aux variable named "num". f: a value function (returns fr or result<fr>).
  template <r1cs::constraint_system CS, r1cs::value_function F>
  static r1cs::result<allocated_num> alloc(CS& cs, F&& f) {
    allocated_num n;
    CUZK_R1CS_TRY(n.var, cs.alloc("num", [&]() -> r1cs::result<fr> {
      r1cs::result<fr> r = r1cs::call_value_function(f);
      if (r) n.value = *r;
      return r;
    }));
    return n;
  }

  // One input variable named "input num".
  template <r1cs::constraint_system CS, r1cs::value_function F>
  static r1cs::result<allocated_num> alloc_input(CS& cs, F&& f) {
    allocated_num n;
    CUZK_R1CS_TRY(n.var, cs.alloc_input("input num", [&]() -> r1cs::result<fr> {
      r1cs::result<fr> r = r1cs::call_value_function(f);
      if (r) n.value = *r;
      return r;
    }));
    return n;
  }

  // A new input "input variable" equal to this: input * ONE = x.
  template <r1cs::constraint_system CS>
  r1cs::result<void> inputize(CS& cs) const {
    CUZK_R1CS_TRY(r1cs::variable input, cs.alloc_input("input variable", [&] { return value; }));
    cs.enforce("enforce input is correct", [&](lc_t lc) { return lc + input; },
               [](lc_t lc) { return lc + CS::one(); }, [&](lc_t lc) { return lc + var; });
    return r1cs::ok();
  }

  // Non-strict LE decomposition (bellpepper's to_bits_le, the one Filecoin uses): 255 bits
  // (namespaces "bit i"), then "unpacking constraint" 0 * 0 = sum 2^i b_i - x.
  template <r1cs::constraint_system CS>
  r1cs::result<std::vector<boolean>> to_bits_le(CS& cs) const {
    CUZK_R1CS_TRY(std::vector<allocated_bit> bits, field_into_allocated_bits_le(cs, value));
    enforce_unpacking(cs, bits);
    return std::vector<boolean>(bits.begin(), bits.end());
  }

  // Strict LE decomposition (bellpepper's to_bits_le_strict): walks the bits of r - 1 from the
  // top; a 1 bit of r - 1 allocates a plain bit and extends the current run, a 0 bit first
  // closes the run (AND of its bits and the previous run's AND, namespaces "run ending at i" /
  // "and k") and then allocates a bit that may be 1 only if that AND is 0. Then the unpacking
  // constraint as in to_bits_le.
  template <r1cs::constraint_system CS>
  r1cs::result<std::vector<boolean>> to_bits_le_strict(CS& cs) const {
    constexpr std::size_t nbits = fr::bits;  // 255: bit 254 of r - 1 is its top 1
    const fr::repr r_minus_1 = (-fr::one()).to_canonical();
    fr::repr canon{};
    if constexpr (CS::computes_values) canon = value.to_canonical();
    auto bit_of = [](const fr::repr& x, std::size_t k) { return ((x.w[k / 64] >> (k % 64)) & 1) != 0; };

    std::vector<allocated_bit> msb_first;
    msb_first.reserve(nbits);
    std::vector<allocated_bit> current_run;
    bool have_last_run = false;
    allocated_bit last_run;
    std::size_t i = 0;
    for (std::size_t k = nbits; k-- > 0; ++i) {
      const bool a_bit = bit_of(canon, k);
      if (bit_of(r_minus_1, k)) {
        r1cs::scoped_namespace ns(cs, [i] { return "bit " + std::to_string(i); });
        CUZK_R1CS_TRY(allocated_bit b, allocated_bit::alloc(cs, a_bit));
        current_run.push_back(b);
        msb_first.push_back(b);
        continue;
      }
      if (!current_run.empty()) {
        if (have_last_run) current_run.push_back(last_run);
        r1cs::scoped_namespace ns(cs, [i] { return "run ending at " + std::to_string(i); });
        allocated_bit cur = current_run[0];
        for (std::size_t j = 1; j < current_run.size(); ++j) {
          r1cs::scoped_namespace ns2(cs, [j] { return "and " + std::to_string(j); });
          CUZK_R1CS_TRY(cur, allocated_bit::and_(cs, cur, current_run[j]));
        }
        last_run = cur;
        have_last_run = true;
        current_run.clear();
      }
      r1cs::scoped_namespace ns(cs, [i] { return "bit " + std::to_string(i); });
      CUZK_R1CS_TRY(allocated_bit b, allocated_bit::alloc_conditionally(cs, a_bit, last_run));
      msb_first.push_back(b);
    }
    std::vector<allocated_bit> le(msb_first.rbegin(), msb_first.rend());
    enforce_unpacking(cs, le);
    return std::vector<boolean>(le.begin(), le.end());
  }

  // sum = a + b: (a + b) * ONE = sum ("sum num", "addition constraint").
  template <r1cs::constraint_system CS>
  r1cs::result<allocated_num> add(CS& cs, const allocated_num& other) const {
    return binary(cs, "sum num", "addition constraint", value + other.value,
                  [&](lc_t lc) { return lc + var + other.var; }, [](lc_t lc) { return lc + CS::one(); });
  }
  // product = a * b ("product num", "multiplication constraint").
  template <r1cs::constraint_system CS>
  r1cs::result<allocated_num> mul(CS& cs, const allocated_num& other) const {
    return binary(cs, "product num", "multiplication constraint", value * other.value,
                  [&](lc_t lc) { return lc + var; }, [&](lc_t lc) { return lc + other.var; });
  }
  // x^2 ("squared num", "squaring constraint").
  template <r1cs::constraint_system CS>
  r1cs::result<allocated_num> square(CS& cs) const {
    return binary(cs, "squared num", "squaring constraint", value * value,
                  [&](lc_t lc) { return lc + var; }, [&](lc_t lc) { return lc + var; });
  }

  // x * inv = ONE with inv allocated ("ephemeral inverse"); division_by_zero if x = 0.
  template <r1cs::constraint_system CS>
  r1cs::result<void> assert_nonzero(CS& cs) const {
    CUZK_R1CS_TRY(r1cs::variable inv, cs.alloc("ephemeral inverse", [&]() -> r1cs::result<fr> {
      if (value.is_zero()) return r1cs::synthesis_error::division_by_zero;
      return value.inverse();
    }));
    cs.enforce("nonzero assertion constraint", [&](lc_t lc) { return lc + var; }, [&](lc_t lc) { return lc + inv; },
               [](lc_t lc) { return lc + CS::one(); });
    return r1cs::ok();
  }

  // (c, d) = condition ? (b, a) : (a, b) (bellpepper's conditionally_reverse, the conditional
  // swap): c in "conditional reversal result 1", (a - b) * cond = a - c; d likewise.
  template <r1cs::constraint_system CS>
  static r1cs::result<std::pair<allocated_num, allocated_num>> conditionally_reverse(CS& cs, const allocated_num& a,
                                                                                       const allocated_num& b,
                                                                                       const boolean& condition) {
    const bool cond = condition.get_value();
    const fr one = fr::one();
    allocated_num c, d;
    {
      r1cs::scoped_namespace ns(cs, "conditional reversal result 1");
      CUZK_R1CS_TRY(c, alloc(cs, [&] { return cond ? b.value : a.value; }));
    }
    cs.enforce("first conditional reversal", [&](lc_t lc) { return lc + a.var - b.var; },
               [&](lc_t) { return condition.lc(CS::one(), one); }, [&](lc_t lc) { return lc + a.var - c.var; });
    {
      r1cs::scoped_namespace ns(cs, "conditional reversal result 2");
      CUZK_R1CS_TRY(d, alloc(cs, [&] { return cond ? a.value : b.value; }));
    }
    cs.enforce("second conditional reversal", [&](lc_t lc) { return lc + b.var - a.var; },
               [&](lc_t) { return condition.lc(CS::one(), one); }, [&](lc_t lc) { return lc + b.var - d.var; });
    return std::pair{c, d};
  }

 private:
  template <r1cs::constraint_system CS>
  void enforce_unpacking(CS& cs, const std::vector<allocated_bit>& le_bits) const {
    cs.enforce("unpacking constraint", [](lc_t lc) { return lc; }, [](lc_t lc) { return lc; }, [&](lc_t) {
      lc_t lc;
      lc.reserve(le_bits.size() + 1);
      fr coeff = fr::one();
      for (const allocated_bit& b : le_bits) {
        lc.add_term(b.var, coeff);
        coeff = coeff + coeff;
      }
      lc.sub_term(var, fr::one());
      return lc;
    });
  }

  template <r1cs::constraint_system CS, class LA, class LB>
  // One new variable r = v and the constraint la * lb = r (add, mul, square).
  static r1cs::result<allocated_num> binary(CS& cs, const char* value_name, const char* constraint_name, const fr& v,
                                            LA&& la, LB&& lb) {
    allocated_num r;
    if constexpr (CS::computes_values) r.value = v;
    CUZK_R1CS_TRY(r.var, cs.alloc(value_name, [&] { return r.value; }));
    cs.enforce(constraint_name, std::forward<LA>(la), std::forward<LB>(lb), [&](lc_t lc) { return lc + r.var; });
    return r;
  }
};

// bellpepper's Num: a linear combination with its value (no variable of its own).
struct num {
  lc_t lc;
  fr value = fr::zero();

  static num zero() { return {}; }
  static num from(const allocated_num& n) { return {lc_t(n.var), n.value}; }

  // coeff * lc (bellpepper's Num::lc: zero + (coeff, &lc)).
  lc_t scaled_lc(const fr& coeff) const {
    lc_t r;
    r.add_scaled(coeff, lc);
    return r;
  }
  // += coeff * bit.
  num& add_bool_with_coeff(r1cs::variable one, const boolean& bit, const fr& coeff) {
    if (bit.get_value()) value += coeff;
    bit.add_lc_to(lc, one, coeff);
    return *this;
  }
  num& add(const num& other) {
    lc += other.lc;
    value += other.value;
    return *this;
  }
  num& scale(const fr& s) {
    lc *= s;
    value *= s;
    return *this;
  }
};

// storage-proofs-core's pick: c = condition ? a : b; "pick result" num, then
// "pick": (b - a) * condition = b - c.
template <r1cs::constraint_system CS>
r1cs::result<allocated_num> pick(CS& cs, const boolean& condition, const allocated_num& a, const allocated_num& b) {
  allocated_num c;
  {
    r1cs::scoped_namespace ns(cs, "pick result");
    CUZK_R1CS_TRY(c, allocated_num::alloc(cs, [&] { return condition.get_value() ? a.value : b.value; }));
  }
  cs.enforce("pick", [&](lc_t lc) { return lc + b.var - a.var; },
             [&](lc_t) { return condition.lc(CS::one(), fr::one()); }, [&](lc_t lc) { return lc + b.var - c.var; });
  return c;
}

// storage-proofs-core's select: from[index] where index = path_bits read LE; consumes the bits
// most significant first, halving the candidates with picks named "pick i, j".
// Precondition: from.size() == 2^path_bits.size().
template <r1cs::constraint_system CS>
r1cs::result<allocated_num> select(CS& cs, const std::vector<allocated_num>& from, const std::vector<boolean>& path_bits) {
  std::vector<allocated_num> state = from;
  std::size_t half = from.size() / 2;
  std::size_t i = 0;
  for (auto it = path_bits.rbegin(); it != path_bits.rend(); ++it, ++i) {
    std::vector<allocated_num> next;
    next.reserve(half);
    for (std::size_t j = 0; j < half; ++j) {
      r1cs::scoped_namespace ns(cs, [i, j] { return "pick " + std::to_string(i) + ", " + std::to_string(j); });
      CUZK_R1CS_TRY(allocated_num p, pick(cs, *it, state[half + j], state[j]));
      next.push_back(p);
    }
    state = std::move(next);
    half /= 2;
  }
  return state.front();
}

}  // namespace cuzk::gadgets
