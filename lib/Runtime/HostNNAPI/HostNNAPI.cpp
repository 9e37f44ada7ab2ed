//===- HostNNAPI.cpp - The NNAPI C API implemented on the CPU -------------===//
//
// A host implementation of the subset of NNAPI declared in NeuralNetworks.h,
// built as libnnapi_host.so so the runtime can dlopen it exactly like
// libneuralnetworks.so. Models are validated operation by operation with
// NNAPI's operand rules; execution runs the reference kernels in Kernels.cpp.
// Float16 tensors are computed in float32 and rounded back on output.
//
// Besides the NNAPI functions it exports NNAPIMLIRHost_lastError(), which the
// runtime looks up (optionally) to explain a failing call, and
// NNAPIMLIRHost_setProfile().
//
// With a device profile (NNAPIMLIRHost_setProfile, or the path in
// $NNAPI_MLIR_HOST_PROFILE read on first use) the library impersonates that
// device: it enumerates it under the profile's name, type and feature level,
// and rejects the operations the profile does not run, both in
// getSupportedOperationsForDevices and when a compilation is finished, so
// partitioning and run-time fallback can be tested without the hardware.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Runtime/DeviceProfile.h"
#include "nnapi-mlir/Runtime/HostNNAPI/Kernels.h"
#include "nnapi-mlir/Runtime/NeuralNetworks.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

using namespace nnapi_mlir::host;

namespace {

thread_local std::string lastError;

int fail(int code, std::string message) {
  lastError = std::move(message);
  return code;
}

enum class Kind { Temporary, Input, Output, Constant };

struct Operand {
  int32_t type;
  Shape dims;
  float scale;
  int32_t zeroPoint;
  Kind kind = Kind::Temporary;
  std::vector<uint8_t> value; ///< Copy of a constant value.
  std::vector<float> floats;  ///< Constant tensor as float32 (after finish).
};

struct Operation {
  int32_t opcode;
  std::vector<uint32_t> inputs, outputs;
};

bool isFloatTensor(int32_t t) {
  return t == ANEURALNETWORKS_TENSOR_FLOAT32 || t == ANEURALNETWORKS_TENSOR_FLOAT16;
}

bool isScalar(int32_t t) {
  return t == ANEURALNETWORKS_FLOAT32 || t == ANEURALNETWORKS_INT32 ||
         t == ANEURALNETWORKS_UINT32 || t == ANEURALNETWORKS_BOOL ||
         t == ANEURALNETWORKS_FLOAT16;
}

size_t elementBytes(int32_t t) {
  switch (t) {
  case ANEURALNETWORKS_FLOAT32: case ANEURALNETWORKS_INT32:
  case ANEURALNETWORKS_UINT32: case ANEURALNETWORKS_TENSOR_FLOAT32:
  case ANEURALNETWORKS_TENSOR_INT32:
    return 4;
  case ANEURALNETWORKS_FLOAT16: case ANEURALNETWORKS_TENSOR_FLOAT16:
    return 2;
  case ANEURALNETWORKS_BOOL: case ANEURALNETWORKS_TENSOR_BOOL8:
  case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM:
    return 1;
  default:
    return 0;
  }
}

std::string shapeStr(const Shape &s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i)
    r += (i ? "," : "") + std::to_string(s[i]);
  return r + "]";
}

} // namespace

struct ANeuralNetworksModel {
  std::vector<Operand> operands;
  std::vector<Operation> operations;
  std::vector<uint32_t> inputs, outputs;
  bool finished = false;
  bool relaxed = false;

  int32_t i32(uint32_t idx) const {
    int32_t v;
    std::memcpy(&v, operands[idx].value.data(), 4);
    return v;
  }
  float f32(uint32_t idx) const {
    const Operand &op = operands[idx];
    if (op.type == ANEURALNETWORKS_FLOAT16) {
      uint16_t h;
      std::memcpy(&h, op.value.data(), 2);
      return halfToFloat(h);
    }
    float v;
    std::memcpy(&v, op.value.data(), 4);
    return v;
  }
  bool b8(uint32_t idx) const { return operands[idx].value[0] != 0; }
};

struct ANeuralNetworksCompilation {
  ANeuralNetworksModel *model;
  bool finished = false;
};

struct ANeuralNetworksExecution {
  ANeuralNetworksCompilation *compilation;
  std::vector<const void *> inputs;
  std::vector<size_t> inputLengths;
  std::vector<void *> outputs;
  std::vector<size_t> outputLengths;
};

struct ANeuralNetworksEvent {
  int status;
};

struct ANeuralNetworksDevice {
  const char *name;
};

namespace {

ANeuralNetworksDevice hostDevice{"nnapi-mlir-host"};

/// The impersonated device, if any. `profileError` is set when the profile
/// named by the environment could not be loaded; every model then fails.
struct ProfileState {
  std::mutex mutex;
  bool initialized = false;
  std::unique_ptr<nnapi_mlir::profile::DeviceProfile> profile;
  std::string profileError;
};

ProfileState &profileState() {
  static ProfileState state;
  return state;
}

/// Loads $NNAPI_MLIR_HOST_PROFILE once, unless a profile was set explicitly.
ProfileState &currentProfile() {
  ProfileState &state = profileState();
  std::lock_guard<std::mutex> lock(state.mutex);
  if (!state.initialized) {
    state.initialized = true;
    const char *path = std::getenv("NNAPI_MLIR_HOST_PROFILE");
    if (path && *path) {
      auto profile = std::make_unique<nnapi_mlir::profile::DeviceProfile>();
      std::string error;
      if (nnapi_mlir::profile::loadDeviceProfile(path, *profile, error)) {
        state.profile = std::move(profile);
        hostDevice.name = state.profile->name.c_str();
      } else {
        state.profileError = "NNAPI_MLIR_HOST_PROFILE: " + error;
      }
    }
  }
  return state;
}

const nnapi_mlir::profile::DeviceProfile *activeProfile() {
  return currentProfile().profile.get();
}

int64_t featureLevelCode(unsigned level) {
  static const int64_t kCodes[] = {
      ANEURALNETWORKS_FEATURE_LEVEL_1, ANEURALNETWORKS_FEATURE_LEVEL_2,
      ANEURALNETWORKS_FEATURE_LEVEL_3, ANEURALNETWORKS_FEATURE_LEVEL_4,
      ANEURALNETWORKS_FEATURE_LEVEL_5, ANEURALNETWORKS_FEATURE_LEVEL_6,
      ANEURALNETWORKS_FEATURE_LEVEL_7, ANEURALNETWORKS_FEATURE_LEVEL_8};
  return kCodes[level - 1];
}

unsigned deviceFeatureLevel() {
  const nnapi_mlir::profile::DeviceProfile *p = activeProfile();
  return p ? p->featureLevel : 7;
}

/// Parameters of a convolution or pooling operation, decoded from operands.
struct WindowOp {
  Window w;
  int32_t filterW = 0, filterH = 0, depthMultiplier = 1;
  bool nchw = false;
};

class Validator {
public:
  Validator(const ANeuralNetworksModel &m, const Operation &op, size_t index)
      : m(m), op(op), index(index) {}

