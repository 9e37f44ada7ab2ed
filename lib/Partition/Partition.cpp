//===- Partition.cpp - Cost-driven placement and outlining of NNAPI regions -===//
//
// For each function: make each op a placement unit (an nnapi.composite, a
// raised softmax or hard swish, is one op), decide per unit whether NNAPI
// can run it (legality at the feature level, the device profile, stop-ops,
// the placement override) and what it costs on each side, hand the resulting graph to the placement
// solver (PartitionSolver.h), apply max-partitions / min-partition-cost,
// explain every host op, and outline each partition into a private function.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Partition/Passes.h"
#include "Outline.h"
#include "nnapi-mlir/Conversion/TosaToNNAPI/TosaToNNAPI.h"
#include "nnapi-mlir/Partition/CostModel.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/Fusion.h"
#include "nnapi-mlir/Partition/PartitionReport.h"
#include "nnapi-mlir/Partition/PartitionSolver.h"
#include "nnapi-mlir/NNAPI/DeviceProfile.h"
#include "nnapi-mlir/Support/CPUs.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPIPARTITION
#include "nnapi-mlir/Partition/Passes.h.inc"
} // namespace mlir::nnapi

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::nnapi;
namespace solver = nnapi_mlir::partition;
namespace profile = nnapi_mlir::profile;
namespace quirks = nnapi_mlir::quirks;

