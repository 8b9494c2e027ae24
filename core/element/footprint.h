// Structural coupling of one element, recorded by the builder during setup:
// the states it owns and the nodes it touches (its ports and internal nodes).
// An element's equations and flows can depend on all of these; the solver
// derives the Jacobian's sparsity from the footprints.
#pragma once

#include <utility>
#include <vector>

namespace pm {

struct Footprint {
  std::vector<int> states;
  std::vector<int> nodes;
  // When set, the element's equations couple only within each group (a
  // mechanism's parts and joints) instead of all its states together.
  std::vector<std::vector<int>> groups;
  // Single entries (row, column) of an exactly known structure.
  std::vector<std::pair<int, int>> entries;
  // States of other elements the element reads (columns only), and their
  // rows its outputs feed (rows only: a force on a mechanism's part).
  std::vector<int> reads, writes;
  // When set, the element's whole structure, block by block: the rows of
  // rowStates and of the nodes rowNodes read the columns colStates and
  // the nodes colNodes (a node's pressure and temperature together).
  // Nothing of the above is added then: not even the element's nodes
  // all-to-all, which an element with several chambers does not need.
  struct Block {
    std::vector<int> rowStates, rowNodes, colStates, colNodes;
  };
  std::vector<Block> blocks;
};

}  // namespace pm