  /// Checks every NNAPI operand rule of the operation; returns BAD_DATA with
  /// a message on the first violation.
  int run();

  const ANeuralNetworksModel &m;
  const Operation &op;
  size_t index;
  WindowOp window;

private:
  int bad(const std::string &msg) {
    return fail(ANEURALNETWORKS_BAD_DATA,
                "operation " + std::to_string(index) + " (opcode " +
                    std::to_string(op.opcode) + "): " + msg);
  }
  const Operand &in(size_t i) const { return m.operands[op.inputs[i]]; }
  const Operand &out(size_t i) const { return m.operands[op.outputs[i]]; }
  int expectCounts(size_t minIn, size_t maxIn, size_t nOut) {
    if (op.inputs.size() < minIn || op.inputs.size() > maxIn)
      return bad("expects " + std::to_string(minIn) +
                 (maxIn != minIn ? ".." + std::to_string(maxIn) : "") +
                 " inputs, got " + std::to_string(op.inputs.size()));
    if (op.outputs.size() != nOut)
      return bad("expects " + std::to_string(nOut) + " outputs, got " +
                 std::to_string(op.outputs.size()));
    return 0;
  }
  int expectScalar(size_t i, int32_t type, const char *what) {
    const Operand &o = in(i);
    if (o.type != type)
      return bad(std::string(what) + " must be a scalar of type " +
                 std::to_string(type) + ", got type " + std::to_string(o.type));
    if (o.kind != Kind::Constant)
      return bad(std::string(what) + " must be a constant");
    return 0;
  }
  int expectFuse(size_t i) {
    if (int rc = expectScalar(i, ANEURALNETWORKS_INT32, "fused activation"))
      return rc;
    int32_t code = m.i32(op.inputs[i]);
    if (code < 0 || code > 3)
      return bad("invalid fused activation code " + std::to_string(code));
    return 0;
  }
  int expectFloatTensor(size_t i, const char *what, size_t minRank,
                        size_t maxRank) {
    const Operand &o = in(i);
    if (!isFloatTensor(o.type))
      return bad(std::string(what) + " must be TENSOR_FLOAT32 or TENSOR_FLOAT16");
    if (o.dims.size() < minRank || o.dims.size() > maxRank)
      return bad(std::string(what) + " has rank " + std::to_string(o.dims.size()) +
                 ", expected " + std::to_string(minRank) +
                 (maxRank != minRank ? ".." + std::to_string(maxRank) : ""));
    if (o.type != in(0).type)
      return bad(std::string(what) + " type differs from input 0");
    return 0;
  }
  int expectOutput(const Shape &shape) {
    const Operand &o = out(0);
    if (o.type != in(0).type)
      return bad("output type differs from input type");
    if (o.dims != shape)
      return bad("output shape " + shapeStr(o.dims) + " differs from computed " +
                 shapeStr(shape));
    return 0;
  }
  int binaryOp();
  int convLike(bool depthwise);
  int pool();
  int fullyConnected();
  int softmax();
  int reshape();
  int concatenation();
};

int Validator::binaryOp() {
  if (int rc = expectCounts(3, 3, 1))
    return rc;
  if (int rc = expectFloatTensor(0, "input 0", 0, 4))
    return rc;
  if (int rc = expectFloatTensor(1, "input 1", 0, 4))
    return rc;
  if (int rc = expectFuse(2))
    return rc;
  Shape shape;
  if (!broadcastShapes(in(0).dims, in(1).dims, shape))
    return bad("shapes " + shapeStr(in(0).dims) + " and " + shapeStr(in(1).dims) +
               " do not broadcast");
  return expectOutput(shape);
}

int Validator::convLike(bool depthwise) {
  size_t n = op.inputs.size();
  if (int rc = expectCounts(depthwise ? 8 : 7, depthwise ? 14 : 13, 1))
    return rc;
  // Implicit padding is recognised by its operand count and, where the count
  // is ambiguous, by the BOOL layout operand that follows the fused code.
  size_t fuseImplicit = depthwise ? 7 : 6;
  bool implicit = n == fuseImplicit + 1 ||
                  (n > fuseImplicit + 1 &&
                   in(fuseImplicit + 1).type == ANEURALNETWORKS_BOOL);
  size_t next = 3;
  Window &w = window.w;
  int32_t paddingCode = 0;
  if (implicit) {
    if (int rc = expectScalar(next, ANEURALNETWORKS_INT32, "padding scheme"))
      return rc;
    paddingCode = m.i32(op.inputs[next++]);
    if (paddingCode != ANEURALNETWORKS_PADDING_SAME &&
        paddingCode != ANEURALNETWORKS_PADDING_VALID)
      return bad("invalid padding scheme " + std::to_string(paddingCode));
  } else {
    int32_t *pads[4] = {&w.padLeft, &w.padRight, &w.padTop, &w.padBottom};
    for (int32_t *p : pads) {
      if (int rc = expectScalar(next, ANEURALNETWORKS_INT32, "padding"))
        return rc;
      *p = m.i32(op.inputs[next++]);
      if (*p < 0)
        return bad("padding must be non-negative");
    }
  }
  for (int32_t *s : {&w.strideW, &w.strideH}) {
    if (int rc = expectScalar(next, ANEURALNETWORKS_INT32, "stride"))
      return rc;
    *s = m.i32(op.inputs[next++]);
    if (*s < 1)
      return bad("stride must be positive");
  }
  if (depthwise) {
    if (int rc = expectScalar(next, ANEURALNETWORKS_INT32, "depth multiplier"))
      return rc;
    window.depthMultiplier = m.i32(op.inputs[next++]);
    if (window.depthMultiplier < 1)
      return bad("depth multiplier must be positive");
  }
  if (int rc = expectFuse(next))
    return rc;
  w.fuseCode = m.i32(op.inputs[next++]);
  if (next < n) {
    if (int rc = expectScalar(next, ANEURALNETWORKS_BOOL, "layout"))
      return rc;
    window.nchw = m.b8(op.inputs[next++]);
    if (window.nchw)
      return bad("NCHW layout is not supported by the host implementation");
  }
  if (next < n) {
    for (int32_t *d : {&w.dilationW, &w.dilationH}) {
      if (next >= n)
        return bad("dilation factors come in pairs");
      if (int rc = expectScalar(next, ANEURALNETWORKS_INT32, "dilation"))
        return rc;
      *d = m.i32(op.inputs[next++]);
      if (*d < 1)
        return bad("dilation must be positive");
    }
  }
  if (next != n)
    return bad("unexpected extra operands");
  if (int rc = expectFloatTensor(0, "input", 4, 4))
    return rc;
  if (int rc = expectFloatTensor(1, "filter", 4, 4))
    return rc;
  if (int rc = expectFloatTensor(2, "bias", 1, 1))
    return rc;
  const Shape &is = in(0).dims, &fs = in(1).dims;
  uint32_t outC = depthwise ? fs[3] : fs[0];
  if (depthwise) {
    if (fs[0] != 1)
      return bad("depthwise filter must have shape [1, kh, kw, out]");
    if (uint64_t(is[3]) * window.depthMultiplier != fs[3])
      return bad("depthwise output depth " + std::to_string(fs[3]) +
                 " != input depth " + std::to_string(is[3]) +
                 " * depth multiplier " + std::to_string(window.depthMultiplier));
  } else if (fs[3] != is[3]) {
    return bad("filter input depth " + std::to_string(fs[3]) +
               " does not match input depth " + std::to_string(is[3]));
  }
  if (in(2).dims[0] != outC)
    return bad("bias size " + std::to_string(in(2).dims[0]) +
               " does not match output depth " + std::to_string(outC));
  window.filterH = fs[1];
  window.filterW = fs[2];
  if (implicit) {
    computeImplicitPadding(paddingCode, is[2], w.strideW, fs[2], w.dilationW,
                           w.padLeft, w.padRight);
    computeImplicitPadding(paddingCode, is[1], w.strideH, fs[1], w.dilationH,
                           w.padTop, w.padBottom);
  }
  int32_t oh = windowOutputSize(is[1], fs[1], w.strideH, w.dilationH, w.padTop,
                                w.padBottom);
  int32_t ow = windowOutputSize(is[2], fs[2], w.strideW, w.dilationW,
                                w.padLeft, w.padRight);
  if (oh <= 0 || ow <= 0)
    return bad("filter does not fit the padded input");
  return expectOutput({is[0], uint32_t(oh), uint32_t(ow), outC});
}

int Validator::pool() {
  size_t n = op.inputs.size();
  if (int rc = expectCounts(7, 11, 1))
    return rc;
  bool implicit = n == 7 || n == 8;
  if (!implicit && n != 10 && n != 11)
    return bad("expects 7, 8, 10 or 11 inputs");
  Window &w = window.w;
  size_t next = 1;
  int32_t paddingCode = 0;
  if (implicit) {
    if (int rc = expectScalar(next, ANEURALNETWORKS_INT32, "padding scheme"))
      return rc;
    paddingCode = m.i32(op.inputs[next++]);
    if (paddingCode != ANEURALNETWORKS_PADDING_SAME &&
        paddingCode != ANEURALNETWORKS_PADDING_VALID)
      return bad("invalid padding scheme " + std::to_string(paddingCode));
  } else {
    for (int32_t *p : {&w.padLeft, &w.padRight, &w.padTop, &w.padBottom}) {
      if (int rc = expectScalar(next, ANEURALNETWORKS_INT32, "padding"))
        return rc;
      *p = m.i32(op.inputs[next++]);
      if (*p < 0)
        return bad("padding must be non-negative");
    }
  }
  for (int32_t *s : {&w.strideW, &w.strideH, &window.filterW, &window.filterH}) {
    if (int rc = expectScalar(next, ANEURALNETWORKS_INT32, "stride/filter size"))
      return rc;
    *s = m.i32(op.inputs[next++]);
    if (*s < 1)
      return bad("strides and filter sizes must be positive");
  }
  if (int rc = expectFuse(next))
    return rc;
  w.fuseCode = m.i32(op.inputs[next++]);
  if (next < n) {
    if (int rc = expectScalar(next, ANEURALNETWORKS_BOOL, "layout"))
      return rc;
    if (m.b8(op.inputs[next]))
      return bad("NCHW layout is not supported by the host implementation");
  }
  if (int rc = expectFloatTensor(0, "input", 4, 4))
    return rc;
  const Shape &is = in(0).dims;
  if (implicit) {
    computeImplicitPadding(paddingCode, is[2], w.strideW, window.filterW, 1,
                           w.padLeft, w.padRight);
    computeImplicitPadding(paddingCode, is[1], w.strideH, window.filterH, 1,
                           w.padTop, w.padBottom);
  }
  int32_t oh = windowOutputSize(is[1], window.filterH, w.strideH, 1, w.padTop,
                                w.padBottom);
  int32_t ow = windowOutputSize(is[2], window.filterW, w.strideW, 1,
                                w.padLeft, w.padRight);
  if (oh <= 0 || ow <= 0)
    return bad("filter does not fit the padded input");
  return expectOutput({is[0], uint32_t(oh), uint32_t(ow), is[3]});
}

int Validator::fullyConnected() {
  if (int rc = expectCounts(4, 4, 1))
    return rc;
  if (int rc = expectFloatTensor(0, "input", 2, 4))
    return rc;
  if (int rc = expectFloatTensor(1, "weights", 2, 2))
    return rc;
  if (int rc = expectFloatTensor(2, "bias", 1, 1))
    return rc;
  if (int rc = expectFuse(3))
    return rc;
  uint32_t units = in(1).dims[0], inSize = in(1).dims[1];
  size_t total = numElements(in(0).dims);
  if (inSize == 0 || total % inSize != 0)
    return bad("input size " + std::to_string(total) +
               " is not a multiple of the weights' input size " +
               std::to_string(inSize));
  if (in(2).dims[0] != units)
    return bad("bias size does not match the number of units");
  return expectOutput({uint32_t(total / inSize), units});
}

int Validator::softmax() {
  if (int rc = expectCounts(2, 3, 1))
    return rc;
  if (int rc = expectFloatTensor(0, "input", 1, 4))
    return rc;
  int32_t betaType = in(0).type == ANEURALNETWORKS_TENSOR_FLOAT16
                         ? ANEURALNETWORKS_FLOAT16
                         : ANEURALNETWORKS_FLOAT32;
  if (int rc = expectScalar(1, betaType, "beta"))
    return rc;
  if (!(m.f32(op.inputs[1]) > 0.0f))
    return bad("beta must be positive");
  int32_t rank = int32_t(in(0).dims.size());
  if (op.inputs.size() == 3) {
    if (int rc = expectScalar(2, ANEURALNETWORKS_INT32, "axis"))
      return rc;
    int32_t axis = m.i32(op.inputs[2]);
    if (axis < -rank || axis >= rank)
      return bad("axis " + std::to_string(axis) + " out of range");
  }
  return expectOutput(in(0).dims);
}

int Validator::reshape() {
  if (int rc = expectCounts(2, 2, 1))
    return rc;
  if (int rc = expectFloatTensor(0, "input", 0, 4))
    return rc;
  const Operand &shape = in(1);
  if (shape.type != ANEURALNETWORKS_TENSOR_INT32 || shape.dims.size() != 1 ||
      shape.kind != Kind::Constant)
    return bad("shape must be a constant 1-D TENSOR_INT32");
  Shape target;
  int64_t known = 1;
  int inferred = -1;
  for (uint32_t i = 0; i < shape.dims[0]; ++i) {
    int32_t d;
    std::memcpy(&d, shape.value.data() + 4 * i, 4);
    if (d == -1) {
      if (inferred >= 0)
        return bad("shape has more than one -1");
      inferred = int(i);
      target.push_back(0);
      continue;
    }
    if (d <= 0)
      return bad("shape entries must be positive or -1");
    known *= d;
    target.push_back(uint32_t(d));
  }
  size_t total = numElements(in(0).dims);
  if (inferred >= 0) {
    if (known == 0 || total % known)
      return bad("cannot infer the -1 entry of the shape");
    target[inferred] = uint32_t(total / known);
  } else if (size_t(known) != total) {
    return bad("shape " + shapeStr(target) + " changes the element count");
  }
  return expectOutput(target);
}

int Validator::concatenation() {
  size_t n = op.inputs.size();
  if (n < 2)
    return bad("expects at least one input and the axis");
  if (op.outputs.size() != 1)
    return bad("expects 1 output");
  if (int rc = expectScalar(n - 1, ANEURALNETWORKS_INT32, "axis"))
    return rc;
  int32_t rank = int32_t(in(0).dims.size());
  int32_t axis = m.i32(op.inputs[n - 1]);
  if (axis < -rank || axis >= rank)
    return bad("axis " + std::to_string(axis) + " out of range");
  if (axis < 0)
    axis += rank;
  Shape shape = in(0).dims;
  for (size_t i = 0; i + 1 < n; ++i) {
    if (int rc = expectFloatTensor(i, "input", 1, 4))
      return rc;
    const Shape &s = in(i).dims;
    if (int32_t(s.size()) != rank)
      return bad("inputs differ in rank");
    for (int32_t d = 0; d < rank; ++d)
      if (d != axis && s[d] != shape[d])
        return bad("inputs differ outside the concatenation axis");
    if (i)
      shape[axis] += s[axis];
  }
  return expectOutput(shape);
}

int Validator::run() {
  for (uint32_t idx : op.outputs)
    if (m.operands[idx].kind == Kind::Constant ||
        m.operands[idx].kind == Kind::Input)
      return bad("an output operand is a constant or a model input");
  switch (op.opcode) {
  case ANEURALNETWORKS_ADD: case ANEURALNETWORKS_SUB:
  case ANEURALNETWORKS_MUL: case ANEURALNETWORKS_DIV:
    return binaryOp();
  case ANEURALNETWORKS_CONV_2D:
    return convLike(false);
  case ANEURALNETWORKS_DEPTHWISE_CONV_2D:
    return convLike(true);
  case ANEURALNETWORKS_FULLY_CONNECTED:
    return fullyConnected();
  case ANEURALNETWORKS_MAX_POOL_2D: case ANEURALNETWORKS_AVERAGE_POOL_2D:
    return pool();
  case ANEURALNETWORKS_RELU: case ANEURALNETWORKS_RELU1:
  case ANEURALNETWORKS_RELU6: case ANEURALNETWORKS_LOGISTIC:
  case ANEURALNETWORKS_TANH:
    if (int rc = expectCounts(1, 1, 1))
      return rc;
    if (int rc = expectFloatTensor(0, "input", 1, 4))
      return rc;
    return expectOutput(in(0).dims);
  case ANEURALNETWORKS_RESHAPE:
    return reshape();
  case ANEURALNETWORKS_SOFTMAX:
    return softmax();
  case ANEURALNETWORKS_CONCATENATION:
    return concatenation();
  default:
    return fail(ANEURALNETWORKS_BAD_DATA,
                "operation " + std::to_string(index) + ": opcode " +
                    std::to_string(op.opcode) +
                    " is not implemented by the host NNAPI implementation");
  }
}

/// Validates the whole model; the operations must be in dependency order.
int validateModel(const ANeuralNetworksModel &m) {
  std::vector<bool> defined(m.operands.size(), false);
  for (size_t i = 0; i < m.operands.size(); ++i) {
    const Operand &o = m.operands[i];
    if (o.kind == Kind::Constant || o.kind == Kind::Input)
      defined[i] = true;
    if (!isScalar(o.type))
      for (uint32_t d : o.dims)
        if (d == 0)
          return fail(ANEURALNETWORKS_BAD_DATA,
                      "operand " + std::to_string(i) +
                          " has an unspecified dimension; the host "
                          "implementation needs static shapes");
  }
  for (size_t i = 0; i < m.operations.size(); ++i) {
    const Operation &op = m.operations[i];
    for (uint32_t idx : op.inputs)
      if (!defined[idx])
        return fail(ANEURALNETWORKS_BAD_DATA,
                    "operation " + std::to_string(i) + " reads operand " +
                        std::to_string(idx) +
                        " before any operation writes it");
    Validator v(m, op, i);
    if (int rc = v.run())
      return rc;
    for (uint32_t idx : op.outputs) {
      if (defined[idx])
        return fail(ANEURALNETWORKS_BAD_DATA,
                    "operand " + std::to_string(idx) + " is written twice");
      defined[idx] = true;
    }
  }
  for (uint32_t idx : m.outputs)
    if (!defined[idx])
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "model output operand " + std::to_string(idx) +
                      " is never written");
  return ANEURALNETWORKS_NO_ERROR;
}