namespace {

/// Constants are cloned into every region that uses them, never placed.
bool isConstantLike(Operation *op) { return matchPattern(op, m_Constant()); }

std::string us(double value) {
  // Never print "-0.0 us".
  return llvm::formatv("{0:F1} us", std::abs(value) < 0.05 ? 0.0 : value).str();
}

/// The built-in profile when none is given: profiles/generic-flN.json.
profile::DeviceProfile genericProfile(unsigned featureLevel) {
  profile::DeviceProfile p;
  p.name = "generic-fl" + std::to_string(featureLevel);
  p.featureLevel = featureLevel;
  p.deviceType = 4;
  p.operations[-1] = 0b101 | (featureLevel >= 3 ? 0b010 : 0);
  auto cost = [](double fixed, double mac, double element) {
    return profile::CostModel{fixed, mac, element};
  };
  p.device.defaults = {cost(2, 0.005, 0.2), cost(2, 0.0025, 0.1),
                       cost(2, 0.00125, 0.05)};
  p.host.defaults = {cost(0.1, 0.05, 0.2), cost(0.1, 0.1, 0.4),
                     cost(0.1, 0.025, 0.1)};
  p.transferFixedUs = 5;
  p.transferNsPerByte = 0.25;
  p.partitionOverheadUs = 40;
  return p;
}

/// The name a user would call an op by: its NameLoc, else type#index.
std::string displayName(Operation *op, unsigned index) {
  std::string found;
  op->getLoc()->walk([&](Location loc) {
    if (auto name = dyn_cast<NameLoc>(loc)) {
      found = name.getName().str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (!found.empty())
    return found;
  return (op->getName().getStringRef() + "#" + Twine(index)).str();
}

/// A placement override: op names or types forced to one side.
struct PlacementOverride {
  std::vector<std::string> host, nnapi;
  llvm::StringSet<> used;

  LogicalResult load(StringRef path, std::string &error) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer) {
      error = ("cannot read placement override '" + path +
               "': " + buffer.getError().message())
                  .str();
      return failure();
    }
    llvm::Expected<llvm::json::Value> json =
        llvm::json::parse((*buffer)->getBuffer());
    if (!json) {
      error = ("placement override '" + path +
               "': invalid JSON: " + llvm::toString(json.takeError()))
                  .str();
      return failure();
    }
    llvm::json::Object *object = json->getAsObject();
    if (!object) {
      error = ("placement override '" + path +
               "': expected an object {\"host\": [...], \"nnapi\": [...]}")
                  .str();
      return failure();
    }
    for (auto &[key, value] : *object) {
      std::vector<std::string> *list = key == "host"    ? &host
                                       : key == "nnapi" ? &nnapi
                                                        : nullptr;
      llvm::json::Array *array = value.getAsArray();
      if (!list || !array) {
        error = ("placement override '" + path + "': key '" + key.str() +
                 "' must be \"host\" or \"nnapi\" with an array of op "
                 "names or types")
                    .str();
        return failure();
      }
      for (llvm::json::Value &entry : *array) {
        std::optional<StringRef> s = entry.getAsString();
        if (!s) {
          error = ("placement override '" + path + "': entries of '" +
                   key.str() + "' must be strings")
                      .str();
          return failure();
        }
        list->push_back(s->str());
      }
    }
    return success();
  }

  /// The entry of `list` matching the unit (by name, TOSA type or NNAPI
  /// operation), or "".
  std::string match(const std::vector<std::string> &list, StringRef name,
                    ArrayRef<Operation *> ops, int32_t opcode) {
    for (const std::string &entry : list) {
      bool hit = entry == name ||
                 llvm::any_of(ops, [&](Operation *op) {
                   return op->getName().getStringRef() == entry;
                 }) ||
                 (opcode >= 0 && entry == nnapi_mlir::operationName(opcode));
      if (hit) {
        used.insert(entry);
        return entry;
      }
    }
    return "";
  }
};

/// A conditional or a loop, whose regions NNAPI's IF and WHILE may run as
/// models.
bool hasModelRegions(Operation *op) {
  return isa<tosa::IfOp, tosa::WhileOp>(op);
}

/// The NNAPI operation that names a unit and prices its work: the last of
/// the operations it becomes that only moves data when nothing else is
/// there; else the last other one (a matmul on a constant becomes RESHAPE,
/// FULLY_CONNECTED, RESHAPE; a reverse LSTM GATHER, the LSTM, GATHER; an
/// RNN the RNN, then the SLICE of its final state); -1 if it becomes none.
int32_t principalOperation(ArrayRef<int32_t> operations) {
  constexpr int32_t reshape = nnapi_mlir::lookupOperation("RESHAPE")->code;
  constexpr int32_t gather = nnapi_mlir::lookupOperation("GATHER")->code;
  constexpr int32_t slice = nnapi_mlir::lookupOperation("SLICE")->code;
  for (int32_t code : llvm::reverse(operations))
    if (code != reshape && code != gather && code != slice)
      return code;
  for (int32_t code : llvm::reverse(operations))
    if (code != reshape)
      return code;
  return operations.empty() ? -1 : operations.back();
}

/// One placement decision: an op (an nnapi.composite is one), joined by the
/// activation fused into it.
struct Unit {
  SmallVector<Operation *> ops; ///< Program order; the last one is the root.
  std::string name, type;
  /// What converting the unit's ops would produce (TosaToNNAPIConverter).
  ConversionCheck conversion;
  /// The NNAPI operation that names and prices the unit
  /// (principalOperation), or -1.
  int32_t opcode = -1;
  bool capable = false;
  solver::Constraint constraint = solver::Constraint::Free;
  std::string reason; ///< Why it cannot go to NNAPI.
  double hostUs = 0, deviceUs = 0;
  double macs = 0, elements = 0; ///< The cost model's work measures.
  /// hostUs / deviceUs are the profile's measurements of this very op.
  bool measuredHost = false, measuredDevice = false;
  /// ops = {producer, activation} joined by mergeFusedActivations().
  bool fusedActivation = false;
  /// Where remarks about the unit point.
  Operation *anchor() const {
    return fusedActivation ? ops.front() : ops.back();
  }
};

struct PassConfig {
  /// The judge of what NNAPI can run, shared with convert-tosa-to-nnapi.
  std::optional<TosaToNNAPIConverter> converter;
  profile::DeviceProfile device;
  std::string profilePath;
  unsigned featureLevel; ///< min(option, profile)
  bool allowFp16;
  double minPartitionCost;
  unsigned maxPartitions;
  uint64_t searchBudget;
  std::vector<std::string> stopOps;
  PlacementOverride placement;
  bool emitRemarks;
  bool wantReport;
  /// What a dynamic dimension of the function being placed counts as
  /// (typicalDynamicSize).
  double dynamicSize = kUnboundedDynamicSize;
  /// The thread count costs are priced at (the profile's thread_scaling
  /// scales the one-thread costs to it).
  unsigned threads = 1;
};

profile::DataType dataTypeOf(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (element.isF16())
    return profile::DataType::Float16;
  if (element.isInteger(8))
    return profile::DataType::Int8;
  return profile::DataType::Float32;
}

uint64_t byteSize(Type type, double dynamicSize) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank())
    return 0;
  return uint64_t(tensorElements(type, dynamicSize)) *
         ((shaped.getElementTypeBitWidth() + 7) / 8);
}

/// Places the ops of one function's block.
class FunctionPlacer {
public:
  FunctionPlacer(Block &block, PassConfig &config)
      : block(block), config(config) {}

  /// Decides the placement. Fails (after an error) only for an impossible
  /// override.
  LogicalResult run();

  /// The partitions, each in program order, in order of first op.
  SmallVector<SmallVector<Operation *>> partitions() const;

