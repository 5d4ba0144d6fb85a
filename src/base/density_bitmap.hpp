// Density bitmaps with bellperson's meaning, shared by r1cs (which records them per shape) and
// msm (which filters bases by them), so the prover passes one object through without conversion.
// Originally (bellperson src/multiexp.rs, DensityTracker): one bit
// per scalar position; a set bit means "this position has a base". bellperson's parameter files
// store the A and B queries compacted by density, so the bases of an MSM are the points for the
// set bits only, in position order, while the scalar vector covers every position. The j-th base
// belongs to the position of the j-th set bit (its rank).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cuzk::base {

class density_bitmap {
 public:
  density_bitmap() = default;
  // n positions, all clear.
  explicit density_bitmap(std::size_t n) : words_((n + 63) / 64, 0), size_(n) {}

  // Appends one clear position (bellperson's add_element).
  void push_back(bool bit) {
    if (size_ % 64 == 0) words_.push_back(0);
    ++size_;
    if (bit) set(size_ - 1);
  }
  // Sets position i (bellperson's inc); setting a set bit again changes nothing.
  void set(std::size_t i) {
    const uint64_t m = uint64_t{1} << (i % 64);
    if (!(words_[i / 64] & m)) {
      words_[i / 64] |= m;
      ++count_;
    }
  }
  bool test(std::size_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }

  std::size_t size() const { return size_; }    // positions (= scalars of the MSM)
  std::size_t count() const { return count_; }  // set bits (= bases of the MSM)
  const std::vector<uint64_t>& words() const { return words_; }

  bool operator==(const density_bitmap& o) const { return size_ == o.size_ && words_ == o.words_; }

  // Number of set bits before position i (i <= size, i % 64 == 0 for speed; any i works).
  std::size_t rank(std::size_t i) const {
    std::size_t r = 0;
    const std::size_t full = i / 64;
    for (std::size_t w = 0; w < full; ++w) r += static_cast<std::size_t>(std::popcount(words_[w]));
    if (i % 64) r += static_cast<std::size_t>(std::popcount(words_[full] & ((uint64_t{1} << (i % 64)) - 1)));
    return r;
  }

 private:
  std::vector<uint64_t> words_;
  std::size_t size_ = 0;
  std::size_t count_ = 0;
};

}  // namespace cuzk::base