void toFloats(const Operand &o, const void *bytes, std::vector<float> &out) {
  size_t n = numElements(o.dims);
  out.resize(n);
  if (o.type == ANEURALNETWORKS_TENSOR_FLOAT16) {
    const auto *h = static_cast<const uint8_t *>(bytes);
    for (size_t i = 0; i < n; ++i) {
      uint16_t v;
      std::memcpy(&v, h + 2 * i, 2);
      out[i] = halfToFloat(v);
    }
  } else {
    std::memcpy(out.data(), bytes, n * sizeof(float));
  }
}

int execute(const ANeuralNetworksModel &m, const ANeuralNetworksExecution &e) {
  std::vector<std::vector<float>> buffers(m.operands.size());
  auto data = [&](uint32_t idx) -> const float * {
    const Operand &o = m.operands[idx];
    return o.kind == Kind::Constant ? o.floats.data() : buffers[idx].data();
  };
  for (size_t i = 0; i < m.inputs.size(); ++i)
    toFloats(m.operands[m.inputs[i]], e.inputs[i], buffers[m.inputs[i]]);
  for (size_t i = 0; i < m.operations.size(); ++i) {
    const Operation &op = m.operations[i];
    Validator v(m, op, i);
    if (v.run()) // cheap, and gives the decoded window parameters
      return ANEURALNETWORKS_OP_FAILED;
    const Operand &outOp = m.operands[op.outputs[0]];
    std::vector<float> &out = buffers[op.outputs[0]];
    out.assign(numElements(outOp.dims), 0.0f);
    const Shape &is = m.operands[op.inputs[0]].dims;
    const float *in0 = data(op.inputs[0]);
    auto fuse = [&](size_t k) { return m.i32(op.inputs[k]); };
    switch (op.opcode) {
    case ANEURALNETWORKS_ADD: case ANEURALNETWORKS_SUB:
    case ANEURALNETWORKS_MUL: case ANEURALNETWORKS_DIV: {
      BinaryKind kind = op.opcode == ANEURALNETWORKS_ADD   ? BinaryKind::Add
                        : op.opcode == ANEURALNETWORKS_SUB ? BinaryKind::Sub
                        : op.opcode == ANEURALNETWORKS_MUL ? BinaryKind::Mul
                                                           : BinaryKind::Div;
      binary(kind, in0, is, data(op.inputs[1]), m.operands[op.inputs[1]].dims,
             out.data(), outOp.dims, fuse(2));
      break;
    }
    case ANEURALNETWORKS_CONV_2D:
      conv2d(in0, is, data(op.inputs[1]), m.operands[op.inputs[1]].dims,
             data(op.inputs[2]), out.data(), outOp.dims, v.window.w);
      break;
    case ANEURALNETWORKS_DEPTHWISE_CONV_2D:
      depthwiseConv2d(in0, is, data(op.inputs[1]),
                      m.operands[op.inputs[1]].dims, data(op.inputs[2]),
                      out.data(), outOp.dims, v.window.w,
                      v.window.depthMultiplier);
      break;
    case ANEURALNETWORKS_FULLY_CONNECTED:
      fullyConnected(in0, data(op.inputs[1]), m.operands[op.inputs[1]].dims,
                     data(op.inputs[2]), out.data(), outOp.dims[0], fuse(3));
      break;
    case ANEURALNETWORKS_MAX_POOL_2D:
      maxPool2d(in0, is, out.data(), outOp.dims, v.window.w, v.window.filterW,
                v.window.filterH);
      break;
    case ANEURALNETWORKS_AVERAGE_POOL_2D:
      averagePool2d(in0, is, out.data(), outOp.dims, v.window.w,
                    v.window.filterW, v.window.filterH);
      break;
    case ANEURALNETWORKS_RELU:
      unary(UnaryKind::Relu, in0, out.data(), out.size());
      break;
    case ANEURALNETWORKS_RELU1:
      unary(UnaryKind::Relu1, in0, out.data(), out.size());
      break;
    case ANEURALNETWORKS_RELU6:
      unary(UnaryKind::Relu6, in0, out.data(), out.size());
      break;
    case ANEURALNETWORKS_LOGISTIC:
      unary(UnaryKind::Logistic, in0, out.data(), out.size());
      break;
    case ANEURALNETWORKS_TANH:
      unary(UnaryKind::Tanh, in0, out.data(), out.size());
      break;
    case ANEURALNETWORKS_RESHAPE:
      std::memcpy(out.data(), in0, out.size() * sizeof(float));
      break;
    case ANEURALNETWORKS_SOFTMAX:
      softmax(in0, is, m.f32(op.inputs[1]),
              op.inputs.size() == 3 ? m.i32(op.inputs[2]) : -1, out.data());
      break;
    case ANEURALNETWORKS_CONCATENATION: {
      std::vector<const float *> ins;
      std::vector<Shape> shapes;
      for (size_t k = 0; k + 1 < op.inputs.size(); ++k) {
        ins.push_back(data(op.inputs[k]));
        shapes.push_back(m.operands[op.inputs[k]].dims);
      }
      concatenation(ins, shapes, m.i32(op.inputs.back()), out.data());
      break;
    }
    default:
      return ANEURALNETWORKS_OP_FAILED;
    }
  }
  for (size_t i = 0; i < m.outputs.size(); ++i) {
    const Operand &o = m.operands[m.outputs[i]];
    const std::vector<float> &src = buffers[m.outputs[i]];
    if (o.type == ANEURALNETWORKS_TENSOR_FLOAT16) {
      auto *dst = static_cast<uint8_t *>(e.outputs[i]);
      for (size_t k = 0; k < src.size(); ++k) {
        uint16_t h = floatToHalf(src[k]);
        std::memcpy(dst + 2 * k, &h, 2);
      }
    } else {
      std::memcpy(e.outputs[i], src.data(), src.size() * sizeof(float));
    }
  }
  return ANEURALNETWORKS_NO_ERROR;
}

