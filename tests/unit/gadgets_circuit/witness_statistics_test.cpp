// Witness value statistics of Filecoin's 32 GiB PoRep partition circuit, measured on the
// assignments our gadgets compute (witness_builder) from seeded random inputs: the fraction of
// aux values equal to 0, 1, -1 and anything else, per piece of the circuit, and the coefficient
// mix of the matrices. docs/porep-witness-statistics.md has the figures and the method.
//
// The partition is composed here from our gadgets exactly as rust-fil-proofs'
// storage-proofs-porep StackedCircuit::synthesize and stacked/circuit/params.rs
// Proof::synthesize do it (32 GiB: 11 layers, 6 DRG + 8 expander parents, TreeD binary SHA-256
// of 2^30 leaves, TreeC and TreeR Poseidon 8-8-0, 18 challenges per partition), and its counts
// are checked against the upstream figures (130,278,869 constraints with the 328 input
// constraints, 130,169,893 aux, 328 inputs). One challenge is synthesized; the 18 challenges of
// a partition have the same structure and independent random values.
//
// Invariants checked: a SHA-256 compression's aux are all boolean; in the partition every aux of
// the SHA-256 pieces (label hashes, TreeD path) is boolean except the packed digests and the
// path numbers, and every bit decomposition is boolean. Fractions are printed, not pinned.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "gadgets/circuit/gadget_instances.hpp"
#include "gadgets/circuit/merkle_circuit.hpp"
#include "gadgets/circuit/poseidon_circuit.hpp"
#include "gadgets/circuit/sha256_label.hpp"
#include "gadgets/native/poseidon_params.hpp"
#include "r1cs/r1cs.hpp"
#include "support/seed.hpp"

namespace cuzk::gadgets {
namespace {

using r1cs::fr;
using path_t = std::vector<native::merkle_path_level<fr>>;

// --- counting ----------------------------------------------------------------------------------

struct tally {
  std::size_t zero = 0, one = 0, minus_one = 0, other = 0;

