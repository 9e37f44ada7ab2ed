//===- PartitionSolver.cpp - Cost-minimising host/NNAPI placement ---------===//
//
// 1. A linear heuristic places every NNAPI-capable node on NNAPI and groups
//    them by "stage" (a node's stage grows by one each time a path crosses
//    between host and NNAPI), which makes every group convex; groups that do
//    not pay for themselves go back to the host, and the grouping repeats.
// 2. Capable nodes split into clusters (connected through capable-to-capable
//    edges). Clusters do not interact in the cost, so each is searched on its
//    own: a depth-first branch and bound over the cluster's nodes in
//    topological order, each going to the host, into a new partition, or
//    into the union of some of the partitions holding its producers (kept
//    only if convex), bounded by compute already spent, the cheaper side of
//    every node still open, transfers already forced and the partitions that
//    can no longer merge. The heuristic placement is the initial upper bound.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Partition/PartitionSolver.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <numeric>

using namespace nnapi_mlir::partition;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr unsigned kMaxExact = 64;

struct UnionFind {
  std::vector<int> parent;
  explicit UnionFind(size_t n) : parent(n) {
    std::iota(parent.begin(), parent.end(), 0);
  }
  int find(int x) {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  }
  void unite(int a, int b) { parent[find(a)] = find(b); }
};

struct Adjacency {
  std::vector<std::vector<int>> succ, pred;
  std::vector<std::vector<int>> touching; ///< Values each node produces or uses.
  explicit Adjacency(const Graph &g)
      : succ(g.nodes.size()), pred(g.nodes.size()), touching(g.nodes.size()) {
    for (size_t vi = 0; vi < g.values.size(); ++vi) {
      const Value &v = g.values[vi];
      if (v.producer >= 0)
        touching[v.producer].push_back(int(vi));
      for (int c : v.consumers) {
        if (touching[c].empty() || touching[c].back() != int(vi))
          touching[c].push_back(int(vi));
        if (v.producer >= 0) {
          succ[v.producer].push_back(c);
          pred[c].push_back(v.producer);
        }
      }
    }
    for (auto *lists : {&succ, &pred, &touching})
      for (std::vector<int> &l : *lists) {
        std::sort(l.begin(), l.end());
        l.erase(std::unique(l.begin(), l.end()), l.end());
      }
  }
};

/// Transfers one value causes under `part` (see the header for the rule).
double valueCost(const Value &v, const std::vector<int> &part) {
  int home = v.producer < 0 ? -1 : part[v.producer];
  bool download = home >= 0 && v.graphOutput;
  int uploads = 0;
  int seen[8];
  int numSeen = 0;
  std::vector<int> more;
  for (int c : v.consumers) {
    int pc = part[c];
    if (pc == home)
      continue;
    if (home >= 0)
      download = true;
    if (pc < 0)
      continue;
    bool dup = std::find(seen, seen + numSeen, pc) != seen + numSeen ||
               std::find(more.begin(), more.end(), pc) != more.end();
    if (dup)
      continue;
    if (numSeen < 8)
      seen[numSeen++] = pc;
    else
      more.push_back(pc);
    ++uploads;
  }
  return v.transferUs * (uploads + (download ? 1 : 0));
}

bool canRunOnDevice(const Node &n) {
  return n.deviceCapable && n.constraint != Constraint::ForceHost;
}

/// Sum of value costs over the values touching `nodes`, each counted once.
double touchingValueCost(const Graph &g, const Adjacency &adj,
                         const std::vector<int> &nodes,
                         const std::vector<int> &part) {
  std::vector<int> values;
  for (int n : nodes)
    values.insert(values.end(), adj.touching[n].begin(),
                  adj.touching[n].end());
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  double cost = 0;
  for (int v : values)
    cost += valueCost(g.values[v], part);
  return cost;
}

/// Cost of `part` minus the cost with `nodes` (all in one partition) moved to
/// the host.
double benefitOf(const Graph &g, const Adjacency &adj,
                 const std::vector<int> &nodes, std::vector<int> &part) {
  double before = touchingValueCost(g, adj, nodes, part);
  std::vector<int> saved;
  for (int n : nodes) {
    saved.push_back(part[n]);
    part[n] = -1;
  }
  double after = touchingValueCost(g, adj, nodes, part);
  for (size_t i = 0; i < nodes.size(); ++i)
    part[nodes[i]] = saved[i];
  double compute = 0;
  for (int n : nodes)
    compute += g.nodes[n].hostUs - g.nodes[n].deviceUs;
  return compute - g.partitionOverheadUs + (after - before);
}