size_t operandBytes(const Operand &o) {
  return elementBytes(o.type) * (isScalar(o.type) ? 1 : numElements(o.dims));
}

/// Why the impersonated device would not run `op`, or "" if it would (or no
/// profile is active). Float32 operations of a model relaxed to float16 run
/// on a device that supports float16.
std::string profileRejection(const ANeuralNetworksModel &m, const Operation &op) {
  using namespace nnapi_mlir::profile;
  const DeviceProfile *p = activeProfile();
  if (!p)
    return "";
  const char *name = operationName(op.opcode);
  std::string opName = name ? name : "operation code " + std::to_string(op.opcode);
  unsigned level = operationFeatureLevel(op.opcode);
  if (level == 0 || level > p->featureLevel)
    return "device '" + p->name + "' (feature level " +
           std::to_string(p->featureLevel) + ") does not have " + opName;
  int32_t type = op.inputs.empty() ? -1 : m.operands[op.inputs[0]].type;
  DataType dataType = DataType::Float32;
  if (type == ANEURALNETWORKS_TENSOR_FLOAT16)
    dataType = DataType::Float16;
  else if (type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM)
    dataType = DataType::Int8;
  bool ok = p->supports(op.opcode, dataType) ||
            (dataType == DataType::Float32 && m.relaxed &&
             p->supports(op.opcode, DataType::Float16));
  if (ok)
    return "";
  return "device '" + p->name + "' does not support " + opName + " on " +
         dataTypeName(dataType) +
         (dataType == DataType::Float32 && !m.relaxed &&
                  p->supports(op.opcode, DataType::Float16)
              ? " (it would with float32 relaxed to float16)"
              : "");
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) const char *NNAPIMLIRHost_lastError(void) {
  return lastError.c_str();
}