  void fillReport(ReportFunction &report,
                  ArrayRef<std::string> partitionNames) const;
  /// `locations`: where each partition's first op was.
  void emitRemarks(ArrayRef<std::string> names,
                   ArrayRef<Location> locations) const;

private:
  void buildUnits();
  void classify(Unit &unit);
  void mergeFusedActivations();
  void applyQuirks();
  void buildGraph();
  void explain();

  Block &block;
  PassConfig &config;
  std::vector<Unit> units;
  DenseMap<Operation *, unsigned> unitOf;
  solver::Graph graph;
  solver::Solution solution;
  std::vector<std::vector<unsigned>> inputsOf;
  std::vector<double> benefits; ///< Per partition, set by explain().
};

void FunctionPlacer::buildUnits() {
  // A composite the conversion refuses (an LSTM with sequence_lens) is
  // placed op by op: NNAPI may run its pieces.
  SmallVector<CompositeOp> refused;
  for (Operation &op : block.without_terminator())
    if (auto composite = dyn_cast<CompositeOp>(&op))
      if (!config.converter->check({&op}).convertible)
        refused.push_back(composite);
  for (CompositeOp composite : refused)
    composite.inlineBody();
  // What a body computes that nothing reads (an LSTM's output sequence when
  // only its final state is used) goes, rather than become a partition.
  if (!refused.empty()) {
    // From the last op up, so that a producer is looked at after its users.
    SmallVector<Operation *> ops;
    for (Operation &op : block.without_terminator())
      ops.push_back(&op);
    for (Operation *op : llvm::reverse(ops))
      if (isOpTriviallyDead(op))
        op->erase();
  }
  // A value a loop's body passes on unchanged leaves the loop as it came
  // in: its users read that, so NNAPI's WHILE need not return it (its
  // models cannot return an input).
  for (Operation &op : block.without_terminator())
    if (auto loop = dyn_cast<tosa::WhileOp>(&op)) {
      Block &body = loop.getBody().front();
      for (auto [i, next] :
           llvm::enumerate(body.getTerminator()->getOperands()))
        if (next == body.getArgument(i))
          loop.getResult(i).replaceAllUsesWith(loop.getInputs()[i]);
    }
  // One unit per op: a chain that NNAPI runs as one operation is one
  // nnapi.composite by now (nnapi-raise-composites).
  for (Operation &op : block.without_terminator()) {
    if (isConstantLike(&op))
      continue;
    Unit unit;
    unit.ops = {&op};
    auto composite = dyn_cast<CompositeOp>(&op);
    unit.type = composite ? composite.getName().str()
                          : op.getName().getStringRef().str();
    unit.name = displayName(&op, units.size());
    if (!op.getNumRegions() || composite || hasModelRegions(&op)) {
      unit.conversion = config.converter->check(unit.ops);
      unit.opcode = principalOperation(unit.conversion.operations);
    }
    unitOf[&op] = units.size();
    units.push_back(std::move(unit));
  }
}

/// The ops that do a unit's work on the host: its ops, with each composite
/// replaced by the ops of its body (and so on, for composites inside), and
/// a conditional or loop by itself and the ops of its regions (both
/// branches; one iteration: NNAPI's side is priced alike).
SmallVector<Operation *> hostOps(ArrayRef<Operation *> ops) {
  SmallVector<Operation *> result;
  for (Operation *op : ops) {
    auto composite = dyn_cast<CompositeOp>(op);
    if (!composite && !hasModelRegions(op)) {
      result.push_back(op);
      continue;
    }
    if (!composite)
      result.push_back(op);
    SmallVector<Operation *> inner;
    for (Region &region : op->getRegions())
      for (Operation &nested : region.front().without_terminator())
        if (!isConstantLike(&nested))
          inner.push_back(&nested);
    llvm::append_range(result, hostOps(inner));
  }
  return result;
}