/// Groups the nodes with device[v] into convex partitions by stage.
std::vector<int> groupByStage(const Graph &g, const Adjacency &adj,
                              const std::vector<char> &device) {
  size_t n = g.nodes.size();
  std::vector<int> stage(n, 0);
  for (size_t v = 0; v < n; ++v) {
    int s = 0;
    for (int p : adj.pred[v])
      s = std::max(s, stage[p] + (device[p] != device[v] ? 1 : 0));
    // Graph inputs live on the host at stage 0.
    if (device[v])
      for (int vi : adj.touching[v])
        if (g.values[vi].producer < 0)
          s = std::max(s, 1);
    stage[v] = s;
  }
  UnionFind uf(n);
  for (size_t v = 0; v < n; ++v)
    if (device[v])
      for (int c : adj.succ[v])
        if (device[c] && stage[c] == stage[v])
          uf.unite(int(v), c);
  std::vector<int> part(n, -1);
  for (size_t v = 0; v < n; ++v)
    if (device[v])
      part[v] = uf.find(int(v));
  return part;
}

/// Renumbers partitions 0.. in order of first node.
unsigned renumber(std::vector<int> &part) {
  std::vector<int> map;
  std::vector<std::pair<int, int>> seen;
  int next = 0;
  for (int &p : part) {
    if (p < 0)
      continue;
    auto it = std::find_if(seen.begin(), seen.end(),
                           [&](auto &e) { return e.first == p; });
    if (it == seen.end()) {
      seen.push_back({p, next});
      p = next++;
    } else {
      p = it->second;
    }
  }
  return unsigned(next);
}

std::vector<std::vector<int>> membersOf(const std::vector<int> &part) {
  std::vector<std::vector<int>> members;
  for (size_t v = 0; v < part.size(); ++v) {
    if (part[v] < 0)
      continue;
    if (size_t(part[v]) >= members.size())
      members.resize(part[v] + 1);
    members[part[v]].push_back(int(v));
  }
  return members;
}

/// The heuristic placement.
std::vector<int> heuristic(const Graph &g, const Adjacency &adj) {
  size_t n = g.nodes.size();
  std::vector<char> device(n);
  for (size_t v = 0; v < n; ++v)
    device[v] = canRunOnDevice(g.nodes[v]);
  std::vector<int> part;
  for (int round = 0; round < 16; ++round) {
    part = groupByStage(g, adj, device);
    renumber(part);
    bool changed = false;
    for (const std::vector<int> &members : membersOf(part)) {
      if (members.empty())
        continue;
      bool forced = std::any_of(members.begin(), members.end(), [&](int v) {
        return g.nodes[v].constraint == Constraint::ForceDevice;
      });
      if (forced || benefitOf(g, adj, members, part) > 0)
        continue;
      for (int v : members) {
        device[v] = 0;
        part[v] = -1;
      }
      changed = true;
    }
    if (!changed)
      break;
  }
  renumber(part);
  return part;
}

/// Exact search over one cluster of at most 64 capable nodes.
class ClusterSearch {
public:
  ClusterSearch(const Graph &g, const Adjacency &adj,
                const std::vector<int> &nodes, uint64_t budget)
      : g(g), adj(adj), nodes(nodes), k(int(nodes.size())), budget(budget) {}

  /// Prepares reachability; false if the graph around the cluster is too
  /// large to explore within the budget.
  bool prepare(std::vector<int> &localOf);

  /// Searches below `upperBound` (the cluster's cost under the current
  /// placement). Returns true if a better placement was found; `complete`
  /// says whether the search ran to the end.
  bool run(double upperBound, bool &complete);

  /// Best placement: per cluster node, -1 or a partition slot.
  const std::vector<int> &best() const { return bestAssign; }
  /// Search nodes used so far.
  uint64_t used() const { return visited; }

  /// The cluster's share of the cost under a global placement.
  double clusterCost(const std::vector<int> &part) const;

private:
  struct LocalValue {
    int producer;               ///< Local index, or -1 outside (host).
    std::vector<int> consumers; ///< Local indices.
    bool usedOutside;           ///< Produced here, used by the host outside or returned.
    double transferUs;
  };