int ANeuralNetworksModel_create(ANeuralNetworksModel **model) {
  if (!model)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "model is null");
  if (!currentProfile().profileError.empty())
    return fail(ANEURALNETWORKS_BAD_STATE, currentProfile().profileError);
  *model = new (std::nothrow) ANeuralNetworksModel();
  return *model ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUT_OF_MEMORY;
}

void ANeuralNetworksModel_free(ANeuralNetworksModel *model) { delete model; }

int ANeuralNetworksModel_addOperand(ANeuralNetworksModel *model,
                                    const ANeuralNetworksOperandType *type) {
  if (!model || !type)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  if (model->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "model already finished");
  if (elementBytes(type->type) == 0)
    return fail(ANEURALNETWORKS_BAD_DATA,
                "operand type " + std::to_string(type->type) +
                    " is not supported by the host implementation");
  if (isScalar(type->type) && type->dimensionCount != 0)
    return fail(ANEURALNETWORKS_BAD_DATA, "scalar operand with dimensions");
  if (type->dimensionCount && !type->dimensions)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "dimensions are null");
  Operand op;
  op.type = type->type;
  op.dims.assign(type->dimensions, type->dimensions + type->dimensionCount);
  op.scale = type->scale;
  op.zeroPoint = type->zeroPoint;
  model->operands.push_back(std::move(op));
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksModel_setOperandValue(ANeuralNetworksModel *model,
                                         int32_t index, const void *buffer,
                                         size_t length) {
  if (!model || !buffer)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  if (model->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "model already finished");
  if (index < 0 || size_t(index) >= model->operands.size())
    return fail(ANEURALNETWORKS_BAD_DATA, "operand index out of range");
  Operand &op = model->operands[index];
  if (length != operandBytes(op))
    return fail(ANEURALNETWORKS_BAD_DATA,
                "value of operand " + std::to_string(index) + " has " +
                    std::to_string(length) + " bytes, its type needs " +
                    std::to_string(operandBytes(op)));
  const auto *bytes = static_cast<const uint8_t *>(buffer);
  op.value.assign(bytes, bytes + length);
  op.kind = Kind::Constant;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksModel_addOperation(ANeuralNetworksModel *model,
                                      int32_t type, uint32_t inputCount,
                                      const uint32_t *inputs,
                                      uint32_t outputCount,
                                      const uint32_t *outputs) {
  if (!model || (inputCount && !inputs) || (outputCount && !outputs))
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  if (model->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "model already finished");
  if (outputCount == 0)
    return fail(ANEURALNETWORKS_BAD_DATA, "operation without outputs");
  Operation op;
  op.opcode = type;
  op.inputs.assign(inputs, inputs + inputCount);
  op.outputs.assign(outputs, outputs + outputCount);
  for (uint32_t idx : op.inputs)
    if (idx >= model->operands.size())
      return fail(ANEURALNETWORKS_BAD_DATA, "input operand out of range");
  for (uint32_t idx : op.outputs)
    if (idx >= model->operands.size())
      return fail(ANEURALNETWORKS_BAD_DATA, "output operand out of range");
  model->operations.push_back(std::move(op));
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksModel_identifyInputsAndOutputs(ANeuralNetworksModel *model,
                                                  uint32_t inputCount,
                                                  const uint32_t *inputs,
                                                  uint32_t outputCount,
                                                  const uint32_t *outputs) {
  if (!model || (inputCount && !inputs) || (outputCount && !outputs))
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  if (model->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "model already finished");
  for (uint32_t i = 0; i < inputCount + outputCount; ++i) {
    uint32_t idx = i < inputCount ? inputs[i] : outputs[i - inputCount];
    if (idx >= model->operands.size())
      return fail(ANEURALNETWORKS_BAD_DATA, "operand index out of range");
    Operand &op = model->operands[idx];
    if (op.kind != Kind::Temporary)
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "operand " + std::to_string(idx) +
                      " is already a constant, input or output");
    if (!isFloatTensor(op.type))
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "model inputs and outputs must be float tensors here");
    op.kind = i < inputCount ? Kind::Input : Kind::Output;
  }
  model->inputs.assign(inputs, inputs + inputCount);
  model->outputs.assign(outputs, outputs + outputCount);
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksModel_relaxComputationFloat32toFloat16(
    ANeuralNetworksModel *model, bool allow) {
  if (!model)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "model is null");
  if (model->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "model already finished");
  model->relaxed = allow; // float32 stays exact on the host: allowed, unused
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksModel_finish(ANeuralNetworksModel *model) {
  if (!model)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "model is null");
  if (model->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "model already finished");
  if (int rc = validateModel(*model))
    return rc;
  for (Operand &op : model->operands)
    if (op.kind == Kind::Constant && isFloatTensor(op.type))
      toFloats(op, op.value.data(), op.floats);
  model->finished = true;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksModel_getSupportedOperationsForDevices(
    const ANeuralNetworksModel *model,
    const ANeuralNetworksDevice *const *devices, uint32_t numDevices,
    bool *supportedOps) {
  if (!model || !devices || !supportedOps || numDevices == 0)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  if (!model->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "model not finished");
  for (size_t i = 0; i < model->operations.size(); ++i)
    supportedOps[i] = Validator(*model, model->operations[i], i).run() == 0 &&
                      profileRejection(*model, model->operations[i]).empty();
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksCompilation_create(ANeuralNetworksModel *model,
                                      ANeuralNetworksCompilation **out) {
  if (!model || !out)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  if (!model->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "model not finished");
  *out = new (std::nothrow) ANeuralNetworksCompilation{model};
  return *out ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUT_OF_MEMORY;
}

int ANeuralNetworksCompilation_createForDevices(
    ANeuralNetworksModel *model, const ANeuralNetworksDevice *const *devices,
    uint32_t numDevices, ANeuralNetworksCompilation **out) {
  if (!devices || numDevices == 0)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "no devices");
  for (uint32_t i = 0; i < numDevices; ++i)
    if (devices[i] != &hostDevice)
      return fail(ANEURALNETWORKS_BAD_DATA, "unknown device");
  return ANeuralNetworksCompilation_create(model, out);
}

void ANeuralNetworksCompilation_free(ANeuralNetworksCompilation *c) { delete c; }

int ANeuralNetworksCompilation_setPreference(ANeuralNetworksCompilation *c,
                                             int32_t preference) {
  if (!c)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "compilation is null");
  if (c->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "compilation already finished");
  if (preference < 0 || preference > 2)
    return fail(ANEURALNETWORKS_BAD_DATA, "invalid preference");
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksCompilation_finish(ANeuralNetworksCompilation *c) {
  if (!c)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "compilation is null");
  if (c->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "compilation already finished");
  for (size_t i = 0; i < c->model->operations.size(); ++i) {
    std::string why = profileRejection(*c->model, c->model->operations[i]);
    if (!why.empty())
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "operation " + std::to_string(i) + ": " + why);
  }
  c->finished = true;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksExecution_create(ANeuralNetworksCompilation *c,
                                    ANeuralNetworksExecution **out) {
  if (!c || !out)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  if (!c->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "compilation not finished");
  auto *e = new (std::nothrow) ANeuralNetworksExecution();
  if (!e)
    return ANEURALNETWORKS_OUT_OF_MEMORY;
  e->compilation = c;
  e->inputs.assign(c->model->inputs.size(), nullptr);
  e->inputLengths.assign(c->model->inputs.size(), 0);
  e->outputs.assign(c->model->outputs.size(), nullptr);
  e->outputLengths.assign(c->model->outputs.size(), 0);
  *out = e;
  return ANEURALNETWORKS_NO_ERROR;
}

