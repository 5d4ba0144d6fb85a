// Native twin of the Poseidon PoR circuit (see merkle_witness.hpp). Cost per level: one
// Poseidon witness (about 2,000 Fr products for arity 8, or an eighth of a batched IFMA pass)
// and a + 25 stores.
#include "gadgets/native/merkle_witness.hpp"

#include <stdexcept>

#include "gadgets/native/poseidon_batch.hpp"
#include "gadgets/native/poseidon_params.hpp"
#include "gadgets/native/poseidon_witness.hpp"

namespace cuzk::gadgets::native {

namespace {

inline fr bit_value(bool b) { return b ? fr::one() : fr::zero(); }

// Values storage-proofs-core's insert allocates for one level.
std::size_t insert_values(std::size_t arity) {
  switch (arity) {
    case 2: return 2;
    case 4: return 8;
    case 8: return 22;
    default: throw std::invalid_argument("por_poseidon_witness: level arity must be 2, 4 or 8");
  }
}

std::size_t log2_arity(std::size_t arity) { return arity == 2 ? 1 : arity == 4 ? 2 : 3; }

// storage-proofs-core insert_2/4/8 evaluated: writes every pick result (and insert_8's two
// condition bits) to dst in allocation order and the arity children to out; returns the end.
fr* insert(const fr& a, const fr* e, const bool* bit, std::size_t arity, fr* dst, fr* out) {
  auto pick = [&dst](bool cond, const fr& x, const fr& y) {
    *dst = cond ? x : y;
    return *dst++;
  };
  const bool b0 = bit[0];
  if (arity == 2) {
    out[0] = pick(b0, e[0], a);
    out[1] = pick(b0, a, e[0]);
    return dst;
  }
  const bool b1 = bit[1];
  if (arity == 4) {
    const fr &b = e[0], &c = e[1], &d = e[2];
    const fr p0_x0 = pick(b0, b, a);
    out[0] = pick(b1, b, p0_x0);
    const fr p1_x0 = pick(b0, a, b);
    out[1] = pick(b1, c, p1_x0);
    const fr p2_x1 = pick(b0, d, a);
    out[2] = pick(b1, p2_x1, c);
    const fr p3_x1 = pick(b0, a, d);
    out[3] = pick(b1, p3_x1, d);
    return dst;
  }
  const bool b2 = bit[2];
  const bool nor = !b0 && !b1, both = b0 && b1;
  *dst++ = bit_value(nor);
  *dst++ = bit_value(both);
  const fr &b = e[0], &c = e[1], &d = e[2], &ee = e[3], &f = e[4], &g = e[5], &h = e[6];
  const fr p0_xx0 = pick(nor, a, b);
  out[0] = pick(b2, b, p0_xx0);
  const fr p1_x00 = pick(b0, a, b);
  const fr p1_xx0 = pick(b1, c, p1_x00);
  out[1] = pick(b2, c, p1_xx0);
  const fr p2_x10 = pick(b0, d, a);
  const fr p2_xx0 = pick(b1, p2_x10, c);
  out[2] = pick(b2, d, p2_xx0);
  const fr p3_xx0 = pick(both, a, d);
  out[3] = pick(b2, ee, p3_xx0);
  const fr p4_xx1 = pick(nor, a, f);
  out[4] = pick(b2, p4_xx1, ee);
  const fr p5_x01 = pick(b0, a, f);
  const fr p5_xx1 = pick(b1, g, p5_x01);
  out[5] = pick(b2, p5_xx1, f);
  const fr p6_x11 = pick(b0, h, a);
  const fr p6_xx1 = pick(b1, p6_x11, g);
  out[6] = pick(b2, p6_xx1, g);
  const fr p7_xx1 = pick(both, a, h);
  out[7] = pick(b2, p7_xx1, h);
  return dst;
}

// A level's values before its hash witness: index bits, siblings, insertion. Writes the
// children to `children` and returns the position of the hash witness.
fr* level_prefix(const merkle_path_level<fr>& level, const fr& cur, fr* dst, fr* children) {
  const std::size_t arity = level.siblings.size() + 1;
  (void)insert_values(arity);  // validates the arity
  if (level.index >= arity) throw std::invalid_argument("por_poseidon_witness: index beyond the level's arity");
  bool bits[3];
  for (std::size_t j = 0; j < log2_arity(arity); ++j) {
    bits[j] = ((level.index >> j) & 1) != 0;
    *dst++ = bit_value(bits[j]);
  }
  for (const fr& s : level.siblings) *dst++ = s;
  return insert(cur, level.siblings.data(), bits, arity, dst, children);
}

// pack_into_inputs of the LE index bits: the leaf index as a field element (empty path: none).
std::size_t write_inputs(std::span<const merkle_path_level<fr>> path, const fr& root, por_root_visibility v, fr* inputs) {
  std::size_t bits = 0;
  fr packed = fr::zero(), weight = fr::one();
  for (const auto& level : path) {
    const std::size_t arity = level.siblings.size() + 1;
    for (std::size_t j = 0; j < log2_arity(arity); ++j, weight = weight + weight)
      if ((level.index >> j) & 1) packed += weight;
    bits += log2_arity(arity);
  }
  if (bits > 254) throw std::invalid_argument("por_poseidon_witness: more than 254 index bits");
  std::size_t n = 0;
  if (bits > 0) inputs[n++] = packed;
  if (v == por_root_visibility::public_root) inputs[n++] = root;
  return n;
}

}  // namespace

std::size_t por_poseidon_witness_size(const tree_shape& shape) {
  std::size_t n = 2;  // leaf, root
  for (std::size_t a : shape.level_arities)
    n += log2_arity(a) + (a - 1) + insert_values(a) + poseidon_witness_size(poseidon_constants(a));
  return n;
}

fr por_poseidon_witness(const fr& leaf, std::span<const merkle_path_level<fr>> path, const fr& root,
                        por_root_visibility visibility, std::vector<fr>& aux, std::vector<fr>& inputs) {
  tree_shape shape;
  for (const auto& level : path) shape.level_arities.push_back(level.siblings.size() + 1);
  const std::size_t at = aux.size();
  aux.resize(at + por_poseidon_witness_size(shape));
  fr* dst = aux.data() + at;
  *dst++ = leaf;
  fr cur = leaf;
  fr children[8];
  for (const auto& level : path) {
    dst = level_prefix(level, cur, dst, children);
    const poseidon_params& p = poseidon_constants(level.siblings.size() + 1);
    const std::size_t w = poseidon_witness_size(p);
    cur = poseidon_witness(p, p.merkle_domain_tag, std::span<const fr>(children, p.arity), std::span<fr>(dst, w));
    dst += w;
  }
  *dst = root;
  fr in[2];
  inputs.insert(inputs.end(), in, in + write_inputs(path, root, visibility, in));
  return cur;
}

void por_poseidon_witness_batch(std::span<por_witness_job> jobs, por_root_visibility visibility) {
  if (jobs.empty()) return;
  const auto& first = jobs[0].path;
  for (const por_witness_job& j : jobs) {
    if (j.path.size() != first.size()) throw std::invalid_argument("por_poseidon_witness_batch: paths of different shapes");
    for (std::size_t l = 0; l < first.size(); ++l)
      if (j.path[l].siblings.size() != first[l].siblings.size())
        throw std::invalid_argument("por_poseidon_witness_batch: paths of different shapes");
  }
  const std::size_t n = jobs.size();
  std::vector<fr*> cursor(n), rows(n);
  std::vector<fr> children(n * 8), cur(n);
  for (std::size_t k = 0; k < n; ++k) {
    cursor[k] = jobs[k].aux;
    *cursor[k]++ = jobs[k].leaf;
    cur[k] = jobs[k].leaf;
  }
  for (std::size_t l = 0; l < first.size(); ++l) {
    const std::size_t arity = first[l].siblings.size() + 1;
    for (std::size_t k = 0; k < n; ++k) rows[k] = level_prefix(jobs[k].path[l], cur[k], cursor[k], children.data() + k * arity);
    const poseidon_batch_hasher& h = poseidon_batch_for_arity(arity);
    h.witness(children.data(), n, cur.data(), rows.data(), h.params().merkle_domain_tag);
    const std::size_t w = poseidon_witness_size(h.params());
    for (std::size_t k = 0; k < n; ++k) cursor[k] = rows[k] + w;
  }
  for (std::size_t k = 0; k < n; ++k) {
    *cursor[k] = jobs[k].root;
    (void)write_inputs(jobs[k].path, jobs[k].root, visibility, jobs[k].inputs);
    jobs[k].computed_root = cur[k];
  }
}

}  // namespace cuzk::gadgets::native
