//===- PartitionSolverTest.cpp - Placement solver vs brute force ----------===//
//
// Property tests: on hundreds of random DAGs with random NNAPI support,
// costs, transfer costs and constraints, the solver's placement must cost
// exactly what an exhaustive search over every placement (every node on the
// host or in any partition) finds. The brute force and its cost function are
// written independently of the solver (transitive closure for convexity,
// explicit per-partition bookkeeping for transfers).
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Partition/PartitionSolver.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <set>

using namespace nnapi_mlir::partition;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Reference cost of a placement; +inf when infeasible.
class Reference {
public:
  explicit Reference(const Graph &g) : g(g), n(g.nodes.size()) {
    edge.assign(n, std::vector<bool>(n, false));
    for (const Value &v : g.values)
      if (v.producer >= 0)
        for (int c : v.consumers)
          edge[v.producer][c] = true;
    reach = edge;
    for (size_t k = 0; k < n; ++k)
      for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j)
          if (reach[i][k] && reach[k][j])
            reach[i][j] = true;
  }

  double cost(const std::vector<int> &part) const {
    std::set<int> parts;
    double total = 0;
    for (size_t v = 0; v < n; ++v) {
      const Node &node = g.nodes[v];
      bool capable = node.deviceCapable && node.constraint != Constraint::ForceHost;
      if (part[v] >= 0 && !capable)
        return kInf;
      if (part[v] < 0 && capable && node.constraint == Constraint::ForceDevice)
        return kInf;
      total += part[v] >= 0 ? node.deviceUs : node.hostUs;
      if (part[v] >= 0)
        parts.insert(part[v]);
    }
    for (int p : parts) {
      std::vector<int> members;
      for (size_t v = 0; v < n; ++v)
        if (part[v] == p)
          members.push_back(int(v));
      // Convex: no outside x with u ->* x ->* w for members u, w.
      for (int u : members)
        for (int w : members)
          for (size_t x = 0; x < n; ++x)
            if (part[x] != p && reach[u][x] && reach[x][w])
              return kInf;
      // Connected, ignoring edge direction.
      std::set<int> seen = {members.front()};
      std::vector<int> stack = {members.front()};
      while (!stack.empty()) {
        int u = stack.back();
        stack.pop_back();
        for (int w : members)
          if ((edge[u][w] || edge[w][u]) && seen.insert(w).second)
            stack.push_back(w);
      }
      if (seen.size() != members.size())
        return kInf;
    }
    total += g.partitionOverheadUs * double(parts.size());
    for (const Value &v : g.values) {
      int home = v.producer >= 0 ? part[v.producer] : -1;
      std::set<int> consumerParts;
      bool usedElsewhere = v.graphOutput;
      for (int c : v.consumers) {
        if (part[c] != home)
          usedElsewhere = true;
        if (part[c] >= 0 && part[c] != home)
          consumerParts.insert(part[c]);
      }
      int transfers = int(consumerParts.size());
      if (home >= 0 && usedElsewhere)
        ++transfers;
      total += transfers * v.transferUs;
    }
    return total;
  }

  /// Minimum over every placement: each capable node on the host or in a
  /// partition labelled in order of first use.
  double bruteForce() const {
    std::vector<int> part(n, -1);
    double best = kInf;
    enumerate(0, -1, part, best);
    return best;
  }

private:
  void enumerate(size_t v, int maxLabel, std::vector<int> &part,
                 double &best) const {
    if (v == n) {
      best = std::min(best, cost(part));
      return;
    }
    part[v] = -1;
    enumerate(v + 1, maxLabel, part, best);
    if (!g.nodes[v].deviceCapable)
      return;
    for (int label = 0; label <= maxLabel + 1; ++label) {
      part[v] = label;
      enumerate(v + 1, std::max(maxLabel, label), part, best);
    }
    part[v] = -1;
  }

  const Graph &g;
  size_t n;
  std::vector<std::vector<bool>> edge, reach;
};