void ANeuralNetworksExecution_free(ANeuralNetworksExecution *e) { delete e; }

static int checkIO(ANeuralNetworksExecution *e, int32_t index,
                   const ANeuralNetworksOperandType *type, const void *buffer,
                   size_t length, const std::vector<uint32_t> &list,
                   const char *what) {
  if (!e || !buffer)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  if (index < 0 || size_t(index) >= list.size())
    return fail(ANEURALNETWORKS_BAD_DATA,
                std::string(what) + " index " + std::to_string(index) +
                    " out of range");
  const Operand &op = e->compilation->model->operands[list[index]];
  if (type && (type->type != op.type ||
               Shape(type->dimensions, type->dimensions + type->dimensionCount) !=
                   op.dims))
    return fail(ANEURALNETWORKS_BAD_DATA,
                std::string(what) + " type does not match the model");
  if (length != operandBytes(op))
    return fail(ANEURALNETWORKS_BAD_DATA,
                std::string(what) + " " + std::to_string(index) + " has " +
                    std::to_string(length) + " bytes, the model needs " +
                    std::to_string(operandBytes(op)));
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksExecution_setInput(ANeuralNetworksExecution *e,
                                      int32_t index,
                                      const ANeuralNetworksOperandType *type,
                                      const void *buffer, size_t length) {
  if (int rc = checkIO(e, index, type, buffer, length,
                       e ? e->compilation->model->inputs
                         : std::vector<uint32_t>(),
                       "input"))
    return rc;
  e->inputs[index] = buffer;
  e->inputLengths[index] = length;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksExecution_setOutput(ANeuralNetworksExecution *e,
                                       int32_t index,
                                       const ANeuralNetworksOperandType *type,
                                       void *buffer, size_t length) {
  if (int rc = checkIO(e, index, type, buffer, length,
                       e ? e->compilation->model->outputs
                         : std::vector<uint32_t>(),
                       "output"))
    return rc;
  e->outputs[index] = buffer;
  e->outputLengths[index] = length;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksExecution_compute(ANeuralNetworksExecution *e) {
  if (!e)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "execution is null");
  for (const void *p : e->inputs)
    if (!p)
      return fail(ANEURALNETWORKS_BAD_STATE, "an input is not set");
  for (void *p : e->outputs)
    if (!p)
      return fail(ANEURALNETWORKS_BAD_STATE, "an output is not set");
  return execute(*e->compilation->model, *e);
}

int ANeuralNetworksExecution_startCompute(ANeuralNetworksExecution *e,
                                          ANeuralNetworksEvent **event) {
  if (!event)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "event is null");
  int status = ANeuralNetworksExecution_compute(e);
  if (status != ANEURALNETWORKS_NO_ERROR)
    return status;
  *event = new (std::nothrow) ANeuralNetworksEvent{status};
  return *event ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUT_OF_MEMORY;
}

int ANeuralNetworksEvent_wait(ANeuralNetworksEvent *event) {
  if (!event)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "event is null");
  return event->status;
}