  bool convex(uint64_t set) const {
    uint64_t desc = 0;
    for (uint64_t s = set; s; s &= s - 1) {
      int u = __builtin_ctzll(s);
      if (V[u] & set)
        return false;
      desc |= R[u];
    }
    for (uint64_t x = desc & ~set; x; x &= x - 1)
      if (R[__builtin_ctzll(x)] & set)
        return false;
    return true;
  }

  double transfersLowerBound(int decided) const;
  double leafCost() const;
  void dfs(int i, double compute);

  const Graph &g;
  const Adjacency &adj;
  std::vector<int> nodes;
  int k;
  uint64_t budget;
  uint64_t visited = 0;
  bool aborted = false;

  uint64_t R[kMaxExact] = {}, V[kMaxExact] = {}, predMask[kMaxExact] = {};
  int lastUse[kMaxExact];
  double hostUs[kMaxExact], deviceUs[kMaxExact];
  bool allowHost[kMaxExact], allowDevice[kMaxExact];
  std::vector<double> minRest;
  std::vector<LocalValue> values;

  int assign[kMaxExact];
  std::vector<uint64_t> slots; ///< Partition members; 0 = merged away.
  std::vector<int> slotLastUse;
  double bestCost = kInf;
  std::vector<int> bestAssign;
};

bool ClusterSearch::prepare(std::vector<int> &localOf) {
  for (int i = 0; i < k; ++i)
    localOf[nodes[i]] = i;
  int last = nodes.back();
  // Reachability from each cluster node, remembering whether the path went
  // through a node outside the cluster.
  size_t n = g.nodes.size();
  std::vector<char> seen(2 * n, 0);
  std::vector<int> touched;
  std::vector<std::pair<int, bool>> stack;
  uint64_t work = 0;
  for (int i = 0; i < k; ++i) {
    stack.clear();
    for (int s : adj.succ[nodes[i]])
      if (s <= last)
        stack.push_back({s, false});
    while (!stack.empty()) {
      auto [v, outside] = stack.back();
      stack.pop_back();
      size_t key = 2 * size_t(v) + (outside ? 1 : 0);
      if (seen[key])
        continue;
      seen[key] = 1;
      touched.push_back(int(key));
      if (++work > budget) {
        for (int j = 0; j < k; ++j)
          localOf[nodes[j]] = -1;
        return false;
      }
      int local = localOf[v];
      if (local >= 0) {
        R[i] |= uint64_t(1) << local;
        if (outside)
          V[i] |= uint64_t(1) << local;
      }
      bool next = outside || local < 0;
      for (int s : adj.succ[v])
        if (s <= last)
          stack.push_back({s, next});
    }
    for (int key : touched)
      seen[key] = 0;
    touched.clear();
  }

  std::vector<int> valueIds;
  for (int v : nodes)
    valueIds.insert(valueIds.end(), adj.touching[v].begin(),
                    adj.touching[v].end());
  std::sort(valueIds.begin(), valueIds.end());
  valueIds.erase(std::unique(valueIds.begin(), valueIds.end()),
                 valueIds.end());
  for (int i = 0; i < k; ++i) {
    const Node &node = g.nodes[nodes[i]];
    hostUs[i] = node.hostUs;
    deviceUs[i] = node.deviceUs;
    allowHost[i] = node.constraint != Constraint::ForceDevice;
    allowDevice[i] = true; // clusters hold capable nodes only
    lastUse[i] = -1;
    for (int p : adj.pred[nodes[i]])
      if (localOf[p] >= 0)
        predMask[i] |= uint64_t(1) << localOf[p];
  }
  for (int vi : valueIds) {
    const Value &v = g.values[vi];
    LocalValue lv;
    lv.producer = v.producer >= 0 ? localOf[v.producer] : -1;
    lv.usedOutside = lv.producer >= 0 && v.graphOutput;
    lv.transferUs = v.transferUs;
    for (int c : v.consumers) {
      if (localOf[c] >= 0)
        lv.consumers.push_back(localOf[c]);
      else if (lv.producer >= 0)
        lv.usedOutside = true;
    }
    if (lv.producer >= 0)
      for (int c : lv.consumers)
        lastUse[lv.producer] = std::max(lastUse[lv.producer], c);
    values.push_back(std::move(lv));
  }
  minRest.assign(k + 1, 0);
  for (int i = k - 1; i >= 0; --i)
    minRest[i] = minRest[i + 1] + (allowHost[i] ? std::min(hostUs[i], deviceUs[i])
                                                : deviceUs[i]);
  for (int i = 0; i < k; ++i)
    localOf[nodes[i]] = -1;
  return true;
}