  void add(const fr& x) {
    static const fr m1 = -fr::one();
    if (x.is_zero()) ++zero;
    else if (x.is_one()) ++one;
    else if (x == m1) ++minus_one;
    else ++other;
  }
  void add(std::span<const fr> xs) {
    for (const fr& x : xs) add(x);
  }
  std::size_t total() const { return zero + one + minus_one + other; }
  std::size_t non_boolean() const { return minus_one + other; }
  tally& operator+=(const tally& o) {
    zero += o.zero, one += o.one, minus_one += o.minus_one, other += o.other;
    return *this;
  }
  tally times(std::size_t k) const { return {zero * k, one * k, minus_one * k, other * k}; }
};

double pct(std::size_t part, std::size_t whole) { return whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0; }

void print_row(const char* name, std::size_t constraints, const tally& t) {
  std::printf("  %-34s %12zu %12zu %8.3f%% %8.3f%% %8.4f%% %8.3f%%\n", name, constraints, t.total(), pct(t.zero, t.total()),
              pct(t.one, t.total()), pct(t.minus_one, t.total()), pct(t.other, t.total()));
}
void print_header() {
  std::printf("  %-34s %12s %12s %9s %9s %9s %9s\n", "piece", "constraints", "aux", "zero", "one", "-1", "other");
}

// --- random values shaped like the real ones ---------------------------------------------------

// Uniform below 2^254: labels and TreeD nodes (SHA-256 truncated to 254 bits), sector data
// (Fr32-padded) and replica ids.
fr random_254(test::seeded_rng& rng) {
  fr::repr x{};
  for (std::size_t i = 0; i < fr::N; ++i) x.w[i] = rng();
  x.w[fr::N - 1] &= (uint64_t{1} << 62) - 1;
  return fr::from_canonical(x);
}

// A path to leaf `node` with random siblings: `levels` levels of the given arity (then the sub
// level's, when sub != 0). Poseidon tree nodes are uniform in Fr, SHA-256 ones below 2^254.
path_t random_path(test::seeded_rng& rng, uint64_t node, std::size_t arity, std::size_t levels, std::size_t sub, bool sha) {
  path_t p;
  auto push = [&](std::size_t a) {
    native::merkle_path_level<fr> l;
    l.index = node % a;
    node /= a;
    for (std::size_t j = 0; j + 1 < a; ++j) l.siblings.push_back(sha ? random_254(rng) : fr::random(rng));
    p.push_back(std::move(l));
  };
  for (std::size_t i = 0; i < levels; ++i) push(arity);
  if (sub) push(sub);
  return p;
}

// --- the 32 GiB PoRep partition, composed from our gadgets -------------------------------------

constexpr std::size_t kLayers = 11, kDrgParents = 6, kExpParents = 8, kParents = kDrgParents + kExpParents;
constexpr std::size_t kChallengesPerPartition = 18;  // ceil(176 challenges / 10 partitions)
constexpr uint64_t kSectorNodes = uint64_t{1} << 30;  // 32 GiB / 32 B
constexpr std::size_t kTreeDLevels = 30;              // binary SHA-256
constexpr std::size_t kTreeRCBaseLevels = 9;          // 8-8-0: 9 oct levels + 1 oct sub level
constexpr merkle_arities kTreeRC{8, 8, 0};

// Upstream counts of the partition (docs/gpu.md; bellperson adds one constraint per input).
constexpr std::size_t kUpstreamConstraints = 130'278'869, kUpstreamAux = 130'169'893, kUpstreamInputs = 328;

enum piece : std::size_t {
  p_top,                // replica id (+ bits), comm_d, comm_r, comm_r_last, comm_c, comm_r = H(comm_c, comm_r_last)
  p_comm_d_path,        // data leaf + TreeD inclusion (SHA-256, 30 levels)
  p_parent_columns,     // 14 parent columns x 11 labels, allocated
  p_parent_col_hash,    // 14 column hashes (Poseidon arity 11)
  p_parent_tree_c,      // 14 TreeC inclusions (Poseidon 8-8-0)
  p_challenge_bits,     // UInt64 challenge + its packing into an input
  p_label_parent_bits,  // 6 + 10 x 14 = 146 to_bits_le of parent labels
  p_label_hash,         // 11 create_label_circuit (SHA-256 of 1,248 bytes + packing)
  p_encode,             // encoded node = label_11 + data leaf
  p_comm_r_last_path,   // TreeR inclusion (Poseidon 8-8-0)
  p_c_x_col_hash,       // the challenged column's hash (Poseidon arity 11)
  p_c_x_tree_c,         // its TreeC inclusion
  p_count
};
constexpr const char* kPieceNames[p_count] = {
    "partition top (once)",        "comm_d path: SHA-256 x30",  "parent columns (14 x 11)",
    "parent column hashes (P11)",  "parent TreeC paths (14)",   "challenge bits",
    "label parent bits (146x255)", "label hashes (11 x SHA)",   "encode",
    "comm_r_last path (TreeR)",    "c_x column hash (P11)",     "c_x TreeC path"};

struct challenge_values {
  fr data_leaf;
  path_t comm_d_path;
  std::array<std::array<fr, kLayers>, kParents> columns;  // 6 DRG, then 8 expander
  std::array<path_t, kParents> parent_paths;
  uint64_t challenge = 0;
  path_t comm_r_last_path, comm_c_path;
};

challenge_values random_challenge(test::seeded_rng& rng) {
  challenge_values v;
  v.challenge = rng() % kSectorNodes;
  v.data_leaf = random_254(rng);
  v.comm_d_path = random_path(rng, v.challenge, 2, kTreeDLevels, 0, true);
  for (std::size_t p = 0; p < kParents; ++p) {
    for (fr& l : v.columns[p]) l = random_254(rng);
    v.parent_paths[p] = random_path(rng, rng() % kSectorNodes, 8, kTreeRCBaseLevels, 8, false);
  }
  v.comm_r_last_path = random_path(rng, v.challenge, 8, kTreeRCBaseLevels, 8, false);
  v.comm_c_path = random_path(rng, v.challenge, 8, kTreeRCBaseLevels, 8, false);
  return v;
}

// Marks where each piece starts (aux and constraint positions) while one CS synthesizes.
template <class CS>
struct segments {
  CS& cs;
  struct mark_t {
    piece p;
    std::size_t aux, constraints;
  };
  std::vector<mark_t> marks;
  void mark(piece p) { marks.push_back({p, cs.num_aux(), cs.num_constraints()}); }
};

struct partition_globals {
  allocated_num comm_d, comm_c, comm_r_last;
  std::vector<boolean> replica_id_bits;
};

// StackedCircuit::synthesize up to the per-challenge proofs.
template <class CS>
r1cs::result<partition_globals> synthesize_top(CS& cs, const std::array<fr, 5>& v) {
  partition_globals g;
  CUZK_R1CS_TRY(allocated_num replica_id, allocated_num::alloc(cs, [&] { return v[0]; }));
  CUZK_R1CS_CHECK(replica_id.inputize(cs));
  CUZK_R1CS_TRY(std::vector<boolean> bits, replica_id.to_bits_le(cs));
  g.replica_id_bits = reverse_bit_numbering(std::move(bits));
  CUZK_R1CS_TRY(g.comm_d, allocated_num::alloc(cs, [&] { return v[1]; }));
  CUZK_R1CS_CHECK(g.comm_d.inputize(cs));
  CUZK_R1CS_TRY(allocated_num comm_r, allocated_num::alloc(cs, [&] { return v[2]; }));
  CUZK_R1CS_CHECK(comm_r.inputize(cs));
  CUZK_R1CS_TRY(g.comm_r_last, allocated_num::alloc(cs, [&] { return v[3]; }));
  CUZK_R1CS_TRY(g.comm_c, allocated_num::alloc(cs, [&] { return v[4]; }));
  const std::vector<allocated_num> pre{g.comm_c, g.comm_r_last};
  CUZK_R1CS_TRY(allocated_num h, poseidon_hash_circuit(cs, std::span<const allocated_num>(pre), native::poseidon_constants(2)));
  cs.enforce("enforce comm_r = H(comm_c || comm_r_last)", [&](lc_t lc) { return lc + comm_r.var; },
             [](lc_t lc) { return lc + CS::one(); }, [&](lc_t lc) { return lc + h.var; });
  return g;
}

// stacked/circuit/params.rs Proof::synthesize for one challenge (enforce_inclusion = PoRCircuit
// with an allocated leaf and root, private root).
template <class CS>
r1cs::result<void> synthesize_challenge(CS& cs, const challenge_values& v, const partition_globals& g, segments<CS>& seg) {
  auto inclusion = [&](merkle_hash h, merkle_arities a, const path_t& path, const allocated_num& root,
                       const allocated_num& leaf) {
    return por_circuit(cs, h, a, merkle_root_arg::of_num(leaf), path, merkle_root_arg::of_num(root), true);
  };
  seg.mark(p_comm_d_path);
  CUZK_R1CS_TRY(allocated_num data_leaf, allocated_num::alloc(cs, [&] { return v.data_leaf; }));
  CUZK_R1CS_CHECK(inclusion(merkle_hash::sha256, {2, 0, 0}, v.comm_d_path, g.comm_d, data_leaf));

  std::array<std::vector<allocated_num>, kParents> cols;
  for (std::size_t p = 0; p < kParents; ++p) {
    seg.mark(p_parent_columns);
    for (std::size_t l = 0; l < kLayers; ++l) {
      CUZK_R1CS_TRY(allocated_num n, allocated_num::alloc(cs, [&] { return v.columns[p][l]; }));
      cols[p].push_back(n);
    }
    seg.mark(p_parent_col_hash);
    CUZK_R1CS_TRY(allocated_num h, poseidon_hash_circuit(cs, std::span<const allocated_num>(cols[p]), native::poseidon_constants(kLayers)));
    seg.mark(p_parent_tree_c);
    CUZK_R1CS_CHECK(inclusion(merkle_hash::poseidon, kTreeRC, v.parent_paths[p], g.comm_c, h));
  }

  seg.mark(p_challenge_bits);
  CUZK_R1CS_TRY(uint64 challenge, uint64::alloc(cs, v.challenge));
  CUZK_R1CS_CHECK(challenge.pack_into_input(cs));

  std::vector<allocated_num> labels;
  for (std::size_t layer = 1; layer <= kLayers; ++layer) {
    seg.mark(p_label_parent_bits);
    std::vector<std::vector<boolean>> parents;
    for (std::size_t p = 0; p < kDrgParents; ++p) {
      CUZK_R1CS_TRY(std::vector<boolean> b, cols[p][layer - 1].to_bits_le(cs));
      parents.push_back(reverse_bit_numbering(std::move(b)));
    }
    if (layer > 1)
      for (std::size_t p = kDrgParents; p < kParents; ++p) {
        CUZK_R1CS_TRY(std::vector<boolean> b, cols[p][layer - 2].to_bits_le(cs));
        parents.push_back(reverse_bit_numbering(std::move(b)));
      }
    std::vector<std::vector<boolean>> expanded = parents;
    if (layer > 1) {
      expanded.insert(expanded.end(), parents.begin(), parents.end());      // 28
      expanded.insert(expanded.end(), parents.begin(), parents.begin() + 9);  // 37
    } else {
      for (int k = 0; k < 5; ++k) expanded.insert(expanded.end(), parents.begin(), parents.end());  // 36
      expanded.push_back(parents[0]);                                                                 // 37
    }
    seg.mark(p_label_hash);
    CUZK_R1CS_TRY(allocated_num label, create_label_circuit(cs, std::span<const boolean>(g.replica_id_bits), expanded,
                                                            uint32::constant(static_cast<uint32_t>(layer)), challenge));
    labels.push_back(label);
  }

  seg.mark(p_encode);  // storage-proofs-core encode = constraint::add: sum allocated, (key + value) * 1 = sum
  const allocated_num& key = labels.back();
  CUZK_R1CS_TRY(allocated_num encoded, allocated_num::alloc(cs, [&] { return key.value + data_leaf.value; }));
  cs.enforce("encode", [&](lc_t lc) { return lc + key.var + data_leaf.var; }, [](lc_t lc) { return lc + CS::one(); },
             [&](lc_t lc) { return lc + encoded.var; });
  seg.mark(p_comm_r_last_path);
  CUZK_R1CS_CHECK(inclusion(merkle_hash::poseidon, kTreeRC, v.comm_r_last_path, g.comm_r_last, encoded));

  seg.mark(p_c_x_col_hash);
  CUZK_R1CS_TRY(allocated_num column_hash, poseidon_hash_circuit(cs, std::span<const allocated_num>(labels), native::poseidon_constants(kLayers)));
  seg.mark(p_c_x_tree_c);
  CUZK_R1CS_CHECK(inclusion(merkle_hash::poseidon, kTreeRC, v.comm_c_path, g.comm_c, column_hash));
  return r1cs::ok();
}

std::array<fr, 5> random_top(test::seeded_rng& rng) {
  return {random_254(rng), random_254(rng), fr::random(rng), fr::random(rng), fr::random(rng)};
}

// A registry instance's witness, tallied into `t` and printed, with its constraint count.
template <class Circuit>
void measure_instance(const char* name, const char* inputs, const Circuit& c, tally& t, std::size_t& constraints) {
  r1cs::witness_builder wb;
  ASSERT_TRUE(c.synthesize(wb).ok());
  t.add(wb.aux());
  constraints = wb.num_constraints();
  std::printf("%s (%s):\n", name, inputs);
  print_header();
  print_row(name, constraints, t);
}

// --- tests -------------------------------------------------------------------------------------

// One SHA-256 compression (registry instance "sha256-compression", random block): every aux is
// an allocated bit (inputs, xor/ch/maj results, add_many result bits), so all are 0 or 1.
TEST(witness_statistics, Sha256CompressionIsAllBoolean) {
  test::seeded_rng rng;
  instances::sha256_compression c;
  for (uint8_t& b : c.block) b = static_cast<uint8_t>(rng());
  tally t;
  std::size_t constraints = 0;
  ASSERT_NO_FATAL_FAILURE(measure_instance("sha256-compression", "random block", c, t, constraints));
  EXPECT_EQ(t.total(), 26326u);
  EXPECT_EQ(t.non_boolean(), 0u);
}

// Registry instance "sha256-label-1248" with a random preimage: its 9,754 allocated preimage
// bits, the hash's bits, and one non-boolean value, the packed label.
TEST(witness_statistics, LabelInstance) {
  test::seeded_rng rng;
  std::array<uint8_t, 32> id;
  std::array<std::array<uint8_t, 32>, 37> parents;
  for (uint8_t& b : id) b = static_cast<uint8_t>(rng());
  for (auto& p : parents)
    for (uint8_t& b : p) b = static_cast<uint8_t>(rng());
  instances::sha256_label c;
  c.preimage = instances::make_label_preimage(id, static_cast<uint32_t>(rng() % 11 + 1), rng() % kSectorNodes, parents);
  tally t;
  std::size_t constraints = 0;
  ASSERT_NO_FATAL_FAILURE(measure_instance("sha256-label-1248", "random preimage", c, t, constraints));
  EXPECT_EQ(t.non_boolean(), 1u);
  EXPECT_EQ(constraints, 9754u + 522'268u + 1u);  // allocated preimage bits, hash, packing
}

struct partition_measurement {
  std::array<tally, p_count> piece;          // top once, challenge pieces for one challenge
  std::array<std::size_t, p_count> constraints{};
  std::size_t top_inputs = 0, challenge_inputs = 0, challenge_aux = 0, challenge_constraints = 0;
};

partition_measurement measure_partition(test::seeded_rng& rng) {
  partition_measurement m;
  const std::array<fr, 5> top = random_top(rng);
  const challenge_values ch = random_challenge(rng);
  r1cs::witness_builder wb(1 + 18, 7'300'000);
  segments<r1cs::witness_builder> seg{wb, {}};
  seg.mark(p_top);
  auto g = synthesize_top(wb, top);
  EXPECT_TRUE(g.ok());
  m.top_inputs = wb.num_inputs();
  const std::size_t aux0 = wb.num_aux(), c0 = wb.num_constraints();
  EXPECT_TRUE(synthesize_challenge(wb, ch, *g, seg).ok());
  m.challenge_inputs = wb.num_inputs() - m.top_inputs;
  m.challenge_aux = wb.num_aux() - aux0;
  m.challenge_constraints = wb.num_constraints() - c0;
  const std::span<const fr> aux = wb.aux();
  for (std::size_t i = 0; i < seg.marks.size(); ++i) {
    const std::size_t a_end = i + 1 < seg.marks.size() ? seg.marks[i + 1].aux : wb.num_aux();
    const std::size_t c_end = i + 1 < seg.marks.size() ? seg.marks[i + 1].constraints : wb.num_constraints();
    m.piece[seg.marks[i].p].add(aux.subspan(seg.marks[i].aux, a_end - seg.marks[i].aux));
    m.constraints[seg.marks[i].p] += c_end - seg.marks[i].constraints;
  }
  return m;
}

// The whole 32 GiB partition: counts against upstream, per-piece fractions, the partition
// total (top once + 18 challenges), and the boolean invariants of the SHA-256 pieces.
TEST(witness_statistics, PoRep32GiBPartition) {
  test::seeded_rng rng;
  const auto t0 = std::chrono::steady_clock::now();
  const partition_measurement m = measure_partition(rng);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  // Counts: top + 18 challenges (+ bellperson's input constraints) = upstream's.
  const std::size_t k = kChallengesPerPartition;
  const std::size_t inputs = m.top_inputs + k * m.challenge_inputs;
  const std::size_t aux = m.piece[p_top].total() + k * m.challenge_aux;
  const std::size_t constraints = m.constraints[p_top] + k * m.challenge_constraints + inputs;
  EXPECT_EQ(inputs, kUpstreamInputs);
  EXPECT_EQ(aux, kUpstreamAux);
  EXPECT_EQ(constraints, kUpstreamConstraints);

  std::printf("32 GiB PoRep partition: one challenge synthesized in %.2f s (%zu constraints, %zu aux); partition = top + %zu "
              "challenges = %zu constraints (with %zu input constraints), %zu aux, %zu inputs\n",
              secs, m.challenge_constraints, m.challenge_aux, k, constraints, inputs, aux, inputs);
  std::printf("per piece (challenge pieces: one challenge):\n");
  print_header();
  tally part = m.piece[p_top], challenge;
  for (std::size_t p = 0; p < p_count; ++p) {
    print_row(kPieceNames[p], m.constraints[p], m.piece[p]);
    if (p != p_top) challenge += m.piece[p];
  }
  part += challenge.times(k);
  print_row("one challenge", m.challenge_constraints, challenge);
  print_row("partition (top + 18 challenges)", constraints - inputs, part);  // rows without input constraints
  EXPECT_EQ(part.total(), kUpstreamAux);

  // Groupings: all SHA-256 pieces, all Poseidon pieces.
  tally sha, poseidon;
  std::size_t sha_c = 0, pos_c = 0;
  for (piece p : {p_comm_d_path, p_label_parent_bits, p_label_hash, p_challenge_bits}) sha += m.piece[p], sha_c += m.constraints[p];
  for (piece p : {p_parent_col_hash, p_parent_tree_c, p_comm_r_last_path, p_c_x_col_hash, p_c_x_tree_c, p_parent_columns})
    poseidon += m.piece[p], pos_c += m.constraints[p];
  std::printf("groups (one challenge):\n");
  print_row("SHA-256 + bit decompositions", sha_c, sha);
  print_row("Poseidon + column values", pos_c, poseidon);

  // Invariants: bit decompositions and the label hashes are boolean but for the 11 packed
  // labels; the TreeD path has 4 numbers per level (sibling, the two insert picks, the packed
  // digest) and the data leaf.
  EXPECT_EQ(m.piece[p_label_parent_bits].non_boolean(), 0u);
  EXPECT_EQ(m.piece[p_challenge_bits].non_boolean(), 0u);
  EXPECT_EQ(m.piece[p_label_hash].non_boolean(), kLayers);
  EXPECT_EQ(m.piece[p_comm_d_path].non_boolean(), 1 + 4 * kTreeDLevels);
  EXPECT_EQ(m.piece[p_label_parent_bits].total(), (kDrgParents + (kLayers - 1) * kParents) * 255);
}

// The matrices' coefficients for the partition top and one challenge (recorded shape): +1, -1,
// other powers of two up to sign, and the rest.
TEST(witness_statistics, PoRep32GiBCoefficients) {
#ifndef NDEBUG
  GTEST_SKIP() << "optimised builds only: records a 7.2M-constraint shape (PoRep32GiBPartition covers the synthesis)";
#endif
  test::seeded_rng rng;
  const std::array<fr, 5> top = random_top(rng);
  const challenge_values ch = random_challenge(rng);
  r1cs::shape_recorder rec;
  segments<r1cs::shape_recorder> seg{rec, {}};
  auto g = synthesize_top(rec, top);
  ASSERT_TRUE(g.ok());
  ASSERT_TRUE(synthesize_challenge(rec, ch, *g, seg).ok());
  const r1cs::r1cs_shape s = std::move(rec).finish(r1cs::shape_hash::skip);

  std::vector<int> kind(s.coeffs.size());  // coefficient id -> 0: +1, 1: -1, 2: +-2^k (k >= 1), 3: other
  {
    std::vector<fr> pow2;
    fr x = fr::one();
    for (int i = 0; i < 256; ++i, x = x + x) pow2.push_back(x);
    for (uint32_t id = 0; id < s.coeffs.size(); ++id) {
      const fr& c = s.coeffs[id];
      int kd = 3;
      if (id == r1cs::coeff_id_one) kd = 0;
      else if (id == r1cs::coeff_id_minus_one) kd = 1;
      else
        for (const fr& p : pow2)
          if (c == p || c == -p) { kd = 2; break; }
      kind[id] = kd;
    }
  }
  std::printf("coefficients, partition top + one challenge (%zu constraints, %zu distinct coefficients):\n",
              s.num_constraints, s.coeffs.size());
  std::printf("  %-6s %12s %8s %8s %8s %8s %12s\n", "matrix", "entries", "+1", "-1", "+-2^k", "other", "per row");
  const std::pair<const char*, const r1cs::csr_matrix*> ms[] = {{"A", &s.a}, {"B", &s.b}, {"C", &s.c}};
  for (const auto& [name, mat] : ms) {
    std::array<std::size_t, 4> n{};
    for (uint32_t id : mat->coeff_ids) ++n[kind[id]];
    const std::size_t e = mat->nnz();
    std::printf("  %-6s %12zu %7.2f%% %7.2f%% %7.2f%% %7.2f%% %12.2f\n", name, e, pct(n[0], e), pct(n[1], e), pct(n[2], e),
                pct(n[3], e), static_cast<double>(e) / static_cast<double>(s.num_constraints));
    // Where the "other" entries are: on the ONE column (folded constants) or on a variable,
    // and how many have at most two set bits up to sign (a merged 2^i +- 2^j).
    std::size_t on_one = 0, two_bits = 0;
    for (std::size_t j = 0; j < e; ++j) {
      if (kind[mat->coeff_ids[j]] != 3) continue;
      if (mat->cols[j] == 0) ++on_one;
      const fr& c = s.coeffs[mat->coeff_ids[j]];
      auto bits = [](const fr::repr& r) {
        int b = 0;
        for (uint64_t w : r.w) b += std::popcount(w);
        return b;
      };
      if (std::min(bits(c.to_canonical()), bits((-c).to_canonical())) <= 2) ++two_bits;
    }
    std::printf("         other: %.2f%% of them on ONE, %.2f%% are +-(2^i +- 2^j)\n", pct(on_one, n[3]), pct(two_bits, n[3]));
  }
  EXPECT_GT(s.num_constraints, 7'000'000u);

  // The aux values per MSM query (same inputs on the witness builder): A and B dense aux (the
  // A / B_G1 / B_G2 MSMs' scalars) against all aux (the L MSM's).
  r1cs::witness_builder wb(1 + 18, s.num_aux);
  segments<r1cs::witness_builder> wseg{wb, {}};
  auto wg = synthesize_top(wb, top);
  ASSERT_TRUE(wg.ok());
  ASSERT_TRUE(synthesize_challenge(wb, ch, *wg, wseg).ok());
  ASSERT_EQ(wb.num_aux(), s.num_aux);
  tally all, a_dense, b_dense;
  for (std::size_t j = 0; j < s.num_aux; ++j) {
    all.add(wb.aux()[j]);
    if (s.a_aux_density.test(j)) a_dense.add(wb.aux()[j]);
    if (s.b_aux_density.test(j)) b_dense.add(wb.aux()[j]);
  }
  std::printf("aux values per MSM query, partition top + one challenge:\n");
  print_header();
  print_row("all aux (L)", s.num_constraints, all);
  print_row("A-dense aux", s.num_constraints, a_dense);
  print_row("B-dense aux", s.num_constraints, b_dense);
}

}  // namespace
}  // namespace cuzk::gadgets
