//===- Layouts.h - Each NNAPI operation's operand layout --------*- C++ -*-===//
//
// The operands of an NNAPI operation, declared once per operation (the data
// is in lib/NNAPI/Layouts.cpp): one or more forms (CONV_2D's explicit and
// implicit padding), each an ordered list of roles with the types and ranks
// a role takes, then optional trailing groups, each tagged with the feature
// level that introduced it (CONV_2D's layout flag and its dilations, level
// 3). Types and ranks may carry levels too (ADD's rank-0 operands, level 3).
//
// Everything that orders, counts or checks an operation's operands reads
// this: the blob writer orders the operands the dialect names by role
// (assemble), the dialect's feature level is the level of that assembly,
// the host device checks a model against it (match) and reads operands by
// role name, the test model builder, and docs/ops.md.
//
// Plain C++: no LLVM, no MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_NNAPI_LAYOUTS_H
#define NNAPI_MLIR_NNAPI_LAYOUTS_H

#include "nnapi-mlir/NNAPI/Roles.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nnapi_mlir::spec {

/// What types a role accepts.
enum class Accepts : uint8_t {
  Data,     ///< The operation's data type (its row's FLOAT32/FLOAT16 levels);
            ///< every Data role of an operation has the same type.
  Bool8,    ///< TENSOR_BOOL8.
  Int32s,   ///< TENSOR_INT32.
  Castable, ///< CAST: a float tensor, TENSOR_INT32, or TENSOR_BOOL8 (level 4).
  Int32,    ///< An INT32 scalar.
  Bool,     ///< A BOOL scalar.
  Float,    ///< A FLOAT32 scalar, FLOAT16 when the data is TENSOR_FLOAT16.
  SizeOrScale, ///< An INT32 size, or (from level 3) a Float scale.
  Filter, ///< The operation's weights: the data type; with 8-bit quantized
          ///< data also TENSOR_QUANT8_SYMM_PER_CHANNEL (level 3) where the
          ///< role has a channel dimension.
  Bias,   ///< The data type for float data, TENSOR_INT32 for quantized.
  FloatData, ///< TENSOR_FLOAT32 or TENSOR_FLOAT16, by the operation's float
             ///< columns (QUANTIZE's input, DEQUANTIZE's output).
  QuantData, ///< TENSOR_QUANT8_ASYMM or _SIGNED, by the operation's quant8
             ///< columns (QUANTIZE's output, DEQUANTIZE's input).
  Model,     ///< A MODEL operand (IF's branches, WHILE's condition and body).
  Any,       ///< Any operand but a MODEL (the values IF and WHILE pass to
             ///< and take from their models, whose own operands say more).
};

/// A type a role accepts only from some feature level on, and what needs it.
struct TypeRule {
  uint8_t level;
  const char *why;
};
/// CAST's TENSOR_BOOL8 operands (Accepts::Castable).
inline constexpr TypeRule kCastBool8Rule = {4, "TENSOR_BOOL8 operands"};
/// RESIZE_*'s float scales in place of INT32 sizes (Accepts::SizeOrScale).
inline constexpr TypeRule kResizeScaleRule = {3, "scales for output sizes"};
/// Per-channel filter scales (Accepts::Filter).
inline constexpr TypeRule kPerChannelRule = {3, "per-channel filter scales"};

/// What an optional scalar holds when its group is left out (NNAPI's
/// documented defaults).
enum class Absent : uint8_t {
  Unknown,  ///< Not a scalar with a default (tensors, mandatory roles).
  False,    ///< The NHWC layout, no corner alignment, no transposition.
  One,      ///< Dilation 1.
  LastAxis, ///< -1: the last axis of the input.
};
/// The value of `absent` as NNAPI would read it (LastAxis: -1).
int32_t absentValue(Absent absent);

