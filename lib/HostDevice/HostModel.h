//===- HostModel.h - The host NNAPI device's model representation ---------===//
//
// What an ANeuralNetworksModel holds once it is built: operands, operations,
// and, after ANeuralNetworksModel_finish, the decoded parameters of every
// operation. Shared by validation (Validation.cpp), the executor
// (Executor.cpp) and the C API (HostNNAPI.cpp). Internal to libnnapi_host.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_HOSTDEVICE_HOSTMODEL_H
#define NNAPI_MLIR_LIB_HOSTDEVICE_HOSTMODEL_H

#include "nnapi-mlir/NNAPI/Layouts.h"
#include "nnapi-mlir/NNAPI/Operations.h"
#include "nnapi-mlir/NNAPI/Shapes.h"
#include "nnapi-mlir/HostDevice/Kernels.h"
#include "nnapi-mlir/NNAPI/NeuralNetworks.h"

#include <cstring>
#include <string>
#include <vector>

namespace nnapi_mlir::host {

/// Operands are read by role (Roles.h): role::filter, not "filter".
namespace role = spec::role;
using spec::RoleName;

/// Records `message` as the last error of this thread (NNAPIMLIRHost_lastError)
/// and returns `code`. The state lives with the C API, in HostNNAPI.cpp.
int fail(int code, std::string message);
/// The message of this thread's last fail().
const std::string &lastErrorMessage();

/// Omitted: an optional operand given without a value (setOperandValue with
/// a null buffer and length 0). Model: a MODEL operand naming a finished
/// model (setOperandValueFromModel), IF's branches and WHILE's parts.
enum class Kind { Temporary, Input, Output, Constant, Omitted, Model };

struct HostModel;

struct Operand {
  int32_t type = 0;
  Shape dims;
  float scale = 0.0f;
  int32_t zeroPoint = 0;
  Kind kind = Kind::Temporary;
  /// A constant's value. NNAPI copies values of at most
  /// ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES bytes (into
  /// `copy`) and references larger ones, which the caller keeps alive and
  /// unchanged for the life of the model.
  const uint8_t *value = nullptr;
  std::vector<uint8_t> copy;
  /// Kind::Model: the referenced model, which the caller keeps alive (and
  /// finished) for the life of this one, as NNAPI specifies.
  const HostModel *model = nullptr;
  /// TENSOR_QUANT8_SYMM_PER_CHANNEL: the dimension its scales run along and
  /// the scales (setOperandSymmPerChannelQuantParams).
  uint32_t channelDim = 0;
  std::vector<float> channelScales;
};

struct Operation {
  int32_t opcode = 0;
  std::vector<uint32_t> inputs, outputs;
};

/// Parameters of an operation decoded from its scalar operands by the
/// validator, so execution never decodes operands again.
struct OpParams {
  Window window;              ///< Convolutions and pooling (padding resolved).
  int32_t filterW = 0, filterH = 0;
  int32_t depthMultiplier = 1;
  int32_t groups = 1;         ///< GROUPED_CONV_2D, CHANNEL_SHUFFLE.
  int32_t blockSize = 1;      ///< DEPTH_TO_SPACE, SPACE_TO_DEPTH.
  bool nchw = false;          ///< Their layout.
  int32_t fuseCode = 0;       ///< ANEURALNETWORKS_FUSED_* of any operation.
  int32_t axis = -1;          ///< SOFTMAX, CONCATENATION, REVERSE, GATHER (>= 0).
  float beta = 1.0f;          ///< SOFTMAX, LOG_SOFTMAX.
  float alpha = 1.0f;         ///< ELU.
  uint32_t batch = 0;         ///< FULLY_CONNECTED: flattened input rows.
  /// TRANSPOSE: perm; SLICE, STRIDED_SLICE: begin (resolved); PAD, PAD_V2,
  /// MIRROR_PAD: padding before each dimension.
  std::vector<int32_t> indices;
  std::vector<int32_t> strides; ///< STRIDED_SLICE, per input dimension.
  Shape sliceShape; ///< STRIDED_SLICE: elements per input dimension.
  float padValue = 0.0f;      ///< PAD_V2.
  PadMode padMode = PadMode::Constant; ///< PAD*, MIRROR_PAD.
  std::vector<bool> reduced;  ///< MEAN, REDUCE_*: per input dimension.
  bool adjA = false, adjB = false; ///< BATCH_MATMUL.
  Resize resize;                   ///< RESIZE_*.
  InstanceNorm norm;               ///< INSTANCE_NORMALIZATION.
  LocalResponse lrn;               ///< LOCAL_RESPONSE_NORMALIZATION.
  SequenceLstm lstm;               ///< UNIDIRECTIONAL_SEQUENCE_LSTM.
  SequenceRnn rnn;                 ///< UNIDIRECTIONAL_SEQUENCE_RNN.
};

struct HostModel {
  std::vector<Operand> operands;
  std::vector<Operation> operations;
  std::vector<uint32_t> inputs, outputs;
  bool relaxed = false;
  std::vector<OpParams> params; ///< One per operation, set by finish.
  /// One per operation, set by finish: the form of the operation's operand
  /// layout it uses, where each role is, and the feature level it needs.
  std::vector<spec::Match> layouts;

  int32_t i32(uint32_t idx) const {
    int32_t v;
    std::memcpy(&v, operands[idx].value, 4);
    return v;
  }
  float f32(uint32_t idx) const {
    return spec::floatScalar(operands[idx].type, operands[idx].value);
  }
  bool b8(uint32_t idx) const { return operands[idx].value[0] != 0; }
};

bool isFloatTensor(int32_t type);
/// Whether the host device computes `opcode` on 8-bit quantized data
/// (QuantizedSteps.cpp).
bool hasQuantizedKernel(int32_t opcode);
bool isScalar(int32_t type);
/// Bytes of one element of an operand type; 0 for types the device lacks.
size_t elementBytes(int32_t type);
/// Bytes of an operand's value (one element for scalars).
size_t operandBytes(const Operand &operand);
std::string shapeStr(const Shape &shape);

/// Checks every operation of a model against NNAPI's operand rules, in
/// dependency order, and fills `model.params`. Returns ANEURALNETWORKS_*
/// with the failure recorded by fail().
int validateModel(HostModel &model);

/// Checks IF or WHILE (operation `index`), whose operands `layout` has
/// matched, against its referenced models: counts, types and shapes of what
/// flows in and out. Raises the level in `layout` to what a referenced
/// model needs.
int validateControlFlow(const HostModel &model, size_t index,
                        spec::Match &layout);

} // namespace nnapi_mlir::host

#endif // NNAPI_MLIR_LIB_HOSTDEVICE_HOSTMODEL_H
