// Boolean gadgets with bellpepper-core 0.2.x constraint shapes (bpc:src/gadgets/boolean.rs):
// allocated_bit (a variable constrained to 0/1) and boolean (a constant, an allocated bit, or
// the negation of one, which costs nothing). Every gadget is a template over the constraint
// system CS (r1cs/constraint_system.hpp), so one source serves the shape recorder, the witness
// builder and the test system.
//
// Exactness: the variables a gadget allocates, the order of allocation, the constraints it
// enforces (order, A/B/C terms, coefficients) and the constant special cases are those of
// bellpepper, because Filecoin's published parameters bind them. Names follow bellpepper's too,
// but names are not part of the shape hash (bellpepper's TestConstraintSystem::hash covers
// counts and linear combinations only); they matter for test_system path uniqueness and for
// diagnostics.
//
// Values: while CS::computes_values is false (recording a shape), value functions are never
// called and the `value` members hold garbage-free defaults (false / zero) that nothing reads.
//
// Costs (constraints / aux variables): alloc 1/1; xor, and, and_not, nor 1/1 each;
// boolean::xor/and 0/0 when an operand is constant; sha256_ch 1/1 in the general case;
// sha256_maj 2/2 in the general case.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gadgets/circuit/gadget_support.hpp"

namespace cuzk::gadgets {

// A variable constrained to be boolean: (1 - b) * b = 0.
struct allocated_bit {
  r1cs::variable var;
  bool value = false;  // the variable's value (meaningful only when the CS computes values)

  // bellpepper's AllocatedBit::alloc: one aux "boolean", constraint "boolean constraint"
  // (ONE - b) * b = 0.
  template <r1cs::constraint_system CS>
  static r1cs::result<allocated_bit> alloc(CS& cs, bool value) {
    CUZK_R1CS_TRY(r1cs::variable v, cs.alloc("boolean", [&] { return bit_fr(value); }));
    cs.enforce("boolean constraint", [&](lc_t lc) { return lc + CS::one() - v; },
               [&](lc_t lc) { return lc + v; }, [](lc_t lc) { return lc; });
    return allocated_bit{v, value};
  }

  // bellpepper's alloc_conditionally: (ONE - must_be_false - b) * b = 0, so b may be 1 only
  // while must_be_false is 0 (used by to_bits_le_strict).
  template <r1cs::constraint_system CS>
  static r1cs::result<allocated_bit> alloc_conditionally(CS& cs, bool value, const allocated_bit& must_be_false) {
    CUZK_R1CS_TRY(r1cs::variable v, cs.alloc("boolean", [&] { return bit_fr(value); }));
    cs.enforce("boolean constraint",
               [&](lc_t lc) { return lc + CS::one() - must_be_false.var - v; },
               [&](lc_t lc) { return lc + v; }, [](lc_t lc) { return lc; });
    return allocated_bit{v, value};
  }

  // r = a xor b: (a + a) * b = a + b - r.
  template <r1cs::constraint_system CS>
  static r1cs::result<allocated_bit> xor_(CS& cs, const allocated_bit& a, const allocated_bit& b) {
    const bool rv = a.value != b.value;
    CUZK_R1CS_TRY(r1cs::variable r, cs.alloc("xor result", [&] { return bit_fr(rv); }));
    cs.enforce("xor constraint", [&](lc_t lc) { return lc + a.var + a.var; }, [&](lc_t lc) { return lc + b.var; },
               [&](lc_t lc) { return lc + a.var + b.var - r; });
    return allocated_bit{r, rv};
  }

  // r = a and b: a * b = r.
  template <r1cs::constraint_system CS>
  static r1cs::result<allocated_bit> and_(CS& cs, const allocated_bit& a, const allocated_bit& b) {
    const bool rv = a.value && b.value;
    CUZK_R1CS_TRY(r1cs::variable r, cs.alloc("and result", [&] { return bit_fr(rv); }));
    cs.enforce("and constraint", [&](lc_t lc) { return lc + a.var; }, [&](lc_t lc) { return lc + b.var; },
               [&](lc_t lc) { return lc + r; });
    return allocated_bit{r, rv};
  }