void FunctionPlacer::classify(Unit &unit) {
  Operation *root = unit.ops.back();
  // Work and cost, on the host for every unit.
  double macs = 0, elements = 0, points = 0, hostUs = 0;
  profile::DataType type =
      root->getNumOperands()  ? dataTypeOf(root->getOperand(0).getType())
      : root->getNumResults() ? dataTypeOf(root->getResult(0).getType())
                              : profile::DataType::Float32;
  for (Operation *op : hostOps(unit.ops)) {
    OpWork work = estimateWork(op, config.dynamicSize);
    macs += work.macs;
    elements += work.elements;
    // The host code's iteration points: the multiply-accumulates, or the
    // largest tensor an op walks.
    double walked = work.macs;
    for (TypeRange types : {TypeRange(op->getOperandTypes()),
                            TypeRange(op->getResultTypes())})
      for (Type t : types)
        walked = std::max(walked, tensorElements(t, config.dynamicSize));
    points += walked;
  }
  // Priced as nnapi-profile-device fits: the unit's whole work, one fixed
  // cost (the host code runs a composite's body as one fused loop nest).
  hostUs = config.device.host.lookup(unit.opcode, type)
               .estimateUs(macs, elements);
  unit.hostUs = hostUs;
  unit.macs = macs;
  unit.elements = elements;

  auto reject = [&](std::string why) {
    if (unit.reason.empty())
      unit.reason = std::move(why);
    unit.capable = false;
  };
  unit.capable = true;
  if (!unit.reason.empty()) {
    unit.capable = false;
  } else if (root->getNumRegions() && !isa<CompositeOp>(root) &&
             !hasModelRegions(root)) {
    reject("ops with regions stay on the host");
  } else if (!unit.conversion.convertible) {
    reject("unsupported: " + unit.conversion.reason);
  } else if (unit.conversion.need.level > config.featureLevel) {
    reject("unsupported: " +
           unit.conversion.need.refusal(config.featureLevel));
  }
  if (unit.capable && unit.opcode < 0)
    reject("unsupported: no NNAPI operation");
  const char *nnapiName = unit.opcode >= 0
                              ? nnapi_mlir::operationName(unit.opcode)
                              : nullptr;
  if (unit.capable) {
    for (const std::string &stop : config.stopOps)
      if (stop == unit.type || stop == nnapiName ||
          llvm::any_of(hostOps(unit.ops), [&](Operation *op) {
            return op->getName().getStringRef() == stop;
          })) {
        reject("listed in stop-ops ('" + stop + "')");
        break;
      }
  }
  profile::DataType deviceType = type;
  if (unit.capable) {
    const profile::DeviceProfile &p = config.device;
    // Every operation the unit becomes must run on the device.
    auto supportsAll = [&](profile::DataType t) {
      return llvm::all_of(unit.conversion.operations,
                          [&](int32_t code) { return p.supports(code, t); });
    };
    bool relaxed = type == profile::DataType::Float32 && config.allowFp16 &&
                   supportsAll(profile::DataType::Float16);
    if (relaxed)
      deviceType = profile::DataType::Float16;
    if (!relaxed && !supportsAll(type)) {
      const char *missing = nnapiName;
      for (int32_t code : unit.conversion.operations)
        if (!p.supports(code, type))
          missing = nnapi_mlir::operationName(code);
      std::string why = "device profile '" + p.name + "' does not run " +
                        missing + " on " + profile::dataTypeName(type);
      if (type == profile::DataType::Float32 &&
          supportsAll(profile::DataType::Float16))
        why += " (it would on float16: allow-fp16 lets float32 run relaxed)";
      reject(why);
    }
  }
  if (unit.capable) {
    // Every NNAPI operation the unit becomes is a call on the device; the
    // principal one does the multiply-accumulates, the others (reshapes
    // around a matmul, the steps of a polynomial) move or map the elements.
    unit.deviceUs = 0;
    for (int32_t code : unit.conversion.operations)
      unit.deviceUs += config.device.device.lookup(code, deviceType)
                           .estimateUs(code == unit.opcode ? macs : 0,
                                       elements);
  }
  // Measurements at this op's own shapes beat the fitted tables (the device's
  // only for the type it was measured on, not relaxed to float16).
  if (!config.device.measured.empty() && unit.ops.size() == 1) {
    auto it = config.device.measured.find(unitSignature(root));
    if (it != config.device.measured.end()) {
      if (it->second.hostUs) {
        unit.hostUs = *it->second.hostUs;
        unit.measuredHost = true;
      }
      if (unit.capable && deviceType == type && it->second.deviceUs) {
        unit.deviceUs = *it->second.deviceUs;
        unit.measuredDevice = true;
      }
    }
  }
  // Everything above is one thread's; the runtime runs `threads`. The host
  // code splits a loop band over them only above a minimum of iteration
  // points: below it the op runs on one thread whatever the count. Priced
  // alike on the device: handing so little work to other threads gains
  // nothing there either (the fitted fractions come from large probes).
  const profile::ThreadScaling &scaling = config.device.threadScaling;
  if (points >= double(NNAPIDialect::kMinParallelWork)) {
    unit.hostUs *= scaling.hostFactor(config.threads, unit.opcode);
    unit.deviceUs *= scaling.deviceFactor(config.threads, unit.opcode);
  }
  // The override has the last word, but cannot make NNAPI run what it can't.
  SmallVector<Operation *> named = hostOps(unit.ops);
  std::string hostEntry = config.placement.match(
      config.placement.host, unit.name, named, unit.opcode);
  std::string nnapiEntry = config.placement.match(
      config.placement.nnapi, unit.name, named, unit.opcode);
  if (!hostEntry.empty()) {
    unit.constraint = solver::Constraint::ForceHost;
    if (unit.capable)
      unit.reason = "placed on the host by the placement override ('" +
                    hostEntry + "')";
  } else if (!nnapiEntry.empty()) {
    unit.constraint = solver::Constraint::ForceDevice;
  }
}