void ANeuralNetworksEvent_free(ANeuralNetworksEvent *event) { delete event; }

int ANeuralNetworks_getDeviceCount(uint32_t *numDevices) {
  if (!numDevices)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  *numDevices = 1;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworks_getDevice(uint32_t devIndex, ANeuralNetworksDevice **device) {
  if (!device)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  if (devIndex != 0)
    return fail(ANEURALNETWORKS_BAD_DATA, "device index out of range");
  *device = &hostDevice;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksDevice_getName(const ANeuralNetworksDevice *device,
                                  const char **name) {
  if (!device || !name)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  *name = device->name;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksDevice_getType(const ANeuralNetworksDevice *device,
                                  int32_t *type) {
  if (!device || !type)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  const nnapi_mlir::profile::DeviceProfile *p = activeProfile();
  *type = p ? p->deviceType : ANEURALNETWORKS_DEVICE_CPU;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksDevice_getVersion(const ANeuralNetworksDevice *device,
                                     const char **version) {
  if (!device || !version)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  *version = "nnapi-mlir-host-1";
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksDevice_getFeatureLevel(const ANeuralNetworksDevice *device,
                                          int64_t *featureLevel) {
  if (!device || !featureLevel)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  *featureLevel = featureLevelCode(deviceFeatureLevel());
  return ANEURALNETWORKS_NO_ERROR;
}

int64_t ANeuralNetworks_getRuntimeFeatureLevel(void) {
  return featureLevelCode(deviceFeatureLevel());
}

/// Impersonates the device described by the profile at `path` (nullptr or
/// "" goes back to the plain host device). Returns ANEURALNETWORKS_BAD_DATA
/// with NNAPIMLIRHost_lastError() set if the profile cannot be loaded.
__attribute__((visibility("default"))) int
NNAPIMLIRHost_setProfile(const char *path) {
  ProfileState &state = profileState();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.initialized = true;
  state.profileError.clear();
  if (!path || !*path) {
    state.profile.reset();
    hostDevice.name = "nnapi-mlir-host";
    return ANEURALNETWORKS_NO_ERROR;
  }
  auto profile = std::make_unique<nnapi_mlir::profile::DeviceProfile>();
  std::string error;
  if (!nnapi_mlir::profile::loadDeviceProfile(path, *profile, error))
    return fail(ANEURALNETWORKS_BAD_DATA, error);
  state.profile = std::move(profile);
  hostDevice.name = state.profile->name.c_str();
  return ANEURALNETWORKS_NO_ERROR;
}

} // extern "C"