  // r = a and (not b): a * (ONE - b) = r.
  template <r1cs::constraint_system CS>
  static r1cs::result<allocated_bit> and_not(CS& cs, const allocated_bit& a, const allocated_bit& b) {
    const bool rv = a.value && !b.value;
    CUZK_R1CS_TRY(r1cs::variable r, cs.alloc("and not result", [&] { return bit_fr(rv); }));
    cs.enforce("and not constraint", [&](lc_t lc) { return lc + a.var; },
               [&](lc_t lc) { return lc + CS::one() - b.var; }, [&](lc_t lc) { return lc + r; });
    return allocated_bit{r, rv};
  }

  // r = (not a) and (not b): (ONE - a) * (ONE - b) = r.
  template <r1cs::constraint_system CS>
  static r1cs::result<allocated_bit> nor(CS& cs, const allocated_bit& a, const allocated_bit& b) {
    const bool rv = !a.value && !b.value;
    CUZK_R1CS_TRY(r1cs::variable r, cs.alloc("nor result", [&] { return bit_fr(rv); }));
    cs.enforce("nor constraint", [&](lc_t lc) { return lc + CS::one() - a.var; },
               [&](lc_t lc) { return lc + CS::one() - b.var; }, [&](lc_t lc) { return lc + r; });
    return allocated_bit{r, rv};
  }
};

// bellpepper's Boolean: Constant(c) | Is(bit) | Not(bit).
class boolean {
 public:
  enum class kind : uint8_t { constant, is, negated };

  boolean() = default;  // constant false
  boolean(const allocated_bit& b) : kind_(kind::is), var_(b.var), value_(b.value) {}  // NOLINT: Boolean::from
  static boolean constant(bool c) {
    boolean r;
    r.value_ = c;
    return r;
  }
  static boolean negated(const allocated_bit& b) {
    boolean r(b);
    r.kind_ = kind::negated;
    return r;
  }

  kind get_kind() const { return kind_; }
  bool is_constant() const { return kind_ == kind::constant; }
  bool is_allocated() const { return kind_ != kind::constant; }
  // The boolean's value (negation applied); meaningful when values are computed or constant.
  bool get_value() const { return kind_ == kind::negated ? !value_ : value_; }
  // The underlying bit (precondition: !is_constant()).
  allocated_bit bit() const { return allocated_bit{var_, value_}; }
  r1cs::variable variable() const { return var_; }

  // Constant(c) -> c*coeff*ONE (or nothing), Is(b) -> coeff*b, Not(b) -> coeff*ONE - coeff*b.
  lc_t lc(r1cs::variable one, const fr& coeff) const {
    lc_t r;
    switch (kind_) {
      case kind::constant:
        if (value_) r.add_term(one, coeff);
        break;
      case kind::is: r.add_term(var_, coeff); break;
      case kind::negated:
        r.add_term(one, coeff);
        r.sub_term(var_, coeff);
        break;
    }
    return r;
  }
  // Adds the same terms to `out` (no temporary).
  void add_lc_to(lc_t& out, r1cs::variable one, const fr& coeff) const {
    switch (kind_) {
      case kind::constant:
        if (value_) out.add_term(one, coeff);
        break;
      case kind::is: out.add_term(var_, coeff); break;
      case kind::negated:
        out.add_term(one, coeff);
        out.sub_term(var_, coeff);
        break;
    }
  }

  boolean not_() const {
    boolean r = *this;
    if (kind_ == kind::constant) r.value_ = !value_;
    else r.kind_ = kind_ == kind::is ? kind::negated : kind::is;
    return r;
  }

  // --- combinators (bellpepper's match arms, in order) ---------------------------------------

  template <r1cs::constraint_system CS>
  static r1cs::result<boolean> xor_(CS& cs, const boolean& a, const boolean& b) {
    if (a.is_const(false)) return b;
    if (b.is_const(false)) return a;
    if (a.is_const(true)) return b.not_();
    if (b.is_const(true)) return a.not_();
    if (a.kind_ != b.kind_) {  // Is xor Not = not(Is xor Is)
      const boolean& is = a.kind_ == kind::is ? a : b;
      const boolean& nt = a.kind_ == kind::is ? b : a;
      CUZK_R1CS_TRY(boolean r, xor_(cs, is, nt.not_()));
      return r.not_();
    }
    CUZK_R1CS_TRY(allocated_bit r, allocated_bit::xor_(cs, a.bit(), b.bit()));
    return boolean(r);
  }

