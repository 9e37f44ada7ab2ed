//===- XnnpackStep.h - What the XNNPACK step makers share -------*- C++ -*-===//
//
// createXnnpackStep (XnnpackSteps.cpp) makes a host device step per NNAPI
// operation family: float32 families there, int8 ones (XNNPACK's signed
// operators and our VNNI kernels) in XnnpackInt8Steps.cpp. Every maker reads
// the operation through an OpView and hands back what it made as a Made.
// Only with NNAPI_MLIR_HAVE_XNNPACK.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_HOSTDEVICE_XNNPACKSTEP_H
#define NNAPI_MLIR_LIB_HOSTDEVICE_XNNPACKSTEP_H

#include "Executor.h"

#ifdef NNAPI_MLIR_HAVE_XNNPACK
#include <xnnpack.h>

#include <memory>
#include <string>

namespace nnapi_mlir::host::xnnpack {

/// "CALL returned xnn_status_NAME", and whether NNAPI_MLIR_HOST_FAULT made
/// it up.
std::string describe(const char *call, xnn_status s, bool injected);

/// Output range of a fused activation.
void activationRange(int32_t fuseCode, float &lo, float &hi);

/// An operator plus what running it needs; subclasses bind buffers.
class XnnStep : public Step {
public:
  XnnStep(int32_t opcode, const ExecutorOptions &options)
      : what(nnapi_mlir::operationName(opcode)), threadpool(options.threadpool),
        injectRunFailure(options.fault == Fault::Run) {}
  ~XnnStep() override {
    if (op)
      xnn_delete_operator(op);
  }
  const char *backend() const override { return "xnnpack"; }

  xnn_operator_t op = nullptr;
  const char *what; ///< The NNAPI operation, for messages.
  /// The pool its operator runs on; null: the calling thread.
  pthreadpool_t threadpool;

protected:
  /// Runs the operator after its setup call returned `setup`.
  int launch(xnn_status setup) {
    if (setup != xnn_status_success)
      return fail(ANEURALNETWORKS_OP_FAILED,
                  std::string("XNNPACK ") + what + ": " +
                      describe("setup", setup, false));
    xnn_status s = injectRunFailure ? xnn_status_invalid_state
                                    : xnn_run_operator(op, threadpool);
    if (s != xnn_status_success)
      return fail(ANEURALNETWORKS_OP_FAILED,
                  std::string("XNNPACK ") + what + ": " +
                      describe("xnn_run_operator", s, injectRunFailure));
    return ANEURALNETWORKS_NO_ERROR;
  }

  bool injectRunFailure;
};

/// One operation as every family's maker reads it: its parameters, the
/// shapes of its first input and output, and its fused activation's range.
struct OpView {
  OpView(const HostModel &m, size_t index, const Bindings &bindings,
         const ExecutorOptions &options)
      : m(m), index(index), bindings(bindings), options(options),
        operation(m.operations[index]), p(m.params[index]), w(p.window),
        inShape(m.operands[operation.inputs[0]].dims),
        outShape(m.operands[operation.outputs[0]].dims),
        input(operation.inputs[0]), output(operation.outputs[0]) {
    activationRange(p.fuseCode, lo, hi);
  }

  /// An input by its role in the operation's layout.
  uint32_t operand(RoleName role) const {
    return operation.inputs[size_t(m.layouts[index].input(role))];
  }
  /// The value of a constant operand, or null for one computed at run time.
  const float *constant(uint32_t idx) const {
    return m.operands[idx].kind == Kind::Constant ? bindings[idx] : nullptr;
  }

  const HostModel &m;
  size_t index;
  const Bindings &bindings;
  const ExecutorOptions &options;
  const Operation &operation;
  const OpParams &p;
  const Window &w;
  const Shape &inShape, &outShape;
  uint32_t input, output;
  float lo, hi;
};

/// What a family's maker made: an XNNPACK operator whose creation returned
/// `status` (from `call`), or a step of our own kernels that needs none
/// (`ready`); neither when the reference kernel runs the operation.
struct Made {
  std::unique_ptr<XnnStep> step;
  xnn_status status = xnn_status_success;
  const char *call = "";
  std::unique_ptr<Step> ready;
};

/// QUANTIZE and DEQUANTIZE between float32 and int8 (XnnpackInt8Steps.cpp).
Made makeConvert(const OpView &v);
/// Operations on int8 data (XnnpackInt8Steps.cpp).
Made makeInt8(const OpView &v);

} // namespace nnapi_mlir::host::xnnpack

#endif // NNAPI_MLIR_HAVE_XNNPACK

#endif // NNAPI_MLIR_LIB_HOSTDEVICE_XNNPACKSTEP_H