/// An activation that NNAPI folds into its producer's fused-activation
/// operand (nnapi-fuse-activations) and that the host code generation fuses
/// into the producer's tiles costs next to nothing where its producer runs,
/// and a full pass over the tensor anywhere else. So the two are placed as
/// one unit: the producer's costs, the activation's work added to the
/// report. They stay apart when anything tells them apart: the activation
/// has another producer's value as input, its producer's result has other
/// users, either cannot run on NNAPI, or the override, stop-ops or the
/// profile treat them differently.
void FunctionPlacer::mergeFusedActivations() {
  std::vector<Unit> merged;
  merged.reserve(units.size());
  DenseMap<Operation *, unsigned> mergedIndex; // producer op -> merged unit
  for (Unit &unit : units) {
    Operation *act = unit.ops.front();
    Operation *producer = act->getNumOperands()
                              ? act->getOperand(0).getDefiningOp()
                              : nullptr;
    auto it = producer ? mergedIndex.find(producer) : mergedIndex.end();
    if (unit.ops.size() == 1 && unit.capable &&
        isFusableActivation(unit.opcode) && it != mergedIndex.end() &&
        act->getOperand(0).hasOneUse()) {
      Unit &p = merged[it->second];
      if (p.ops.size() == 1 && p.capable &&
          hasFusedActivationOperand(p.opcode) &&
          p.constraint == unit.constraint) {
        p.ops.push_back(act);
        p.fusedActivation = true;
        p.type += " + " + unit.type;
        p.macs += unit.macs;
        p.elements += unit.elements;
        mergedIndex.erase(it);
        continue;
      }
    }
    if (unit.ops.size() == 1)
      mergedIndex[unit.ops.front()] = merged.size();
    merged.push_back(std::move(unit));
  }
  units = std::move(merged);
  unitOf.clear();
  for (auto [i, unit] : llvm::enumerate(units))
    for (Operation *op : unit.ops)
      unitOf[op] = i;
}

/// Keeps on the host every unit that would become an NNAPI operation the
/// device profile's quirks list as computed wrong: the unit is converted
/// alone, as a partition of its own, and its operations' signatures looked
/// up. Only units becoming an operation some quirk names are converted.
void FunctionPlacer::applyQuirks() {
  const std::vector<quirks::Quirk> &list = config.device.quirks;
  if (list.empty())
    return;
  llvm::StringSet<> named;
  for (const quirks::Quirk &q : list)
    named.insert(StringRef(q.signature).split('(').first);
  for (Unit &unit : units) {
    if (!unit.capable ||
        llvm::none_of(unit.conversion.operations, [&](int32_t code) {
          const char *name = nnapi_mlir::operationName(code);
          return name && named.contains(name);
        }))
      continue;
    for (const std::string &signature :
         nnapiSignatures(unit.ops, config.featureLevel, config.allowFp16)) {
      auto quirk = llvm::find_if(list, [&](const quirks::Quirk &q) {
        return q.signature == signature;
      });
      if (quirk == list.end())
        continue;
      unit.capable = false;
      unit.constraint = solver::Constraint::Free;
      unit.reason = "device '" + config.device.name + "' computes " +
                    StringRef(signature).split('(').first.str() +
                    " wrong at these shapes (quirks" +
                    (quirk->error.empty() ? "" : ": " + quirk->error) + ")";
      break;
    }
  }
}

