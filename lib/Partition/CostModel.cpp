//===- CostModel.cpp - The work an op does, for the partitioner -----------===//
//
// Work estimates the partitioner prices with a device profile: the
// multiply-accumulates of convolutions, fully connected, matmuls and pools,
// and the elements an op reads and writes.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Partition/CostModel.h"

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <cmath>

using namespace mlir;

double mlir::nnapi::tensorElements(Type type, double dynamicSize) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank())
    return 0;
  double n = 1;
  for (int64_t d : shaped.getShape())
    n *= ShapedType::isDynamic(d) ? dynamicSize : double(d);
  return n;
}

double mlir::nnapi::typicalDynamicSize(Operation *op) {
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func)
    return kUnboundedDynamicSize;
  double typical = 0;
  bool dynamic = false;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto type = dyn_cast<ShapedType>(func.getArgumentTypes()[i]);
    if (!type || !type.hasRank() || type.hasStaticShape())
      continue;
    dynamic = true;
    auto ranges = func.getArgAttrOfType<DenseI64ArrayAttr>(
        i, nnapi::NNAPIDialect::kDimRangesAttrName);
    auto given = func.getArgAttrOfType<DenseI64ArrayAttr>(
        i, nnapi::NNAPIDialect::kDimTypicalAttrName);
    for (int64_t k = 0; k < type.getNumDynamicDims(); ++k) {
      if (given && k < int64_t(given.size()) && given[k] > 0) {
        typical = std::max(typical, double(given[k]));
        continue;
      }
      if (!ranges || int64_t(ranges.size()) < 2 * k + 2) {
        typical = std::max(typical, kUnboundedDynamicSize);
        continue;
      }
      double lo = double(std::max<int64_t>(ranges[2 * k], 1));
      double hi = double(std::max<int64_t>(ranges[2 * k + 1], 1));
      typical = std::max(typical, hi >= double(INT32_MAX)
                                      ? kUnboundedDynamicSize
                                      : std::round(std::sqrt(lo * hi)));
    }
  }
  return dynamic ? typical : kUnboundedDynamicSize;
}

mlir::nnapi::OpWork mlir::nnapi::estimateWork(Operation *op,
                                              double dynamicSize) {
  auto numElements = [&](Type type) {
    return tensorElements(type, dynamicSize);
  };
  OpWork work;
  for (Value v : op->getOperands())
    work.elements += double(numElements(v.getType()));
  for (Value v : op->getResults())
    work.elements += double(numElements(v.getType()));
  if (op->getNumResults() != 1)
    return work;
  double out = double(numElements(op->getResult(0).getType()));
  auto dim = [&](Value v, unsigned i) -> double {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t || t.getRank() <= i)
      return 0.0;
    return t.isDynamicDim(i) ? dynamicSize : double(t.getDimSize(i));
  };
  TypeSwitch<Operation *>(op)
      .Case([&](tosa::Conv2DOp c) {
        // Weight [OC, KH, KW, IC]: one MAC per weight element per output pixel.
        work.macs = out * dim(c.getWeight(), 1) * dim(c.getWeight(), 2) *
                    dim(c.getWeight(), 3);
      })
      .Case([&](tosa::DepthwiseConv2DOp c) {
        // Weight [KH, KW, C, M].
        work.macs = out * dim(c.getWeight(), 0) * dim(c.getWeight(), 1);
      })
      .Case([&](tosa::TransposeConv2DOp c) {
        // Filter [OC, KH, KW, IC]: each input pixel meets every filter tap.
        work.macs = double(numElements(c.getInput().getType())) *
                    dim(c.getFilter(), 0) * dim(c.getFilter(), 1) *
                    dim(c.getFilter(), 2);
      })
      .Case([&](tosa::FullyConnectedOp f) {
        work.macs = out * dim(f.getWeight(), 1);
      })
      .Case([&](tosa::MatMulOp m) { work.macs = out * dim(m.getA(), 2); })
      .Case<tosa::MaxPool2dOp, tosa::AvgPool2dOp>([&](auto p) {
        ArrayRef<int64_t> kernel = p.getKernel();
        work.macs = out * double(kernel[0] * kernel[1]);
      });
  return work;
}

std::string mlir::nnapi::unitSignature(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  AsmState state(op->getContext(), OpPrintingFlags().elideLargeElementsAttrs(16));
  os << op->getName() << "(";
  llvm::interleaveComma(op->getOperands(), os, [&](Value v) {
    if (matchPattern(v, m_Constant()))
      os << "const ";
    v.getType().print(os, state);
  });
  os << ") -> (";
  llvm::interleaveComma(op->getResultTypes(), os,
                        [&](Type t) { t.print(os, state); });
  os << ")";
  if (!op->getAttrs().empty()) {
    os << " ";
    op->getAttrDictionary().print(os, state);
  }
  return text;
}

OwningOpRef<ModuleOp> mlir::nnapi::extractUnitModel(Operation *op,
                                                    StringRef name) {
  auto isStatic = [](Type t) {
    auto shaped = dyn_cast<RankedTensorType>(t);
    return shaped && shaped.hasStaticShape();
  };
  if (!llvm::all_of(op->getOperandTypes(), isStatic) ||
      !llvm::all_of(op->getResultTypes(), isStatic) || op->getNumResults() == 0)
    return nullptr;
  MLIRContext *ctx = op->getContext();
  Location loc = NameLoc::get(StringAttr::get(ctx, name));
  SmallVector<Value> arguments;
  for (Value v : op->getOperands())
    if (!matchPattern(v, m_Constant()) && !llvm::is_contained(arguments, v))
      arguments.push_back(v);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module->getBody());
  auto main = b.create<func::FuncOp>(
      loc, "main",
      b.getFunctionType(ValueRange(arguments).getTypes(),
                        op->getResultTypes()));
  Block *entry = main.addEntryBlock();
  IRMapping mapping;
  for (auto [value, argument] : llvm::zip(arguments, entry->getArguments()))
    mapping.map(value, argument);
  b.setInsertionPointToStart(entry);
  for (Value v : op->getOperands())
    if (!mapping.contains(v))
      mapping.map(v, b.clone(*v.getDefiningOp())->getResult(
                         cast<OpResult>(v).getResultNumber()));
  Operation *copy = b.clone(*op, mapping);
  copy->setLoc(loc);
  b.create<func::ReturnOp>(loc, copy->getResults());
  return module;
}