Graph randomGraph(std::mt19937 &rng, int maxNodes, int maxCapable) {
  auto uniform = [&](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  auto pick = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  Graph g;
  int n = pick(2, maxNodes);
  int inputs = pick(1, 2);
  g.partitionOverheadUs = uniform(0, 40);
  // Cost scales vary per graph so that offloading is sometimes a clear win,
  // sometimes a clear loss and often a close call.
  double deviceScale = uniform(0.1, 1.5);
  for (int i = 0; i < inputs; ++i) {
    Value v;
    v.transferUs = uniform(0, 15);
    g.values.push_back(v);
  }
  int capable = 0;
  for (int i = 0; i < n; ++i) {
    Node node;
    node.hostUs = uniform(0, 100);
    node.deviceUs = node.hostUs * deviceScale * uniform(0.2, 1.8);
    node.deviceCapable = capable < maxCapable && uniform(0, 1) < 0.75;
    capable += node.deviceCapable;
    double c = uniform(0, 1);
    if (node.deviceCapable && c < 0.05)
      node.constraint = Constraint::ForceHost;
    else if (node.deviceCapable && c < 0.1)
      node.constraint = Constraint::ForceDevice;
    // Operands: one to three earlier values, biased towards recent ones.
    int operands = pick(1, 3);
    std::set<int> chosen;
    for (int k = 0; k < operands; ++k) {
      int size = int(g.values.size());
      int back = std::min(size - 1, int(std::abs(std::normal_distribution<>(
                                        0, 2.5)(rng))));
      chosen.insert(size - 1 - back);
    }
    for (int vi : chosen)
      g.values[vi].consumers.push_back(i);
    g.nodes.push_back(node);
    int results = uniform(0, 1) < 0.15 ? 2 : 1;
    for (int r = 0; r < results; ++r) {
      Value v;
      v.producer = i;
      v.transferUs = uniform(0, 15);
      g.values.push_back(v);
    }
  }
  for (Value &v : g.values)
    if (v.producer >= 0 && (v.consumers.empty() || uniform(0, 1) < 0.1))
      v.graphOutput = true;
  return g;
}

TEST(PartitionSolverTest, MatchesBruteForceOnRandomGraphs) {
  std::mt19937 rng(20261121);
  int withPartitions = 0, mixed = 0;
  for (int trial = 0; trial < 600; ++trial) {
    Graph g = randomGraph(rng, 11, trial < 300 ? 6 : 8);
    Reference ref(g);
    double expected = ref.bruteForce();
    Solution s = solve(g, {64, 1u << 20});
    ASSERT_TRUE(s.optimal) << "trial " << trial;
    ASSERT_NEAR(s.cost, expected, 1e-6 * (1 + expected)) << "trial " << trial;
    // The solver's own evaluation agrees with the reference on its answer.
    ASSERT_NEAR(ref.cost(s.partition), s.cost, 1e-6 * (1 + s.cost));
    withPartitions += s.numPartitions > 0;
    bool host = false;
    for (size_t v = 0; v < g.nodes.size(); ++v)
      host |= g.nodes[v].deviceCapable && s.partition[v] < 0;
    mixed += host && s.numPartitions > 0;
  }
  // The generator must exercise both outcomes, or the test proves little.
  EXPECT_GT(withPartitions, 200);
  EXPECT_GT(mixed, 50);
}

TEST(PartitionSolverTest, EvaluateAgreesWithReferenceOnRandomPlacements) {
  std::mt19937 rng(7);
  int feasible = 0, infeasible = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    Graph g = randomGraph(rng, 10, 10);
    Reference ref(g);
    std::vector<int> part(g.nodes.size(), -1);
    for (size_t v = 0; v < part.size(); ++v)
      if (g.nodes[v].deviceCapable && rng() % 3)
        part[v] = int(rng() % 3);
    double expected = ref.cost(part);
    double actual = evaluate(g, part);
    if (expected == kInf) {
      EXPECT_EQ(actual, kInf) << "trial " << trial;
      ++infeasible;
    } else {
      EXPECT_NEAR(actual, expected, 1e-9 * (1 + expected)) << "trial " << trial;
      ++feasible;
    }
  }
  EXPECT_GT(feasible, 300);
  EXPECT_GT(infeasible, 300);
}

/// in -> a -> b -> c -> out, every node capable.
Graph chain(double host, double device, double transfer, double overhead) {
  Graph g;
  g.partitionOverheadUs = overhead;
  g.values.push_back({-1, {0}, false, transfer});
  for (int i = 0; i < 3; ++i) {
    g.nodes.push_back({host, device, true, Constraint::Free});
    Value v{i, {}, i == 2, transfer};
    if (i < 2)
      v.consumers.push_back(i + 1);
    g.values.push_back(v);
  }
  return g;
}

