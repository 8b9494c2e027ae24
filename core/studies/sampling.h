// Space-filling samples of the unit cube [0, 1)^d for parameter studies.
// Both are deterministic and the same on every machine (no std::
// distribution, whose results the standard leaves to the library).
#pragma once

#include <cstdint>
#include <vector>

namespace pm::studies {

// Sobol' points (Joe and Kuo's direction numbers, "new-joe-kuo-6.21201",
// Gray-code order, starting with the point 0): n points of d dimensions.
constexpr int kSobolMaxDimensions = 12;
std::vector<std::vector<double>> sobolPoints(int n, int d);

// Latin hypercube: each dimension's n strata [k/n, (k+1)/n) hold exactly
// one point, at a random place inside it; the strata are paired across
// dimensions by random permutations drawn from `seed`.
std::vector<std::vector<double>> latinHypercube(int n, int d, std::uint64_t seed);

// Plain random (Monte Carlo) points, each coordinate uniform on [0, 1),
// drawn from `seed` (splitmix64): the same sample on every machine.
std::vector<std::vector<double>> randomPoints(int n, int d, std::uint64_t seed);

}  // namespace pm::studies