/// One operand position of a form.
struct Role {
  RoleName name;
  Accepts accepts;
  /// Tensors: the level from which each rank 0..4 is accepted (0: never).
  uint8_t rankLevel[5];
  /// The operand must be a constant (every scalar must).
  bool constant;
  /// Repeats one or more times (CONCATENATION's inputs, SPLIT's outputs).
  bool variadic;
  /// 0: mandatory; k > 0: the k-th optional trailing group.
  uint8_t group;
  /// The operand may be given without a value (NNAPI's "optional" operands
  /// in the middle of a list, such as LSTM's peephole weights): it keeps its
  /// position and says "absent" (ANeuralNetworksModel_setOperandValue with
  /// no buffer).
  bool omittable = false;
  /// A variadic role that may also repeat zero times (IF's inputs).
  bool orNone = false;
  /// Accepts::Filter: the dimension per-channel scales run along (-1: the
  /// operation takes no per-channel weights).
  int8_t channelDim = -1;
  /// An optional INT32 or BOOL (group > 0): its value when left out.
  Absent absent = Absent::Unknown;
};

/// An optional trailing group: the roles of `group` k. A form may end after
/// any whole group, and a group is present only with every group before it.
/// A group holds inputs or outputs (UNIDIRECTIONAL_SEQUENCE_LSTM's state
/// outputs), never both.
struct Group {
  uint8_t level;   ///< Feature level that introduced the group.
  const char *why; ///< What needs that level ("dilations other than 1").
};

struct Form {
  const char *name; ///< "explicit padding"; "" when the operation has one.
  std::vector<Role> inputs, outputs;
  std::vector<Group> groups; ///< groups[k - 1] describes group k.
};

struct Layout {
  int32_t code;
  std::vector<Form> forms; ///< Tried in order.
};

/// The role that holds operation `code`'s weights (Accepts::Filter:
/// CONV_2D's `filter`, FULLY_CONNECTED's `weights`), or nullptr.
const Role *weightsRole(int32_t code);

/// The layout of operation `code`, or nullptr if the spec has none yet.
const Layout *lookupLayout(int32_t code);
/// Every layout, in code order.
const std::vector<Layout> &layouts();

/// What the spec needs to know of an operand.
struct OperandDesc {
  int32_t type = -1; ///< ANEURALNETWORKS_* operand type.
  uint32_t rank = 0; ///< Tensors only.
  bool constant = false;
  /// Given without a value (an omittable role's "absent"); type and rank
  /// are then not checked.
  bool omitted = false;
};

/// Where each role of a form sits among an operation's operands.
struct Match {
  const Form *form = nullptr;
  /// inputs[i] / outputs[i]: the role of operand i.
  std::vector<const Role *> inputRoles, outputRoles;
  unsigned level = 1; ///< The feature level this use needs.
  std::string why;    ///< What needs it (the operation, "float16 operands"...).
  int32_t dataType = -1; ///< The type of the Data roles, -1 without any.
  uint8_t groups = 0;    ///< Optional groups present.

  /// Position of the first operand of input role `name`, or -1 when the form
  /// has no such role or the operation leaves its optional group out.
  int input(RoleName name) const;
  /// Position of output role `name`, or -1 as for input().
  int output(RoleName name) const;
  /// Number of operands of variadic input role `name`.
  size_t inputCount(RoleName name) const;
  /// The value optional scalar input `name` holds when the operation leaves
  /// its group out (Role::absent); nullopt when the form has no such role.
  std::optional<int32_t> absentInput(RoleName name) const;
};

/// Matches operands against the forms of `code`. On success fills `match`;
/// else `error` says what is wrong with the closest form.
bool match(int32_t code, const std::vector<OperandDesc> &inputs,
           const std::vector<OperandDesc> &outputs, Match &match,
           std::string &error);

/// An input the compiler gives by role, for assemble().
struct Assigned {
  RoleName role;
  OperandDesc desc;
  /// An INT32 or BOOL scalar's value: a group whose roles all hold their
  /// Role::absent values is left out (a last-axis default also matches the
  /// input's rank - 1).
  std::optional<int64_t> value;
};

/// Orders operands given by role into the first form of `code` that has
/// every role, leaving out trailing optional groups whose scalars all hold
/// their absent values, then matches the result. `order[i]` is the index in
/// `assigned` of input i.
bool assemble(int32_t code, const std::vector<Assigned> &assigned,
              const std::vector<OperandDesc> &outputs,
              std::vector<size_t> &order, Match &match, std::string &error);

/// A role's accepted types and ranks as text, for docs ("TENSOR_INT32 rank 1").
std::string describeRole(const Role &role);

} // namespace nnapi_mlir::spec

#endif // NNAPI_MLIR_NNAPI_LAYOUTS_H