TEST(PartitionSolverTest, ChainGoesWholeOrNot) {
  Solution fast = solve(chain(100, 10, 5, 20));
  EXPECT_EQ(fast.numPartitions, 1u);
  EXPECT_EQ(fast.partition, (std::vector<int>{0, 0, 0}));
  EXPECT_DOUBLE_EQ(fast.cost, 30 + 20 + 5 + 5);
  // Device barely faster: overhead and transfers eat the saving.
  Solution slow = solve(chain(10, 9, 5, 20));
  EXPECT_EQ(slow.numPartitions, 0u);
  EXPECT_DOUBLE_EQ(slow.cost, 30);
}

TEST(PartitionSolverTest, ResidualBlockWithHostBranchUsesTwoPartitions) {
  // a -> h (host only) -> d, a -> d: {a, d} is not convex, so the best is
  // two partitions with a's result shared.
  Graph g;
  g.partitionOverheadUs = 1;
  g.values = {{-1, {0}, false, 1}, {0, {1, 2}, false, 1},
              {1, {2}, false, 1}, {2, {}, true, 1}};
  g.nodes = {{100, 1, true, Constraint::Free},
             {5, 0, false, Constraint::Free},
             {100, 1, true, Constraint::Free}};
  Solution s = solve(g);
  EXPECT_EQ(s.partition, (std::vector<int>{0, -1, 1}));
  std::string why;
  EXPECT_EQ(evaluate(g, {0, -1, 0}, &why),
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(why, "partition 0 is not convex");
}

TEST(PartitionSolverTest, ConstraintsAreHonoured) {
  Graph g = chain(100, 10, 5, 20);
  g.nodes[1].constraint = Constraint::ForceHost;
  Solution s = solve(g);
  EXPECT_EQ(s.partition[1], -1);
  Graph h = chain(10, 9, 5, 20); // not profitable, but forced
  h.nodes[2].constraint = Constraint::ForceDevice;
  Solution t = solve(h);
  EXPECT_GE(t.partition[2], 0);
  EXPECT_TRUE(t.optimal);
}

TEST(PartitionSolverTest, EnforceLimitsDropsTheLeastBeneficial) {
  // Two independent chains; the second saves less.
  Graph g;
  g.partitionOverheadUs = 1;
  g.values = {{-1, {0, 1}, false, 1}, {0, {}, true, 1}, {1, {}, true, 1}};
  g.nodes = {{100, 10, true, Constraint::Free},
             {50, 10, true, Constraint::Free}};
  Solution s = solve(g);
  ASSERT_EQ(s.numPartitions, 2u);
  EXPECT_DOUBLE_EQ(partitionBenefit(g, s, s.partition[1]), 40 - 1 - 2);
  Solution limited = s;
  std::vector<DroppedPartition> dropped = enforceLimits(g, limited, 1, 0);
  ASSERT_EQ(dropped.size(), 1u);
  EXPECT_EQ(dropped[0].nodes, std::vector<int>{1});
  EXPECT_FALSE(dropped[0].belowMinimum);
  EXPECT_EQ(limited.partition, (std::vector<int>{0, -1}));
  Solution thresholded = s;
  dropped = enforceLimits(g, thresholded, 0, 50);
  ASSERT_EQ(dropped.size(), 1u);
  EXPECT_TRUE(dropped[0].belowMinimum);
  EXPECT_DOUBLE_EQ(dropped[0].benefitUs, 37);
}

TEST(PartitionSolverTest, ExplainsAnUnprofitableNode) {
  Solution s = solve(chain(10, 9, 5, 20));
  double saving = 0, extra = 0;
  ASSERT_TRUE(explainHostNode(chain(10, 9, 5, 20), s, 1, saving, extra));
  EXPECT_DOUBLE_EQ(saving, 1);
  EXPECT_DOUBLE_EQ(extra, 20 + 5 + 5); // overhead, upload, download
}

TEST(PartitionSolverTest, LargeGraphsStayFeasible) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    Graph g = randomGraph(rng, 400, 400);
    Solution s = solve(g, {64, 1u << 14});
    EXPECT_LT(s.cost, kInf);
    EXPECT_DOUBLE_EQ(evaluate(g, s.partition), s.cost);
    // Never worse than running everything on the host.
    double host = 0;
    for (const Node &n : g.nodes)
      host += n.hostUs;
    bool forced = false;
    for (const Node &n : g.nodes)
      forced |= n.constraint == Constraint::ForceDevice;
    if (!forced) {
      EXPECT_LE(s.cost, host + 1e-9);
    }
  }
}

} // namespace