double ClusterSearch::clusterCost(const std::vector<int> &part) const {
  double cost = 0;
  std::vector<int> parts;
  for (int i = 0; i < k; ++i) {
    int p = part[nodes[i]];
    cost += p < 0 ? hostUs[i] : deviceUs[i];
    if (p >= 0 && std::find(parts.begin(), parts.end(), p) == parts.end())
      parts.push_back(p);
  }
  cost += g.partitionOverheadUs * double(parts.size());
  for (const LocalValue &v : values) {
    int home = v.producer < 0 ? -1 : part[nodes[v.producer]];
    bool download = home >= 0 && v.usedOutside;
    std::vector<int> uploads;
    for (int c : v.consumers) {
      int pc = part[nodes[c]];
      if (pc == home)
        continue;
      if (home >= 0)
        download = true;
      if (pc >= 0 && std::find(uploads.begin(), uploads.end(), pc) ==
                         uploads.end())
        uploads.push_back(pc);
    }
    cost += v.transferUs * double(uploads.size() + (download ? 1 : 0));
  }
  return cost;
}

double ClusterSearch::leafCost() const {
  double cost = 0;
  int live = 0;
  for (uint64_t s : slots)
    live += s != 0;
  cost += g.partitionOverheadUs * live;
  for (const LocalValue &v : values) {
    int home = v.producer < 0 ? -1 : assign[v.producer];
    bool download = home >= 0 && v.usedOutside;
    uint64_t uploads = 0;
    for (int c : v.consumers) {
      int pc = assign[c];
      if (pc == home)
        continue;
      if (home >= 0)
        download = true;
      if (pc >= 0)
        uploads |= uint64_t(1) << pc;
    }
    cost += v.transferUs *
            double(__builtin_popcountll(uploads) + (download ? 1 : 0));
  }
  return cost;
}

double ClusterSearch::transfersLowerBound(int decided) const {
  double cost = 0;
  for (const LocalValue &v : values) {
    bool producerKnown = v.producer < decided;
    if (!producerKnown)
      continue;
    bool onDevice = v.producer >= 0 && assign[v.producer] >= 0;
    bool crosses = onDevice && v.usedOutside;
    for (int c : v.consumers)
      if (c < decided && (assign[c] >= 0) != onDevice)
        crosses = true;
    if (crosses)
      cost += v.transferUs;
  }
  return cost;
}