void FunctionPlacer::buildGraph() {
  graph.partitionOverheadUs = config.device.partitionOverheadUs;
  graph.nodes.resize(units.size());
  inputsOf.assign(units.size(), {});
  for (auto [i, unit] : llvm::enumerate(units)) {
    solver::Node &node = graph.nodes[i];
    node.hostUs = unit.hostUs;
    node.deviceUs = unit.deviceUs;
    node.deviceCapable = unit.capable;
    node.constraint = unit.constraint;
  }
  auto transferUs = [&](Value v) {
    return config.device.transferUs(byteSize(v.getType(), config.dynamicSize));
  };
  /// The unit an op (or the op enclosing it) belongs to, if any.
  auto unitFor = [&](Operation *user) -> std::optional<unsigned> {
    Operation *top = block.findAncestorOpInBlock(*user);
    if (!top)
      return std::nullopt;
    auto it = unitOf.find(top);
    if (it == unitOf.end())
      return std::nullopt;
    return it->second;
  };
  auto addValue = [&](Value v, int producer) {
    solver::Value value;
    value.producer = producer;
    value.transferUs = transferUs(v);
    for (Operation *user : v.getUsers()) {
      if (user->getBlock() == &block && user->hasTrait<OpTrait::IsTerminator>()) {
        value.graphOutput = true;
        continue;
      }
      std::optional<unsigned> u = unitFor(user);
      if (!u || int(*u) == producer)
        continue;
      if (!llvm::is_contained(value.consumers, int(*u)))
        value.consumers.push_back(int(*u));
      if (producer >= 0 && !llvm::is_contained(inputsOf[*u], unsigned(producer)))
        inputsOf[*u].push_back(unsigned(producer));
    }
    llvm::sort(value.consumers);
    graph.values.push_back(std::move(value));
  };
  for (BlockArgument arg : block.getArguments())
    addValue(arg, -1);
  for (auto [i, unit] : llvm::enumerate(units))
    for (Operation *op : unit.ops)
      for (Value r : op->getResults())
        addValue(r, int(i));
}

LogicalResult FunctionPlacer::run() {
  buildUnits();
  for (Unit &unit : units) {
    classify(unit);
    if (unit.constraint == solver::Constraint::ForceDevice && !unit.capable)
      return unit.ops.back()->emitError()
             << "the placement override puts '" << unit.name
             << "' on NNAPI, but NNAPI cannot run it: " << unit.reason;
  }
  mergeFusedActivations();
  applyQuirks();
  buildGraph();
  solver::SolverOptions options;
  options.searchBudget = config.searchBudget;
  solution = solver::solve(graph, options);
  std::vector<solver::DroppedPartition> dropped = solver::enforceLimits(
      graph, solution, config.maxPartitions, config.minPartitionCost);
  for (const solver::DroppedPartition &d : dropped)
    for (int n : d.nodes)
      units[n].reason =
          d.belowMinimum
              ? "its partition saves " + us(d.benefitUs) +
                    ", less than min-partition-cost (" +
                    us(config.minPartitionCost) + ")"
              : "max-partitions=" + std::to_string(config.maxPartitions) +
                    " kept more profitable partitions (this one saved " +
                    us(d.benefitUs) + ")";
  // Explaining each unprofitable op evaluates a move per op: only when
  // someone will read it.
  if (config.emitRemarks || config.wantReport)
    explain();
  return success();
}

void FunctionPlacer::explain() {
  std::vector<solver::HostExplanation> explanations =
      solver::explainHostNodes(graph, solution);
  for (auto [i, unit] : llvm::enumerate(units)) {
    if (solution.partition[i] >= 0 || !unit.reason.empty())
      continue;
    const solver::HostExplanation &e = explanations[i];
    if (!e.valid)
      unit.reason = "not profitable: no partition it could join stays convex";
    else if (e.computeSaving > 0)
      unit.reason = "not profitable: saves " + us(e.computeSaving) +
                    " of compute, costs " + us(e.extraCost) +
                    " in transfers and partition overhead";
    else
      unit.reason = "not profitable: NNAPI takes " + us(unit.deviceUs) +
                    " against " + us(unit.hostUs) + " on the host, plus " +
                    us(e.extraCost) + " in transfers and partition overhead";
  }
  benefits = solver::partitionBenefits(graph, solution);
}

SmallVector<SmallVector<Operation *>> FunctionPlacer::partitions() const {
  SmallVector<SmallVector<Operation *>> result(solution.numPartitions);
  DenseMap<Operation *, unsigned> order;
  unsigned index = 0;
  for (Operation &op : block.without_terminator())
    order[&op] = index++;
  for (auto [i, unit] : llvm::enumerate(units))
    if (solution.partition[i] >= 0)
      result[solution.partition[i]].append(unit.ops.begin(), unit.ops.end());
  for (SmallVector<Operation *> &ops : result)
    llvm::sort(ops, [&](Operation *a, Operation *b) {
      return order[a] < order[b];
    });
  return result;
}

