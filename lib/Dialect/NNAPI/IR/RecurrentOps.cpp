//===- RecurrentOps.cpp - nnapi's sequence RNN and LSTM verifiers -------===//
//
// The operands of UNIDIRECTIONAL_SEQUENCE_RNN and _LSTM: every weight, bias
// and state sized by the input, the units and the output size, the optional
// gates given together, and the results' shapes.
//
//===----------------------------------------------------------------------===//

#include "Verifiers.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::detail;

namespace {
/// What the verifiers of the sequence operations check first: one element
/// type, ranks the spec takes.
LogicalResult verifySequenceOperands(Operation *op) {
  if (failed(verifySameElementType(op)))
    return failure();
  for (Value v : op->getOperands())
    if (failed(verifyRank(op, v, "operand")))
      return failure();
  return success();
}

/// Fails with "`what` is T, expected [shape]" unless `v` (if given) has
/// `shape`.
LogicalResult expectShape(Operation *op, Value v, StringRef what,
                          ArrayRef<int64_t> shape) {
  if (!v || tensorType(v).getShape() == shape)
    return success();
  InFlightDiagnostic diag = op->emitOpError()
                            << what << " is " << v.getType() << ", expected [";
  llvm::interleaveComma(shape, diag);
  return diag << "]";
}
} // namespace

LogicalResult UnidirectionalSequenceRnnOp::verify() {
  if (failed(verifySequenceOperands(*this)))
    return failure();
  ArrayRef<int64_t> x = tensorType(getInput()).getShape();
  bool timeMajor = getTimeMajor();
  int64_t steps = x[timeMajor ? 0 : 1], batch = x[timeMajor ? 1 : 0];
  int64_t units = tensorType(getWeights()).getDimSize(0);
  auto expect = [&](Value v, StringRef what, ArrayRef<int64_t> shape) {
    return expectShape(*this, v, what, shape);
  };
  SmallVector<int64_t> y = timeMajor ? SmallVector<int64_t>{steps, batch, units}
                                     : SmallVector<int64_t>{batch, steps, units};
  return success(
      succeeded(expect(getWeights(), "the input weights", {units, x[2]})) &&
      succeeded(expect(getRecurrentWeights(), "the recurrent weights",
                       {units, units})) &&
      succeeded(expect(getBias(), "the bias", {units})) &&
      succeeded(expect(getHiddenState(), "the hidden state", {batch, units})) &&
      succeeded(expect(getOutput(), "the output", y)));
}

LogicalResult UnidirectionalSequenceLstmOp::verify() {
  if (failed(verifySequenceOperands(*this)))
    return failure();
  ArrayRef<int64_t> x = tensorType(getInput()).getShape();
  bool timeMajor = getTimeMajor();
  int64_t steps = x[timeMajor ? 0 : 1], batch = x[timeMajor ? 1 : 0],
          inputSize = x[2];
  int64_t units = tensorType(getInputToOutputWeights()).getDimSize(0);
  int64_t outputSize =
      tensorType(getRecurrentToOutputWeights()).getDimSize(1);
  auto expect = [&](Value v, StringRef what, ArrayRef<int64_t> shape) {
    return expectShape(*this, v, what, shape);
  };
  Value inputWeights[] = {getInputToInputWeights(), getInputToForgetWeights(),
                          getInputToCellWeights(), getInputToOutputWeights()};
  Value recurrentWeights[] = {
      getRecurrentToInputWeights(), getRecurrentToForgetWeights(),
      getRecurrentToCellWeights(), getRecurrentToOutputWeights()};
  Value biases[] = {getInputGateBias(), getForgetGateBias(), getCellBias(),
                    getOutputGateBias()};
  const char *gates[] = {"input", "forget", "cell", "output"};
  for (int g = 0; g < 4; ++g)
    if (failed(expect(inputWeights[g],
                      (Twine(gates[g]) + " gate's input weights").str(),
                      {units, inputSize})) ||
        failed(expect(recurrentWeights[g],
                      (Twine(gates[g]) + " gate's recurrent weights").str(),
                      {units, outputSize})) ||
        failed(expect(biases[g], (Twine(gates[g]) + " gate's bias").str(),
                      {units})))
      return failure();
  bool cifg = !getInputToInputWeights();
  if (bool(getRecurrentToInputWeights()) == cifg ||
      bool(getInputGateBias()) == cifg)
    return emitOpError("the input gate's input weights, recurrent weights and "
                       "bias must be all given or all omitted");
  bool peepholes = bool(getCellToForgetWeights());
  if (bool(getCellToOutputWeights()) != peepholes ||
      bool(getCellToInputWeights()) != (peepholes && !cifg))
    return emitOpError("peepholes must be given for every gate (but a coupled "
                       "input gate) or for none");
  for (Value p : {getCellToInputWeights(), getCellToForgetWeights(),
                  getCellToOutputWeights()})
    if (failed(expect(p, "a peephole", {units})))
      return failure();
  if (getProjectionWeights()) {
    if (failed(expect(getProjectionWeights(), "the projection",
                      {outputSize, units})) ||
        failed(expect(getProjectionBias(), "the projection bias",
                      {outputSize})))
      return failure();
  } else if (getProjectionBias()) {
    return emitOpError("a projection bias needs projection weights");
  } else if (outputSize != units) {
    return emitOpError() << "without a projection the output size ("
                         << outputSize << ") must be the number of units ("
                         << units << ")";
  }
  if (failed(expect(getOutputStateIn(), "the output state",
                    {batch, outputSize})) ||
      failed(expect(getCellStateIn(), "the cell state", {batch, units})))
    return failure();
  if (getCellClip().convertToFloat() < 0 ||
      getProjClip().convertToFloat() < 0)
    return emitOpError("cell_clip and proj_clip must be 0 (off) or positive");
  if (!getStateOutputs().empty() && getStateOutputs().size() != 2)
    return emitOpError() << "has 1 or 3 results (the output, then the output "
                            "and cell states), got "
                         << getNumResults();
  if (failed(verifyResultShape(
          *this, timeMajor ? SmallVector<int64_t>{steps, batch, outputSize}
                           : SmallVector<int64_t>{batch, steps, outputSize})))
    return failure();
  if (getNumResults() == 3 &&
      (failed(verifyResultShape(*this, {batch, outputSize}, 1)) ||
       failed(verifyResultShape(*this, {batch, units}, 2))))
    return failure();
  return success();
}

