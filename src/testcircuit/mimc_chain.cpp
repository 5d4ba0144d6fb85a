#include "testcircuit/mimc_chain.hpp"

#include <stdexcept>
#include <string>

namespace cuzk::testcircuit {
namespace {

// SplitMix64 (Steele, Lea, Flood 2014): a 64-bit generator for fr::random's rejection sampling.
// Deterministic by design: the round constants and starts must be the same on every machine.
struct splitmix64 {
  std::uint64_t state;
  std::uint64_t operator()() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
};

// "cuzk-tc1" in ASCII: the round-constant stream's seed (part of the circuit's definition).
constexpr std::uint64_t constants_seed = 0x637a756b2d746331ULL;
// Domain separation of the start stream from the constant stream.
constexpr std::uint64_t start_domain = 0x73746172742d7631ULL;  // "start-v1"

}  // namespace

chain_layout layout_for(unsigned k) {
  if (k < min_log2 || k > max_log2) {
    throw std::invalid_argument("test circuit log2 size " + std::to_string(k) + " is outside " +
                                std::to_string(min_log2) + ".." + std::to_string(max_log2));
  }
  chain_layout l;
  l.k = k;
  l.domain_size = std::size_t{1} << k;
  const std::size_t steps = l.domain_size - 4;  // constraints - the output constraint
  l.rounds = steps / 3;
  l.tail = steps % 3;
  l.num_constraints = 3 * l.rounds + l.tail + 1;
  l.num_aux = 3 * l.rounds + l.tail;
  return l;
}

std::vector<fr> round_constants(std::size_t n) {
  splitmix64 rng{constants_seed};
  std::vector<fr> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back(fr::random(rng));
  return out;
}

chain_definition::chain_definition(unsigned k)
    : layout_(layout_for(k)), constants_(round_constants(layout_.rounds + layout_.tail)) {}

fr partition_start(std::uint64_t seed, std::uint32_t partition) {
  // Mix (seed, partition) through one SplitMix64 step each so that nearby seeds and partitions
  // give unrelated streams.
  splitmix64 key{seed ^ start_domain};
  splitmix64 rng{key() ^ (static_cast<std::uint64_t>(partition) * 0xD1B54A32D192ED03ULL)};
  return fr::random(rng);
}

fr native_output(const chain_definition& def, const fr& start) {
  const auto& l = def.layout();
  const auto& c = def.constants();
  fr x = start;
  for (std::size_t i = 0; i < l.rounds; ++i) {
    const fr xc = x + c[i];
    x = xc.square().square() * xc;
  }
  for (std::size_t j = 0; j < l.tail; ++j) x = (x + c[l.rounds + j]).square();
  return x;
}

std::shared_ptr<const compiled_circuit> circuit_cache::get(unsigned k) {
  (void)layout_for(k);  // range check before creating an entry
  std::shared_ptr<entry> e;
  {
    std::lock_guard lock(mu_);
    auto& slot = entries_[k];
    if (!slot) slot = std::make_shared<entry>();
    e = slot;
  }
  std::call_once(e->once, [&] {
    auto c = std::make_shared<compiled_circuit>();
    c->def = std::make_shared<const chain_definition>(k);
    r1cs::shape_recorder rec;
    const auto r = synthesize_chain(rec, *c->def, fr::zero());
    if (!r) throw std::logic_error(std::string("test circuit shape: ") + r1cs::to_string(r.error()));
    c->shape = std::move(rec).finish();
    const auto& l = c->def->layout();
    if (c->shape.num_constraints != l.num_constraints || c->shape.num_inputs != l.num_inputs ||
        c->shape.num_aux != l.num_aux) {
      throw std::logic_error("test circuit shape: counts differ from layout_for(" + std::to_string(k) + ")");
    }
    e->value = std::move(c);
  });
  return e->value;
}

circuit_cache& circuit_cache::global() {
  static circuit_cache cache;
  return cache;
}

chain_witness compute_witness(const compiled_circuit& circuit, const fr& start) {
  const auto& s = circuit.shape;
  r1cs::witness_builder wb(s.num_inputs, s.num_aux);
  const auto r = synthesize_chain(wb, *circuit.def, start);
  if (!r) throw std::logic_error(std::string("test circuit witness: ") + r1cs::to_string(r.error()));
  if (wb.num_inputs() != s.num_inputs || wb.num_aux() != s.num_aux || wb.num_constraints() != s.num_constraints) {
    throw std::logic_error("test circuit witness: counts differ from the recorded shape");
  }
  return {wb.take_inputs(), wb.take_aux()};
}

}  // namespace cuzk::testcircuit