void FunctionPlacer::fillReport(ReportFunction &report,
                                ArrayRef<std::string> partitionNames) const {
  for (auto [i, unit] : llvm::enumerate(units)) {
    ReportOp op;
    op.id = unsigned(i);
    op.name = unit.name;
    op.type = unit.type;
    if (unit.opcode >= 0) {
      op.nnapi = nnapi_mlir::operationName(unit.opcode);
      // The principal operation's operand types (its last occurrence).
      const ConversionCheck &c = unit.conversion;
      for (size_t k = c.operations.size(); k-- > 0;)
        if (c.operations[k] == unit.opcode && k < c.operandTypes.size()) {
          op.nnapiInputs.assign(c.operandTypes[k].first.begin(),
                                c.operandTypes[k].first.end());
          op.nnapiOutputs.assign(c.operandTypes[k].second.begin(),
                                 c.operandTypes[k].second.end());
          break;
        }
    }
    op.partition = solution.partition[i];
    op.hostUs = unit.hostUs;
    op.macs = unit.macs;
    op.elements = unit.elements;
    op.measuredHost = unit.measuredHost;
    op.measuredDevice = unit.measuredDevice;
    if (unit.capable)
      op.deviceUs = unit.deviceUs;
    if (op.partition < 0)
      op.reason = unit.reason;
    op.inputs = inputsOf[i];
    llvm::sort(op.inputs);
    report.ops.push_back(std::move(op));
  }
  for (unsigned p = 0; p < solution.numPartitions; ++p) {
    ReportPartition partition;
    partition.name = partitionNames[p];
    for (auto [i, part] : llvm::enumerate(solution.partition))
      if (part == int(p))
        partition.ops.push_back(unsigned(i));
    partition.benefitUs = benefits[p];
    report.partitions.push_back(std::move(partition));
  }
  for (const Unit &unit : units)
    report.allHostUs += unit.hostUs;
  report.chosenUs = solution.cost;
  report.optimal = solution.optimal;
  report.clusters = solution.clusters;
  report.exactClusters = solution.exactClusters;
}

void FunctionPlacer::emitRemarks(ArrayRef<std::string> names,
                                 ArrayRef<Location> locations) const {
  for (auto [i, unit] : llvm::enumerate(units)) {
    if (solution.partition[i] >= 0)
      continue;
    // Diagnostics print a NameLoc's file position, not its name (imported
    // ONNX nodes): say which op it is.
    Operation *anchor = unit.anchor();
    auto name = dyn_cast<NameLoc>(anchor->getLoc());
    if (name && !isa<UnknownLoc>(name.getChildLoc()))
      anchor->emitRemark()
          << "'" << name.getName().getValue() << "' stays on the host: "
          << unit.reason;
    else
      anchor->emitRemark() << "stays on the host: " << unit.reason;
  }
  for (auto [p, name] : llvm::enumerate(names)) {
    unsigned count = 0;
    for (auto [i, part] : llvm::enumerate(solution.partition))
      if (part == int(p))
        count += units[i].ops.size();
    mlir::emitRemark(locations[p])
        << "NNAPI partition @" << name << " of " << count
        << " op(s), estimated to save "
        << us(benefits[p]);
  }
}