  template <r1cs::constraint_system CS>
  static r1cs::result<boolean> and_(CS& cs, const boolean& a, const boolean& b) {
    if (a.is_const(false) || b.is_const(false)) return constant(false);
    if (a.is_const(true)) return b;
    if (b.is_const(true)) return a;
    if (a.kind_ == kind::is && b.kind_ == kind::negated) {
      CUZK_R1CS_TRY(allocated_bit r, allocated_bit::and_not(cs, a.bit(), b.bit()));
      return boolean(r);
    }
    if (a.kind_ == kind::negated && b.kind_ == kind::is) {
      CUZK_R1CS_TRY(allocated_bit r, allocated_bit::and_not(cs, b.bit(), a.bit()));
      return boolean(r);
    }
    if (a.kind_ == kind::negated) {
      CUZK_R1CS_TRY(allocated_bit r, allocated_bit::nor(cs, a.bit(), b.bit()));
      return boolean(r);
    }
    CUZK_R1CS_TRY(allocated_bit r, allocated_bit::and_(cs, a.bit(), b.bit()));
    return boolean(r);
  }

  // not(and(not a, not b)) inside namespace "not and (not a) (not b)".
  template <r1cs::constraint_system CS>
  static r1cs::result<boolean> or_(CS& cs, const boolean& a, const boolean& b) {
    r1cs::scoped_namespace ns(cs, "not and (not a) (not b)");
    CUZK_R1CS_TRY(boolean r, and_(cs, a.not_(), b.not_()));
    return r.not_();
  }

  // Constant cases as bellpepper: both constant -> check; one true -> 0*0 = ONE - x; one
  // false -> 0*0 = x; else 0*0 = a - b.
  template <r1cs::constraint_system CS>
  static r1cs::result<void> enforce_equal(CS& cs, const boolean& a, const boolean& b) {
    if (a.is_constant() && b.is_constant()) {
      if (a.value_ == b.value_) return r1cs::ok();
      return r1cs::synthesis_error::unsatisfiable;
    }
    const fr one = fr::one();
    if (a.is_const(true) || b.is_const(true)) {
      const boolean& x = a.is_const(true) ? b : a;
      cs.enforce("enforce equal to one", [](lc_t lc) { return lc; }, [](lc_t lc) { return lc; },
                 [&](lc_t lc) { return lc + CS::one() - x.lc(CS::one(), one); });
      return r1cs::ok();
    }
    if (a.is_const(false) || b.is_const(false)) {
      const boolean& x = a.is_const(false) ? b : a;
      cs.enforce("enforce equal to zero", [](lc_t lc) { return lc; }, [](lc_t lc) { return lc; },
                 [&](lc_t) { return x.lc(CS::one(), one); });
      return r1cs::ok();
    }
    cs.enforce("enforce equal", [](lc_t lc) { return lc; }, [](lc_t lc) { return lc; },
               [&](lc_t) { return a.lc(CS::one(), one) - b.lc(CS::one(), one); });
    return r1cs::ok();
  }

  // SHA-256 Ch(a, b, c) = (a and b) xor ((not a) and c), with bellpepper's constant shortcuts;
  // general case: alloc "ch", (b - c) * a = ch - c.
  template <r1cs::constraint_system CS>
  static r1cs::result<boolean> sha256_ch(CS& cs, const boolean& a, const boolean& b, const boolean& c) {
    const bool av = a.get_value(), bv = b.get_value(), cv = c.get_value();
    const bool ch_value = (av && bv) != (!av && cv);
    if (a.is_constant() && b.is_constant() && c.is_constant()) return constant(ch_value);
    if (a.is_const(false)) return c;
    if (b.is_const(false)) return and_(cs, a.not_(), c);
    if (c.is_const(false)) return and_(cs, a, b);
    if (c.is_const(true)) {
      CUZK_R1CS_TRY(boolean r, and_(cs, a, b.not_()));
      return r.not_();
    }
    if (b.is_const(true)) {
      CUZK_R1CS_TRY(boolean r, and_(cs, a.not_(), c.not_()));
      return r.not_();
    }
    // a constant true, or all three allocated.
    CUZK_R1CS_TRY(r1cs::variable ch, cs.alloc("ch", [&] { return bit_fr(ch_value); }));
    const fr one = fr::one();
    cs.enforce("ch computation", [&](lc_t) { return b.lc(CS::one(), one) - c.lc(CS::one(), one); },
               [&](lc_t) { return a.lc(CS::one(), one); },
               [&](lc_t lc) { return lc + ch - c.lc(CS::one(), one); });
    return boolean(allocated_bit{ch, ch_value});
  }

