//===- PartitionSolver.h - Cost-minimising host/NNAPI placement -*- C++ -*-===//
//
// The placement problem nnapi-partition solves, on an abstract dataflow graph
// so it can be tested against brute force and benchmarked without MLIR.
//
// Each node runs on the host or in one NNAPI partition. A placement is
// feasible when every partition is weakly connected and convex (no path
// leaves it and comes back), which also keeps the partition graph acyclic.
// Its cost is the estimated end-to-end latency:
//
//   sum of each node's cost on its side
// + partition overhead per partition
// + per tensor: one download if it is produced in a partition and used
//   anywhere else (host, another partition, graph output), and one upload
//   per partition other than its producer's that uses it.
//
// See docs/design.md ("Cost-driven partitioning") for the search.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_DIALECT_NNAPI_TRANSFORMS_PARTITIONSOLVER_H
#define NNAPI_MLIR_DIALECT_NNAPI_TRANSFORMS_PARTITIONSOLVER_H

#include <cstdint>
#include <string>
#include <vector>

namespace nnapi_mlir::partition {

enum class Constraint { Free, ForceHost, ForceDevice };

struct Node {
  double hostUs = 0;
  double deviceUs = 0;
  bool deviceCapable = false;
  Constraint constraint = Constraint::Free;
};

/// A tensor: produced by one node (or a graph input, producer -1, which is on
/// the host), used by nodes and/or returned.
struct Value {
  int producer = -1;
  std::vector<int> consumers;
  bool graphOutput = false;
  double transferUs = 0; ///< One host<->device copy of this tensor.
};

/// Nodes must be in a topological order: every consumer of a value comes
/// after its producer.
struct Graph {
  std::vector<Node> nodes;
  std::vector<Value> values;
  double partitionOverheadUs = 0;
};

struct SolverOptions {
  /// Clusters (connected groups of NNAPI-capable nodes) of at most this many
  /// nodes get the exact branch-and-bound search; the limit is 64.
  unsigned exactLimit = 64;
  /// Search nodes per cluster before settling for the best placement found.
  uint64_t searchBudget = 1u << 16;
  /// Search nodes for the whole graph; clusters are searched smallest first,
  /// and once this is spent each further cluster gets at most 4096.
  uint64_t totalBudget = 1u << 21;
};

struct Solution {
  /// Per node: -1 for the host, else a partition index (0.., numbered in
  /// order of each partition's first node).
  std::vector<int> partition;
  unsigned numPartitions = 0;
  double cost = 0;
  /// True if every cluster was searched exhaustively.
  bool optimal = true;
  unsigned clusters = 0;
  unsigned exactClusters = 0;
  /// Size of the largest cluster not searched to the end (0 if none).
  unsigned largestInexactCluster = 0;
};

/// Cost of a placement, or +infinity if it is infeasible (a partition that
/// is not connected or not convex, a node on NNAPI that cannot run there, a
/// constraint violated). When infeasible and `why` is given, says why.
double evaluate(const Graph &graph, const std::vector<int> &partition,
                std::string *why = nullptr);

/// Finds a minimum-cost feasible placement (exact within the options'
/// limits; `optimal` says whether it was proven).
Solution solve(const Graph &graph, const SolverOptions &options = {});

/// What moving one partition to the host would cost: positive means the
/// partition saves that many microseconds.
double partitionBenefit(const Graph &graph, const Solution &solution,
                        int partition);

/// A partition removed by enforceLimits, with its benefit and why.
struct DroppedPartition {
  std::vector<int> nodes;
  double benefitUs;
  bool belowMinimum; ///< Else dropped for max-partitions.
};

/// Moves partitions to the host, least beneficial first, while there are more
/// than `maxPartitions` (0: no limit) or one saves less than `minBenefitUs`.
/// Partitions holding a ForceDevice node are never dropped.
std::vector<DroppedPartition> enforceLimits(const Graph &graph,
                                            Solution &solution,
                                            unsigned maxPartitions,
                                            double minBenefitUs);

/// For a host node that NNAPI could run: the best single move onto NNAPI
/// (joining a neighbouring partition or starting one). Sets `computeSaving`
/// (host minus device compute) and `extraCost` (transfer and overhead
/// change); returns false if every such move is infeasible.
bool explainHostNode(const Graph &graph, const Solution &solution, int node,
                     double &computeSaving, double &extraCost);

/// explainHostNode for every node at once (entries of other nodes are not
/// valid); linear in the graph plus the convexity checks.
struct HostExplanation {
  bool valid = false;
  double computeSaving = 0;
  double extraCost = 0;
};
std::vector<HostExplanation> explainHostNodes(const Graph &graph,
                                              const Solution &solution);

/// partitionBenefit for every partition at once.
std::vector<double> partitionBenefits(const Graph &graph,
                                      const Solution &solution);

} // namespace nnapi_mlir::partition

#endif // NNAPI_MLIR_DIALECT_NNAPI_TRANSFORMS_PARTITIONSOLVER_H