void ClusterSearch::dfs(int i, double compute) {
  if (aborted)
    return;
  if (++visited > budget) {
    aborted = true;
    return;
  }
  if (i == k) {
    double cost = compute + leafCost();
    if (cost < bestCost - 1e-9) {
      bestCost = cost;
      bestAssign.assign(assign, assign + k);
    }
    return;
  }
  // Lower bound: partitions that can no longer merge each cost the overhead;
  // open ones at least one overhead between them.
  int closed = 0, open = 0;
  for (size_t s = 0; s < slots.size(); ++s) {
    if (!slots[s])
      continue;
    (slotLastUse[s] < i ? closed : open)++;
  }
  double bound = compute + minRest[i] + transfersLowerBound(i) +
                 g.partitionOverheadUs * (closed + (open ? 1 : 0));
  if (bound >= bestCost - 1e-9)
    return;

  // Partitions holding a producer of node i.
  int adjacent[kMaxExact];
  int numAdjacent = 0;
  for (uint64_t p = predMask[i]; p; p &= p - 1) {
    int slot = assign[__builtin_ctzll(p)];
    if (slot >= 0 &&
        std::find(adjacent, adjacent + numAdjacent, slot) ==
            adjacent + numAdjacent)
      adjacent[numAdjacent++] = slot;
  }

  auto tryDevice = [&](uint64_t subset) {
    // subset: bit j selects adjacent[j].
    uint64_t members = uint64_t(1) << i;
    int target = -1;
    for (int j = 0; j < numAdjacent; ++j)
      if (subset >> j & 1) {
        members |= slots[adjacent[j]];
        target = target < 0 ? adjacent[j] : std::min(target, adjacent[j]);
      }
    if (!convex(members))
      return;
    bool fresh = target < 0;
    if (fresh) {
      target = int(slots.size());
      slots.push_back(0);
      slotLastUse.push_back(-1);
    }
    uint64_t savedMasks[kMaxExact];
    int savedLastUse[kMaxExact];
    int lu = lastUse[i];
    for (int j = 0; j < numAdjacent; ++j) {
      savedMasks[j] = slots[adjacent[j]];
      savedLastUse[j] = slotLastUse[adjacent[j]];
      if (subset >> j & 1) {
        lu = std::max(lu, slotLastUse[adjacent[j]]);
        slots[adjacent[j]] = 0;
      }
    }
    for (uint64_t m = members; m; m &= m - 1)
      assign[__builtin_ctzll(m)] = target;
    slots[target] = members;
    slotLastUse[target] = lu;
    dfs(i + 1, compute + deviceUs[i]);
    for (int j = 0; j < numAdjacent; ++j) {
      slots[adjacent[j]] = savedMasks[j];
      slotLastUse[adjacent[j]] = savedLastUse[j];
      for (uint64_t m = savedMasks[j]; m; m &= m - 1)
        assign[__builtin_ctzll(m)] = adjacent[j];
    }
    assign[i] = -1;
    if (fresh) {
      slots.pop_back();
      slotLastUse.pop_back();
    }
  };
  auto tryHost = [&] {
    assign[i] = -1;
    dfs(i + 1, compute + hostUs[i]);
  };

  bool deviceFirst = deviceUs[i] <= hostUs[i] || !allowHost[i];
  if (!deviceFirst && allowHost[i])
    tryHost();
  // Larger merges first; with many neighbours only all, each one, or none.
  if (numAdjacent <= 5) {
    for (uint64_t subset = (uint64_t(1) << numAdjacent); subset-- > 0;)
      tryDevice(subset);
  } else {
    tryDevice((uint64_t(1) << numAdjacent) - 1);
    for (int j = 0; j < numAdjacent; ++j)
      tryDevice(uint64_t(1) << j);
    tryDevice(0);
  }
  if (deviceFirst && allowHost[i])
    tryHost();
}

bool ClusterSearch::run(double upperBound, bool &complete) {
  bestCost = upperBound;
  slots.clear();
  slotLastUse.clear();
  for (int i = 0; i < k; ++i)
    assign[i] = -1;
  dfs(0, 0);
  // With more than 5 neighbouring partitions not every merge is tried.
  complete = !aborted;
  return !bestAssign.empty();
}

/// True if no path leaves the set and comes back into it. `members` lists
/// the set, `last` is its largest node (nodes after it cannot reach it) and
/// `inSet` tests membership. `seen` is all-zero scratch, left all-zero.
template <typename InSet>
bool isConvexSet(const Adjacency &adj, const std::vector<int> &members,
                 int last, InSet inSet, std::vector<char> &seen) {
  std::vector<int> stack, touched;
  for (int m : members)
    for (int s : adj.succ[m])
      if (!inSet(s) && s < last)
        stack.push_back(s);
  bool convex = true;
  while (!stack.empty() && convex) {
    int v = stack.back();
    stack.pop_back();
    if (seen[v])
      continue;
    seen[v] = 1;
    touched.push_back(v);
    for (int s : adj.succ[v]) {
      if (inSet(s))
        convex = false;
      else if (s < last)
        stack.push_back(s);
    }
  }
  for (int v : touched)
    seen[v] = 0;
  return convex;
}

} // namespace

