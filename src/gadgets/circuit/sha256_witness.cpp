// The SHA-256 witness twin. Each function mirrors its gadget in sha256.hpp / uint32.hpp /
// boolean.hpp operation for operation; the comments name the gadget step they reproduce.
//
// Cost per compression with allocated words (the common case): 48 schedule steps x (2 xor
// words + 34 sum bits) + 64 rounds x (4 xor words + 32 ch + 64 maj values + 2 x 35 sum bits)
// + the 8 final sums, ~26k values, each one 32-byte store; the word arithmetic is negligible.
#include "gadgets/circuit/sha256_witness.hpp"

#include <bit>
#include <cstring>

#include "gadgets/native/sha256_native.hpp"

namespace cuzk::gadgets::witness {

namespace {

// --- words ----------------------------------------------------------------------------------

word rotr(const word& x, int by) { return {std::rotr(x.v, by), std::rotr(x.cm, by), std::rotr(x.nm, by)}; }
// Shifted-in bits are constant false.
word shr(const word& x, int by) { return {x.v >> by, (x.cm >> by) | ~(~0u >> by), x.nm >> by}; }

// Emits bit i of x for each set bit i of mask, in ascending order.
template <class Sink>
inline void put_masked(Sink& sink, uint32_t x, uint32_t mask) {
  if (mask == ~0u) {
    for (int i = 0; i < 32; ++i) sink.put(((x >> i) & 1) != 0);
    return;
  }
  while (mask) {
    const int i = std::countr_zero(mask);
    sink.put(((x >> i) & 1) != 0);
    mask &= mask - 1;
  }
}

// boolean::xor_ per bit: allocated only where both operands are; the allocated variable is the
// xor of the underlying variables; the result is negated iff exactly one side is (a constant
// true operand negates the other side).
template <class Sink>
word xor_words(Sink& sink, const word& a, const word& b) {
  const uint32_t alloc = ~a.cm & ~b.cm;
  put_masked(sink, a.v ^ a.nm ^ b.v ^ b.nm, alloc);
  word r;
  r.v = a.v ^ b.v;
  r.cm = a.cm & b.cm;
  r.nm = (a.nm ^ b.nm ^ (a.cm & a.v) ^ (b.cm & b.v)) & ~r.cm;
  return r;
}

// --- single bits for the constant cases of ch/maj --------------------------------------------

struct pbit {
  bool v, c, n;  // value, constant, negated
};
inline pbit get(const word& w, int i) {
  return {((w.v >> i) & 1) != 0, ((w.cm >> i) & 1) != 0, ((w.nm >> i) & 1) != 0};
}
inline void set(word& w, int i, pbit b) {
  const uint32_t m = 1u << i;
  w.v = b.v ? (w.v | m) : (w.v & ~m);
  w.cm = b.c ? (w.cm | m) : (w.cm & ~m);
  w.nm = b.n ? (w.nm | m) : (w.nm & ~m);
}
inline pbit constant(bool v) { return {v, true, false}; }
inline pbit not_bit(pbit x) { return {!x.v, x.c, x.c ? false : !x.n}; }
inline bool is_const(pbit x, bool v) { return x.c && x.v == v; }

// boolean::and_: constants are free; two allocated operands allocate their AND (as Is).
template <class Sink>
pbit and_bit(Sink& sink, pbit x, pbit y) {
  if (is_const(x, false) || is_const(y, false)) return constant(false);
  if (x.c) return y;
  if (y.c) return x;
  const bool r = x.v && y.v;
  sink.put(r);
  return {r, false, false};
}

template <class Sink>
pbit ch_bit(Sink& sink, pbit a, pbit b, pbit c) {
  const bool v = (a.v && b.v) != (!a.v && c.v);
  if (a.c && b.c && c.c) return constant(v);
  if (is_const(a, false)) return c;
  if (is_const(b, false)) return and_bit(sink, not_bit(a), c);
  if (is_const(c, false)) return and_bit(sink, a, b);
  if (is_const(c, true)) return not_bit(and_bit(sink, a, not_bit(b)));
  if (is_const(b, true)) return not_bit(and_bit(sink, not_bit(a), not_bit(c)));
  sink.put(v);
  return {v, false, false};
}

template <class Sink>
pbit maj_bit(Sink& sink, pbit a, pbit b, pbit c) {
  const bool v = ((a.v && b.v) != (a.v && c.v)) != (b.v && c.v);
  if (a.c && b.c && c.c) return constant(v);
  if (is_const(a, false)) return and_bit(sink, b, c);
  if (is_const(b, false)) return and_bit(sink, a, c);
  if (is_const(c, false)) return and_bit(sink, a, b);
  if (is_const(c, true)) return not_bit(and_bit(sink, not_bit(a), not_bit(b)));
  if (is_const(b, true)) return not_bit(and_bit(sink, not_bit(a), not_bit(c)));
  if (is_const(a, true)) return not_bit(and_bit(sink, not_bit(b), not_bit(c)));
  sink.put(v);                // "maj"
  sink.put(b.v && c.v);       // "b and c" (both allocated here)
  return {v, false, false};
}

// uint32::sha256_ch: bits 0..31; all-allocated words allocate one value per bit.
template <class Sink>
word ch_words(Sink& sink, const word& a, const word& b, const word& c) {
  if ((a.cm | b.cm | c.cm) == 0) {
    const uint32_t v = (a.v & b.v) ^ (~a.v & c.v);
    put_masked(sink, v, ~0u);
    return word::allocated(v);
  }
  word r;
  for (int i = 0; i < 32; ++i) set(r, i, ch_bit(sink, get(a, i), get(b, i), get(c, i)));
  return r;
}

// uint32::sha256_maj: all-allocated words allocate (maj_i, b_i and c_i) per bit.
template <class Sink>
word maj_words(Sink& sink, const word& a, const word& b, const word& c) {
  if ((a.cm | b.cm | c.cm) == 0) {
    const uint32_t v = (a.v & b.v) ^ (a.v & c.v) ^ (b.v & c.v);
    const uint32_t bc = b.v & c.v;
    for (int i = 0; i < 32; ++i) {
      sink.put(((v >> i) & 1) != 0);
      sink.put(((bc >> i) & 1) != 0);
    }
    return word::allocated(v);
  }
  word r;
  for (int i = 0; i < 32; ++i) set(r, i, maj_bit(sink, get(a, i), get(b, i), get(c, i)));
  return r;
}

// uint32::add_many: every bit of the full sum, unless all operand bits are constants.
template <class Sink>
word add_many(Sink& sink, const word* ops, std::size_t n) {
  uint64_t sum = 0;
  bool all_constant = true;
  for (std::size_t k = 0; k < n; ++k) {
    sum += ops[k].v;
    all_constant = all_constant && ops[k].cm == ~0u;
  }
  if (all_constant) return word::constant(static_cast<uint32_t>(sum));
  const int nbits = static_cast<int>(std::bit_width(static_cast<uint64_t>(n) * 0xffffffffull));
  for (int i = 0; i < nbits; ++i) sink.put(((sum >> i) & 1) != 0);
  return word::allocated(static_cast<uint32_t>(sum));
}

struct deferred {
  std::array<word, 8> ops;
  std::size_t n = 0;  // 0: concrete, ops[0]
};

template <class Sink>
word compute(Sink& sink, const deferred& d, const word* extra) {
  if (d.n == 0) return d.ops[0];
  std::array<word, 9> all;
  std::size_t n = 0;
  for (std::size_t k = 0; k < d.n; ++k) all[n++] = d.ops[k];
  if (extra) all[n++] = *extra;
  return add_many(sink, all.data(), n);
}

inline uint32_t load_be32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

// Filecoin's label preimage constant mask (see instances::label_constant_mask), per byte.
std::array<uint8_t, 1248> make_label_mask() {
  std::array<uint8_t, 1248> m{};
  m[31] = 0x80;
  for (int i = 32; i < 36; ++i) m[i] = 0xff;
  for (int i = 44; i < 64; ++i) m[i] = 0xff;
  for (int p = 0; p < 37; ++p) m[64 + 32 * p + 31] = 0x80;
  return m;
}
const std::array<uint8_t, 1248> label_mask = make_label_mask();

}  // namespace

template <class Sink>
std::array<word, 8> compress(Sink& sink, const std::array<word, 16>& in, const std::array<word, 8>& state) {
  std::array<word, 64> w;
  for (int i = 0; i < 16; ++i) w[i] = in[i];
  for (int i = 16; i < 64; ++i) {
    word s0 = xor_words(sink, rotr(w[i - 15], 7), rotr(w[i - 15], 18));
    s0 = xor_words(sink, s0, shr(w[i - 15], 3));
    word s1 = xor_words(sink, rotr(w[i - 2], 17), rotr(w[i - 2], 19));
    s1 = xor_words(sink, s1, shr(w[i - 2], 10));
    const word ops[4] = {w[i - 16], s0, w[i - 7], s1};
    w[i] = add_many(sink, ops, 4);
  }

  deferred a, e;
  a.ops[0] = state[0];
  e.ops[0] = state[4];
  word b = state[1], c = state[2], d = state[3], f = state[5], g = state[6], h = state[7];
  for (int i = 0; i < 64; ++i) {
    const word new_e = compute(sink, e, nullptr);
    word s1 = xor_words(sink, rotr(new_e, 6), rotr(new_e, 11));
    s1 = xor_words(sink, s1, rotr(new_e, 25));
    const word ch = ch_words(sink, new_e, f, g);
    const word new_a = compute(sink, a, nullptr);
    word s0 = xor_words(sink, rotr(new_a, 2), rotr(new_a, 13));
    s0 = xor_words(sink, s0, rotr(new_a, 22));
    const word maj = maj_words(sink, new_a, b, c);
    const word k = word::constant(native::sha256_k[i]);
    e.ops = {h, s1, ch, k, w[i], d};
    e.n = 6;
    a.ops = {h, s1, ch, k, w[i], s0, maj};
    a.n = 7;
    h = g;
    g = f;
    f = new_e;
    d = c;
    c = b;
    b = new_a;
  }

  std::array<word, 8> out;
  out[0] = compute(sink, a, &state[0]);
  const word* bcd[3] = {&b, &c, &d};
  for (int j = 1; j <= 3; ++j) {
    const word ops[2] = {state[j], *bcd[j - 1]};
    out[j] = add_many(sink, ops, 2);
  }
  out[4] = compute(sink, e, &state[4]);
  const word* fgh[3] = {&f, &g, &h};
  for (int j = 5; j <= 7; ++j) {
    const word ops[2] = {state[j], *fgh[j - 5]};
    out[j] = add_many(sink, ops, 2);
  }
  return out;
}

template <class Sink>
std::array<word, 8> sha256(Sink& sink, message_view msg) {
  const std::size_t len = msg.bytes.size();
  const bool has_mask = !msg.constant_mask.empty();
  // Padded length: message, 0x80, zeros, 8-byte length; the padding is constant.
  const std::size_t padded = (len + 8) / 64 * 64 + 64;
  std::array<word, 8> state;
  for (int i = 0; i < 8; ++i) state[i] = word::constant(native::sha256_iv[i]);
  uint8_t block[64], mask[64];
  const uint64_t bit_len = static_cast<uint64_t>(len) * 8;
  for (std::size_t off = 0; off < padded; off += 64) {
    for (std::size_t j = 0; j < 64; ++j) {
      const std::size_t p = off + j;
      if (p < len) {
        block[j] = msg.bytes[p];
        mask[j] = has_mask ? msg.constant_mask[p] : 0;
      } else {
        mask[j] = 0xff;
        if (p == len) block[j] = 0x80;
        else if (p >= padded - 8) block[j] = static_cast<uint8_t>(bit_len >> (8 * (padded - 1 - p)));
        else block[j] = 0;
      }
    }
    std::array<word, 16> in;
    for (int i = 0; i < 16; ++i) {
      const uint32_t cm = load_be32(mask + 4 * i);
      in[i] = {load_be32(block + 4 * i), cm, 0};
    }
    state = compress(sink, in, state);
  }
  return state;
}

template <class Sink>
fr label(Sink& sink, std::span<const uint8_t, 1248> preimage) {
  const std::array<word, 8> s = sha256(sink, message_view{preimage, label_mask});
  // reverse_bit_numbering + pack_bits of the first 254 bits = the digest bytes read
  // little-endian with the top two bits cleared.
  uint8_t digest[32];
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j) digest[4 * i + j] = static_cast<uint8_t>(s[i].v >> (24 - 8 * j));
  digest[31] &= 0x3f;
  fr x;
  fr::from_bytes_le(digest, x);  // < 2^254 < r: always canonical
  sink.put_fr(x);
  return x;
}

std::size_t label_aux_count() {
  static const std::size_t n = [] {
    counting_sink c;
    const std::array<uint8_t, 1248> zero{};
    label(c, std::span<const uint8_t, 1248>(zero));
    return c.n;
  }();
  return n;
}

template std::array<word, 8> compress(buffer_sink&, const std::array<word, 16>&, const std::array<word, 8>&);
template std::array<word, 8> compress(counting_sink&, const std::array<word, 16>&, const std::array<word, 8>&);
template std::array<word, 8> sha256(buffer_sink&, message_view);
template std::array<word, 8> sha256(counting_sink&, message_view);
template fr label(buffer_sink&, std::span<const uint8_t, 1248>);
template fr label(counting_sink&, std::span<const uint8_t, 1248>);

}  // namespace cuzk::gadgets::witness
