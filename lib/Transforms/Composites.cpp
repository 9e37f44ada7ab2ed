//===- Composites.cpp - The composites' declared inputs -------------------===//
//
// Each composite's inputs in order, as Composites.h describes them: the
// raising passes and the importers order a new composite's operands by
// these names (orderInputs), and the conversion reads them by name (Inputs),
// so the order is written here once.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Transforms/Composites.h"

#include "llvm/ADT/STLExtras.h"

#include <cassert>

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::composite;

namespace {

struct Declaration {
  llvm::StringLiteral name;
  std::vector<InputDecl> inputs;
};

const std::vector<Declaration> &declarations() {
  namespace in = input;
  static const std::vector<Declaration> all = [] {
    std::vector<Declaration> d;
    for (llvm::StringLiteral name :
         {kSoftmax, kLogSoftmax, kMean, kHardSwish, kElu,
          kInstanceNormalization, kMirrorPad, kDepthToSpace, kSpaceToDepth,
          kChannelShuffle, kLocalResponseNormalization, kL2Normalization,
          kArgMin, kSplit, kStridedSlice, kDequantize, kQuantize})
      d.push_back({name, {{in::kX}}});
    d.push_back({kPrelu, {{in::kX}, {in::kSlope}}});
    d.push_back({kNotEqual, {{in::kA}, {in::kB}}});
    d.push_back({kGroupedConv,
                 {{in::kX},
                  {in::kFilters, Count::Groups},
                  {in::kBiases, Count::Groups}}});
    d.push_back({kLstm,
                 {{in::kX},
                  {in::kW},
                  {in::kR},
                  {in::kBias},
                  {in::kH},
                  {in::kC},
                  {in::kP, Count::IfFlag, kPeepholes},
                  {in::kLens, Count::Trailing}}});
    d.push_back({kRnn,
                 {{in::kX},
                  {in::kW},
                  {in::kR},
                  {in::kBias},
                  {in::kH},
                  {in::kLens, Count::Trailing}}});
    d.push_back({kQuantizedWeighted, {{in::kX}, {in::kWeights}, {in::kBias}}});
    d.push_back({kQuantizedBinary, {{in::kX}, {in::kY}}});
    d.push_back({kQuantizedData, {{in::kXs, Count::OneOrMore}}});
    return d;
  }();
  return all;
}

/// "x, filters x groups, [p], [lens]": a declaration for messages.
std::string describe(ArrayRef<InputDecl> inputs) {
  std::string text;
  for (const InputDecl &in : inputs) {
    if (!text.empty())
      text += ", ";
    switch (in.count) {
    case Count::One:
      text += in.name.str();
      break;
    case Count::Groups:
      text += in.name.str() + " x groups";
      break;
    case Count::IfFlag:
    case Count::Trailing:
      text += "[" + in.name.str() + "]";
      break;
    case Count::OneOrMore:
      text += in.name.str() + "...";
      break;
    }
  }
  return text;
}

} // namespace

ArrayRef<InputDecl> composite::declaredInputs(StringRef name) {
  for (const Declaration &d : declarations())
    if (d.name == name)
      return d.inputs;
  return {};
}

FailureOr<Inputs> Inputs::bind(CompositeOp op, std::string &why) {
  ArrayRef<InputDecl> decls = declaredInputs(op.getName());
  auto refuse = [&](const Twine &detail) -> FailureOr<Inputs> {
    why = ("composite '" + op.getName() + "' " + detail).str();
    return failure();
  };
  if (decls.empty())
    return refuse("is not a composite Composites.h declares");
  Inputs bound(op);
  unsigned n = op.getInputs().size(), at = 0;
  for (const InputDecl &in : decls) {
    unsigned count = 1;
    switch (in.count) {
    case Count::One:
      break;
    case Count::Groups: {
      std::optional<int64_t> groups = op.getIntParameter(kGroups);
      if (!groups || *groups < 1)
        return refuse("has no positive 'groups' parameter");
      count = unsigned(*groups);
      break;
    }
    case Count::IfFlag: {
      std::optional<int64_t> flag = op.getIntParameter(in.flag);
      if (!flag)
        return refuse("has no integer parameter '" + in.flag + "'");
      count = *flag == 1 ? 1 : 0;
      break;
    }
    case Count::Trailing:
      count = at < n ? 1 : 0;
      break;
    case Count::OneOrMore:
      count = at < n ? n - at : 1;
      break;
    }
    if (at + count > n)
      break;
    bound.spans.push_back({in.name, at, count});
    at += count;
  }
  if (bound.spans.size() != decls.size() || at != n)
    return refuse("takes " + describe(decls) + "; got " + Twine(n) +
                  " input(s)");
  return bound;
}

Value Inputs::operator[](StringRef name) const {
  OperandRange operands = all(name);
  assert(operands.size() <= 1 && "a single input: use all()");
  return operands.empty() ? Value() : operands.front();
}

OperandRange Inputs::all(StringRef name) const {
  for (const Span &s : spans)
    if (s.name == name)
      return op.getInputs().slice(s.begin, s.size);
  assert(false && "an input the composite declares");
  return op.getInputs().slice(0, 0);
}

SmallVector<Value> composite::orderInputs(
    StringRef name,
    ArrayRef<std::pair<llvm::StringLiteral, ValueRange>> given) {
  ArrayRef<InputDecl> decls = declaredInputs(name);
  assert(!decls.empty() && "a composite Composites.h declares");
  assert(llvm::all_of(given,
                      [&](const auto &g) {
                        return llvm::any_of(decls, [&](const InputDecl &d) {
                          return d.name == g.first;
                        });
                      }) &&
         "only declared inputs");
  SmallVector<Value> ordered;
  for (const InputDecl &in : decls) {
    ValueRange values;
    for (const auto &[key, v] : given)
      if (key == in.name)
        values = v;
    assert((in.count != Count::One || values.size() == 1) &&
           (in.count != Count::OneOrMore || !values.empty()) &&
           ((in.count != Count::IfFlag && in.count != Count::Trailing) ||
            values.size() <= 1) &&
           "the count the declaration allows");
    llvm::append_range(ordered, values);
  }
  return ordered;
}