double nnapi_mlir::partition::evaluate(const Graph &g,
                                       const std::vector<int> &part,
                                       std::string *why) {
  auto infeasible = [&](const std::string &reason) {
    if (why)
      *why = reason;
    return kInf;
  };
  size_t n = g.nodes.size();
  if (part.size() != n)
    return infeasible("placement has the wrong size");
  Adjacency adj(g);
  double cost = 0;
  int maxPart = -1;
  for (size_t v = 0; v < n; ++v) {
    const Node &node = g.nodes[v];
    if (part[v] >= 0 && !canRunOnDevice(node))
      return infeasible("node " + std::to_string(v) + " cannot run on NNAPI");
    if (part[v] < 0 && node.constraint == Constraint::ForceDevice &&
        canRunOnDevice(node))
      return infeasible("node " + std::to_string(v) + " must run on NNAPI");
    cost += part[v] < 0 ? node.hostUs : node.deviceUs;
    maxPart = std::max(maxPart, part[v]);
  }
  std::vector<std::vector<int>> members(maxPart + 1);
  for (size_t v = 0; v < n; ++v)
    if (part[v] >= 0)
      members[part[v]].push_back(int(v));
  UnionFind uf(n);
  for (size_t v = 0; v < n; ++v)
    for (int s : adj.succ[v])
      if (part[v] >= 0 && part[s] == part[v])
        uf.unite(int(v), s);
  int numParts = 0;
  std::vector<char> inPart(n, 0), seen(n, 0);
  for (size_t p = 0; p < members.size(); ++p) {
    const std::vector<int> &m = members[p];
    if (m.empty())
      continue;
    ++numParts;
    for (int v : m)
      if (uf.find(v) != uf.find(m.front()))
        return infeasible("partition " + std::to_string(p) +
                          " is not connected");
    for (int v : m)
      inPart[v] = 1;
    bool convex = isConvexSet(
        adj, m, m.back(), [&](int v) { return inPart[v] != 0; }, seen);
    for (int v : m)
      inPart[v] = 0;
    if (!convex)
      return infeasible("partition " + std::to_string(p) + " is not convex");
  }
  cost += g.partitionOverheadUs * numParts;
  for (const Value &v : g.values)
    cost += valueCost(v, part);
  return cost;
}

Solution nnapi_mlir::partition::solve(const Graph &g,
                                      const SolverOptions &options) {
  Adjacency adj(g);
  size_t n = g.nodes.size();
  Solution solution;
  solution.partition = heuristic(g, adj);

  // Clusters of capable nodes.
  UnionFind uf(n);
  for (size_t v = 0; v < n; ++v)
    if (canRunOnDevice(g.nodes[v]))
      for (int s : adj.succ[v])
        if (canRunOnDevice(g.nodes[s]))
          uf.unite(int(v), s);
  std::vector<std::vector<int>> clusters;
  std::vector<int> clusterOf(n, -1);
  for (size_t v = 0; v < n; ++v) {
    if (!canRunOnDevice(g.nodes[v]))
      continue;
    int root = uf.find(int(v));
    if (clusterOf[root] < 0) {
      clusterOf[root] = int(clusters.size());
      clusters.emplace_back();
    }
    clusters[clusterOf[root]].push_back(int(v));
  }

  unsigned limit = std::min(options.exactLimit, kMaxExact);
  std::vector<int> localOf(n, -1);
  int nextPart = int(n); // fresh ids, renumbered below
  // Small clusters first: they are the ones an exhaustive search settles, and
  // once the total budget is spent the rest get only a short search.
  std::stable_sort(clusters.begin(), clusters.end(),
                   [](const auto &a, const auto &b) { return a.size() < b.size(); });
  uint64_t spent = 0;
  for (const std::vector<int> &cluster : clusters) {
    ++solution.clusters;
    if (cluster.size() > limit) {
      solution.optimal = false;
      solution.largestInexactCluster =
          std::max(solution.largestInexactCluster, unsigned(cluster.size()));
      continue;
    }
    uint64_t budget = spent < options.totalBudget
                          ? options.searchBudget
                          : std::min<uint64_t>(options.searchBudget, 4096);
    ClusterSearch search(g, adj, cluster, budget);
    if (!search.prepare(localOf)) {
      solution.optimal = false;
      solution.largestInexactCluster =
          std::max(solution.largestInexactCluster, unsigned(cluster.size()));
      continue;
    }
    bool complete = false;
    double current = search.clusterCost(solution.partition);
    bool improved = search.run(current, complete);
    spent += search.used();
    if (improved) {
      const std::vector<int> &best = search.best();
      int base = nextPart;
      for (size_t i = 0; i < cluster.size(); ++i)
        solution.partition[cluster[i]] = best[i] < 0 ? -1 : base + best[i];
      nextPart += int(cluster.size());
    }
    if (complete) {
      ++solution.exactClusters;
    } else {
      solution.optimal = false;
      solution.largestInexactCluster =
          std::max(solution.largestInexactCluster, unsigned(cluster.size()));
    }
  }
  solution.numPartitions = renumber(solution.partition);
  solution.cost = evaluate(g, solution.partition);
  assert(solution.cost < kInf && "solver produced an infeasible placement");
  return solution;
}