  // SHA-256 Maj(a, b, c), with bellpepper's constant shortcuts; general case: alloc "maj",
  // bc = and(b, c) in namespace "b and c", then (2bc - b - c) * a = bc - maj.
  template <r1cs::constraint_system CS>
  static r1cs::result<boolean> sha256_maj(CS& cs, const boolean& a, const boolean& b, const boolean& c) {
    const bool av = a.get_value(), bv = b.get_value(), cv = c.get_value();
    const bool maj_value = ((av && bv) != (av && cv)) != (bv && cv);
    if (a.is_constant() && b.is_constant() && c.is_constant()) return constant(maj_value);
    if (a.is_const(false)) return and_(cs, b, c);
    if (b.is_const(false)) return and_(cs, a, c);
    if (c.is_const(false)) return and_(cs, a, b);
    if (c.is_const(true)) {
      CUZK_R1CS_TRY(boolean r, and_(cs, a.not_(), b.not_()));
      return r.not_();
    }
    if (b.is_const(true)) {
      CUZK_R1CS_TRY(boolean r, and_(cs, a.not_(), c.not_()));
      return r.not_();
    }
    if (a.is_const(true)) {
      CUZK_R1CS_TRY(boolean r, and_(cs, b.not_(), c.not_()));
      return r.not_();
    }
    CUZK_R1CS_TRY(r1cs::variable maj, cs.alloc("maj", [&] { return bit_fr(maj_value); }));
    boolean bc;
    {
      r1cs::scoped_namespace ns(cs, "b and c");
      CUZK_R1CS_TRY(boolean t, and_(cs, b, c));
      bc = t;
    }
    const fr one = fr::one();
    cs.enforce("maj computation",
               [&](lc_t) {
                 lc_t r = bc.lc(CS::one(), one);
                 r += bc.lc(CS::one(), one);
                 r -= b.lc(CS::one(), one);
                 r -= c.lc(CS::one(), one);
                 return r;
               },
               [&](lc_t) { return a.lc(CS::one(), one); },
               [&](lc_t) { return bc.lc(CS::one(), one) - maj; });
    return boolean(allocated_bit{maj, maj_value});
  }

 private:
  bool is_const(bool c) const { return kind_ == kind::constant && value_ == c; }

  kind kind_ = kind::constant;
  r1cs::variable var_{};
  bool value_ = false;  // constant value, or the underlying variable's value
};

// bellpepper's u64_into_boolean_vec_le: 64 allocated bits, LE, namespaces "bit i".
template <r1cs::constraint_system CS>
r1cs::result<std::vector<boolean>> u64_into_boolean_vec_le(CS& cs, uint64_t value) {
  std::vector<boolean> bits;
  bits.reserve(64);
  for (unsigned i = 0; i < 64; ++i) {
    r1cs::scoped_namespace ns(cs, [i] { return "bit " + std::to_string(i); });
    CUZK_R1CS_TRY(allocated_bit b, allocated_bit::alloc(cs, ((value >> i) & 1) != 0));
    bits.emplace_back(b);
  }
  return bits;
}

// bellpepper's field_into_allocated_bits_le: the 255 low bits of the canonical value (Fr has
// 255 bits: every bit below the modulus's top bit), allocated LE in namespaces "bit i".
// Precondition when values are computed: value is canonical (always true for fr).
template <r1cs::constraint_system CS>
r1cs::result<std::vector<allocated_bit>> field_into_allocated_bits_le(CS& cs, const fr& value) {
  constexpr std::size_t nbits = fr::bits;  // 255
  std::vector<allocated_bit> bits;
  bits.reserve(nbits);
  fr::repr canon{};
  if constexpr (CS::computes_values) canon = value.to_canonical();
  for (std::size_t i = 0; i < nbits; ++i) {
    const bool b = ((canon.w[i / 64] >> (i % 64)) & 1) != 0;
    r1cs::scoped_namespace ns(cs, [i] { return "bit " + std::to_string(i); });
    CUZK_R1CS_TRY(allocated_bit ab, allocated_bit::alloc(cs, b));
    bits.push_back(ab);
  }
  return bits;
}

template <r1cs::constraint_system CS>
r1cs::result<std::vector<boolean>> field_into_boolean_vec_le(CS& cs, const fr& value) {
  CUZK_R1CS_TRY(std::vector<allocated_bit> bits, field_into_allocated_bits_le(cs, value));
  return std::vector<boolean>(bits.begin(), bits.end());
}

}  // namespace cuzk::gadgets