struct NNAPIPartitionPass
    : public nnapi::impl::NNAPIPartitionBase<NNAPIPartitionPass> {
  using NNAPIPartitionBase::NNAPIPartitionBase;
  NNAPIPartitionPass(const NNAPIPartitionPass &other)
      : NNAPIPartitionBase(other), reportOut(other.reportOut) {}
  NNAPIPartitionPass(const NNAPIPartitionOptions &options, Report *reportOut)
      : NNAPIPartitionBase(options), reportOut(reportOut) {}

  /// Filled with the report when set (createNNAPIPartition's argument).
  Report *reportOut = nullptr;

  LogicalResult configure(PassConfig &config) {
    ModuleOp module = getOperation();
    if (featureLevel < 1 || featureLevel > kMaxFeatureLevel)
      return module.emitError()
             << "nnapi-partition: feature-level must be 1.."
             << kMaxFeatureLevel << ", got " << unsigned(featureLevel);
    config.featureLevel = featureLevel;
    config.converter.emplace(module.getContext());
    if (deviceProfile.empty()) {
      config.device = genericProfile(featureLevel);
    } else {
      std::string error;
      if (!profile::loadDeviceProfile(deviceProfile, config.device, error))
        return module.emitError() << "nnapi-partition: " << error;
      config.profilePath = deviceProfile;
      config.featureLevel = std::min<unsigned>(featureLevel,
                                               config.device.featureLevel);
    }
    if (!deviceQuirks.empty()) {
      // Given explicitly, the file must be there (the runtime's default
      // record may not be).
      if (!llvm::sys::fs::exists(deviceQuirks))
        return module.emitError()
               << "nnapi-partition: " << deviceQuirks
               << ": cannot open quirks record";
      quirks::Record record;
      std::string error;
      if (!quirks::load(deviceQuirks, record, error))
        return module.emitError() << "nnapi-partition: " << error;
      size_t before = config.device.quirks.size();
      for (const quirks::DeviceQuirks &d : record.devices)
        if (d.name == config.device.name)
          llvm::append_range(config.device.quirks, d.quirks);
      if (config.device.quirks.size() == before)
        module.emitWarning()
            << "nnapi-partition: quirks record " << deviceQuirks
            << " lists nothing for device '" << config.device.name
            << "' (the device profile's name)";
    }
    if (minPartitionCost < 0)
      return module.emitError()
             << "nnapi-partition: min-partition-cost must be >= 0";
    if (placementThreads > nnapi_mlir::kMaxThreads)
      return module.emitError()
             << "nnapi-partition: placement-threads must be 0 (this "
                "machine's CPUs) to "
             << nnapi_mlir::kMaxThreads << ", got "
             << unsigned(placementThreads);
    config.threads = placementThreads ? unsigned(placementThreads)
                                      : nnapi_mlir::availableCPUs();
    config.allowFp16 = allowFp16;
    config.minPartitionCost = minPartitionCost;
    config.maxPartitions = maxPartitions;
    config.searchBudget = searchBudget;
    config.stopOps.assign(stopOps.begin(), stopOps.end());
    config.emitRemarks = emitRemarks;
    config.wantReport = !report.empty() || reportOut;
    if (!placement.empty()) {
      std::string error;
      if (failed(config.placement.load(placement, error)))
        return module.emitError() << "nnapi-partition: " << error;
    }
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    PassConfig config;
    if (failed(configure(config)))
      return signalPassFailure();

    Report report;
    if (!validation.empty()) {
      std::string error;
      if (!loadValidation(validation, report, error)) {
        module.emitError() << "nnapi-partition: " << error;
        return signalPassFailure();
      }
    }
    module->setAttr(NNAPIDialect::kPlacementThreadsAttrName,
                    Builder(module.getContext())
                        .getI32IntegerAttr(int32_t(config.threads)));
    report.profileName = config.device.name;
    report.profilePath = config.profilePath;
    report.featureLevel = config.featureLevel;
    {
      llvm::raw_string_ostream os(report.options);
      printAsTextualPipeline(os);
    }
    SmallVector<func::FuncOp> funcs;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() &&
          !func->hasAttr(NNAPIDialect::kPartitionAttrName))
        funcs.push_back(func);
    SymbolTable symbols(module);
    for (func::FuncOp func : funcs) {
      if (!func.getBody().hasOneBlock()) {
        func.emitRemark("functions with several blocks stay on the host");
        continue;
      }
      Block &block = func.getBody().front();
      config.dynamicSize = typicalDynamicSize(func);
      FunctionPlacer placer(block, config);
      if (failed(placer.run()))
        return signalPassFailure();
      SmallVector<func::FuncOp> outlined;
      std::vector<std::string> names;
      SmallVector<Location> locations;
      for (auto [i, ops] : llvm::enumerate(placer.partitions())) {
        locations.push_back(ops.front()->getLoc());
        std::string name = (func.getSymName() + "_nnapi_" + Twine(i)).str();
        func::FuncOp partition = outline(func, ops, name, config.featureLevel,
                                         config.allowFp16);
        symbols.insert(partition); // uniquifies the name if it clashes
        outlined.push_back(partition);
        names.push_back(partition.getSymName().str());
      }
      if (config.emitRemarks)
        placer.emitRemarks(names, locations);
      if (config.wantReport) {
        ReportFunction fn;
        fn.name = func.getSymName().str();
        placer.fillReport(fn, names);
        report.functions.push_back(std::move(fn));
      }
      if (!outlined.empty() && !sortTopologically(&block)) {
        func.emitError("nnapi-partition: outlining produced a cycle");
        return signalPassFailure();
      }
    }
    for (const std::string &entry : config.placement.host)
      if (!config.placement.used.contains(entry))
        module.emitWarning() << "nnapi-partition: placement override entry '"
                             << entry << "' matches no op";
    for (const std::string &entry : config.placement.nnapi)
      if (!config.placement.used.contains(entry))
        module.emitWarning() << "nnapi-partition: placement override entry '"
                             << entry << "' matches no op";
    if (!this->report.empty()) {
      std::string error;
      if (failed(writeReport(report, this->report, error))) {
        module.emitError() << "nnapi-partition: " << error;
        return signalPassFailure();
      }
    }
    if (reportOut)
      *reportOut = std::move(report);
  }
};

} // namespace

std::unique_ptr<Pass>
mlir::nnapi::createNNAPIPartition(const NNAPIPartitionOptions &options,
                                  Report *report) {
  return std::make_unique<NNAPIPartitionPass>(options, report);
}