double nnapi_mlir::partition::partitionBenefit(const Graph &g,
                                               const Solution &solution,
                                               int partition) {
  Adjacency adj(g);
  std::vector<int> part = solution.partition;
  std::vector<int> members;
  for (size_t v = 0; v < part.size(); ++v)
    if (part[v] == partition)
      members.push_back(int(v));
  return benefitOf(g, adj, members, part);
}

std::vector<DroppedPartition>
nnapi_mlir::partition::enforceLimits(const Graph &g, Solution &solution,
                                     unsigned maxPartitions,
                                     double minBenefitUs) {
  Adjacency adj(g);
  std::vector<DroppedPartition> dropped;
  std::vector<int> &part = solution.partition;
  while (true) {
    std::vector<std::vector<int>> members = membersOf(part);
    unsigned live = 0;
    int worst = -1;
    double worstBenefit = kInf;
    for (size_t p = 0; p < members.size(); ++p) {
      if (members[p].empty())
        continue;
      ++live;
      bool forced = std::any_of(
          members[p].begin(), members[p].end(), [&](int v) {
            return g.nodes[v].constraint == Constraint::ForceDevice;
          });
      if (forced)
        continue;
      double benefit = benefitOf(g, adj, members[p], part);
      if (benefit < worstBenefit) {
        worstBenefit = benefit;
        worst = int(p);
      }
    }
    bool tooMany = maxPartitions && live > maxPartitions;
    bool tooSmall = worst >= 0 && worstBenefit < minBenefitUs;
    if (worst < 0 || (!tooMany && !tooSmall))
      break;
    dropped.push_back({members[worst], worstBenefit, !tooMany});
    for (int v : members[worst])
      part[v] = -1;
  }
  if (!dropped.empty()) {
    solution.numPartitions = renumber(part);
    solution.cost = evaluate(g, part);
  }
  return dropped;
}

std::vector<HostExplanation>
nnapi_mlir::partition::explainHostNodes(const Graph &g,
                                        const Solution &solution) {
  Adjacency adj(g);
  std::vector<HostExplanation> result(g.nodes.size());
  std::vector<int> part = solution.partition;
  std::vector<std::vector<int>> members = membersOf(part);
  std::vector<char> seen(g.nodes.size(), 0);
  for (size_t v = 0; v < g.nodes.size(); ++v) {
    const Node &n = g.nodes[v];
    if (!canRunOnDevice(n) || part[v] >= 0)
      continue;
    // Only the tensors v produces or uses change cost when v moves.
    double before = touchingValueCost(g, adj, {int(v)}, part);
    double best = kInf;
    auto consider = [&](int target, bool fresh) {
      if (!fresh) {
        std::vector<int> set = members[target];
        set.push_back(int(v));
        int last = std::max(members[target].back(), int(v)); // sorted
        auto inSet = [&](int x) { return x == int(v) || part[x] == target; };
        if (!isConvexSet(adj, set, last, inSet, seen))
          return;
      }
      part[v] = target;
      double delta = touchingValueCost(g, adj, {int(v)}, part) - before +
                     (fresh ? g.partitionOverheadUs : 0.0);
      part[v] = -1;
      best = std::min(best, delta);
    };
    consider(int(solution.numPartitions), /*fresh=*/true);
    std::vector<int> neighbours;
    for (const auto *list : {&adj.pred[v], &adj.succ[v]})
      for (int m : *list)
        if (part[m] >= 0 && std::find(neighbours.begin(), neighbours.end(),
                                      part[m]) == neighbours.end())
          neighbours.push_back(part[m]);
    for (int p : neighbours)
      consider(p, /*fresh=*/false);
    result[v].computeSaving = n.hostUs - n.deviceUs;
    result[v].extraCost = best;
    result[v].valid = best < kInf;
  }
  return result;
}

bool nnapi_mlir::partition::explainHostNode(const Graph &g,
                                            const Solution &solution,
                                            int node, double &computeSaving,
                                            double &extraCost) {
  HostExplanation e = explainHostNodes(g, solution)[node];
  computeSaving = e.computeSaving;
  extraCost = e.extraCost;
  return e.valid;
}

std::vector<double>
nnapi_mlir::partition::partitionBenefits(const Graph &g,
                                         const Solution &solution) {
  Adjacency adj(g);
  std::vector<int> part = solution.partition;
  std::vector<double> result;
  for (const std::vector<int> &members : membersOf(part))
    result.push_back(members.empty() ? 0.0 : benefitOf(g, adj, members, part));
  result.resize(solution.numPartitions, 0.0);
  return result;
}
