//===- CostModel.cpp - The work an op does, for the partitioner -----------===//
//
// Work estimates the partitioner prices with a device profile: the
// multiply-accumulates of convolutions, fully connected, matmuls and pools,
// and the elements an op reads and writes.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Partition/CostModel.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace {
int64_t numElements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.hasStaticShape() ? shaped.getNumElements() : 0;
}
} // namespace

mlir::nnapi::OpWork mlir::nnapi::estimateWork(Operation *op) {
  OpWork work;
  for (Value v : op->getOperands())
    work.elements += double(numElements(v.getType()));
  for (Value v : op->getResults())
    work.elements += double(numElements(v.getType()));
  if (op->getNumResults() != 1)
    return work;
  double out = double(numElements(op->getResult(0).getType()));
  auto dim = [](Value v, unsigned i) -> double {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    return t && t.getRank() > i && !t.isDynamicDim(i) ? double(t.getDimSize(i))
                                                      : 0.0;
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
