//===- PartitionBenchmark.cpp - Placement solver on large graphs ----------===//
//
// CNN-shaped synthetic graphs: a main chain with residual blocks (a skip edge
// around 2-4 ops), occasional side branches, about one op in eight that NNAPI
// cannot run, and costs spread over three orders of magnitude. Measures
// nnapi-partition's solver (heuristic + per-cluster branch and bound).
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Partition/PartitionSolver.h"

#include <benchmark/benchmark.h>

#include <random>

using namespace nnapi_mlir::partition;

namespace {

Graph cnnLikeGraph(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  Graph g;
  g.partitionOverheadUs = 40;
  g.values.push_back({-1, {}, false, 6});
  int current = 0; // value feeding the next op
  int blockStart = 0, blockLeft = 0;
  for (int i = 0; i < n; ++i) {
    Node node;
    double scale = std::pow(10.0, 3 * unit(rng)); // 1 .. 1000 us
    node.hostUs = scale;
    node.deviceUs = scale * (0.05 + 0.6 * unit(rng));
    node.deviceCapable = unit(rng) > 0.125;
    g.nodes.push_back(node);
    g.values[current].consumers.push_back(i);
    if (blockLeft == 1) // close a residual block: add the skip value
      g.values[blockStart].consumers.push_back(i);
    if (blockLeft > 0)
      --blockLeft;
    else if (unit(rng) < 0.3) {
      blockStart = current;
      blockLeft = 2 + int(unit(rng) * 3);
    }
    Value out{i, {}, false, 1 + 10 * unit(rng)};
    g.values.push_back(out);
    current = int(g.values.size()) - 1;
  }
  g.values[current].graphOutput = true;
  for (Value &v : g.values)
    if (v.producer >= 0 && v.consumers.empty())
      v.graphOutput = true;
  return g;
}

void BM_SolveCNNLike(benchmark::State &state) {
  Graph g = cnnLikeGraph(int(state.range(0)), 1);
  Solution s;
  for (auto _ : state) {
    s = solve(g);
    benchmark::DoNotOptimize(s.cost);
  }
  state.counters["ops"] = double(g.nodes.size());
  state.counters["partitions"] = s.numPartitions;
  state.counters["clusters"] = s.clusters;
  state.counters["exact_clusters"] = s.exactClusters;
  state.counters["largest_inexact"] = s.largestInexactCluster;
}
BENCHMARK(BM_SolveCNNLike)->Arg(100)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

} // namespace
