#include "studies/sampling.h"

#include <cmath>
#include <stdexcept>
#include <utility>

namespace pm::studies {

namespace {

// Dimensions 2.. of Joe and Kuo (2008), new-joe-kuo-6.21201: degree s of the
// primitive polynomial, its coefficients a, and the initial numbers m.
struct SobolDirection {
  int s;
  unsigned a;
  unsigned m[5];
};
constexpr SobolDirection kDirections[kSobolMaxDimensions - 1] = {
    {1, 0, {1}},          {2, 1, {1, 3}},          {3, 1, {1, 3, 1}},        {3, 2, {1, 1, 1}},
    {4, 1, {1, 1, 3, 3}}, {4, 4, {1, 3, 5, 13}},   {5, 2, {1, 1, 5, 5, 17}}, {5, 4, {1, 1, 5, 5, 5}},
    {5, 7, {1, 1, 7, 11, 19}}, {5, 11, {1, 1, 5, 1, 1}}, {5, 13, {1, 1, 1, 3, 11}},
};

constexpr int kBits = 32;

// splitmix64 (Steele, Lea, Flood 2014): small, fast, the same everywhere.
struct SplitMix {
  std::uint64_t x;
  std::uint64_t next() {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  std::uint64_t below(std::uint64_t n) { return next() % n; }  // bias below 2^-40 for n < 2^24
};

}  // namespace

std::vector<std::vector<double>> sobolPoints(int n, int d) {
  if (d < 1 || d > kSobolMaxDimensions) throw std::invalid_argument("Sobol points: 1 to 12 dimensions");
  std::vector<std::vector<std::uint32_t>> v(d, std::vector<std::uint32_t>(kBits));
  for (int i = 0; i < kBits; ++i) v[0][i] = 1u << (kBits - 1 - i);  // dimension 1: van der Corput
  for (int j = 1; j < d; ++j) {
    const SobolDirection& dir = kDirections[j - 1];
    for (int i = 0; i < kBits; ++i) {
      if (i < dir.s) {
        v[j][i] = dir.m[i] << (kBits - 1 - i);
      } else {
        std::uint32_t x = v[j][i - dir.s] ^ (v[j][i - dir.s] >> dir.s);
        for (int k = 1; k < dir.s; ++k) x ^= ((dir.a >> (dir.s - 1 - k)) & 1u) * v[j][i - k];
        v[j][i] = x;
      }
    }
  }
  std::vector<std::vector<double>> out;
  std::vector<std::uint32_t> x(d, 0);
  for (int i = 0; i < n; ++i) {
    std::vector<double> p(d);
    for (int j = 0; j < d; ++j) p[j] = static_cast<double>(x[j]) * 0x1.0p-32;
    out.push_back(p);
    int c = 0;  // the lowest zero bit of i (Gray code: one direction per step)
    for (unsigned k = static_cast<unsigned>(i); k & 1u; k >>= 1) ++c;
    for (int j = 0; j < d; ++j) x[j] ^= v[j][c];
  }
  return out;
}

std::vector<std::vector<double>> latinHypercube(int n, int d, std::uint64_t seed) {
  SplitMix rng{seed};
  std::vector<std::vector<double>> out(n, std::vector<double>(d));
  std::vector<int> perm(n);
  for (int j = 0; j < d; ++j) {
    for (int k = 0; k < n; ++k) perm[k] = k;
    for (int k = n - 1; k > 0; --k) std::swap(perm[k], perm[rng.below(static_cast<std::uint64_t>(k) + 1)]);
    for (int k = 0; k < n; ++k) {
      const double u = (perm[k] + rng.unit()) / n;  // may round up to 1
      out[k][j] = u < 1.0 ? u : std::nextafter(1.0, 0.0);
    }
  }
  return out;
}

std::vector<std::vector<double>> randomPoints(int n, int d, std::uint64_t seed) {
  SplitMix rng{seed};
  std::vector<std::vector<double>> out(n, std::vector<double>(d));
  for (auto& p : out)
    for (double& u : p) u = rng.unit();
  return out;
}

}  // namespace pm::studies
