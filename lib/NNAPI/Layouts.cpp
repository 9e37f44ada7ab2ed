//===- Layouts.cpp - Each NNAPI operation's operand layout ----------------===//
//
// The operand layouts of the operations the project implements, from NNAPI's
// NeuralNetworks.h documentation (roles named after it, in snake case), and
// the matcher every consumer shares. See Layouts.h.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/NNAPI/Layouts.h"
#include "nnapi-mlir/NNAPI/NeuralNetworks.h"
#include "nnapi-mlir/NNAPI/Operations.h"

#include <algorithm>

namespace nnapi_mlir::spec {

namespace {

//===----------------------------------------------------------------------===//
// Builders for the table
//===----------------------------------------------------------------------===//

Role tensor(RoleName name, Accepts accepts, int minRank, int maxRank,
            bool constant = false) {
  Role r{name, accepts, {0, 0, 0, 0, 0}, constant, false, 0};
  for (int i = minRank; i <= maxRank; ++i)
    r.rankLevel[i] = 1;
  return r;
}
Role data(RoleName name, int minRank = 1, int maxRank = 4) {
  return tensor(name, Accepts::Data, minRank, maxRank);
}
/// A constant 1-D TENSOR_INT32 (shapes, axes, permutations, paddings).
Role int32s(RoleName name, int rank = 1, bool constant = true) {
  return tensor(name, Accepts::Int32s, rank, rank, constant);
}
Role scalar(RoleName name, Accepts accepts) {
  return Role{name, accepts, {0, 0, 0, 0, 0}, true, false, 0};
}
Role i32(RoleName name) { return scalar(name, Accepts::Int32); }
Role flag(RoleName name) { return scalar(name, Accepts::Bool); }
Role real(RoleName name) { return scalar(name, Accepts::Float); }
/// Rank `rank` of role `r` is accepted from feature level `level`.
Role rankFrom(Role r, int rank, uint8_t level) {
  r.rankLevel[rank] = level;
  return r;
}
Role inGroup(Role r, uint8_t group) {
  r.group = group;
  return r;
}
Role many(Role r) {
  r.variadic = true;
  return r;
}
/// An optional flag of trailing group `group`, false when left out.
Role optionalFlag(RoleName name, uint8_t group) {
  Role r = inGroup(flag(name), group);
  r.absent = Absent::False;
  return r;
}
/// An optional INT32 of trailing group `group`, `absent` when left out.
Role optionalInt(RoleName name, uint8_t group, Absent absent) {
  Role r = inGroup(i32(name), group);
  r.absent = absent;
  return r;
}
/// Repeats zero or more times.
Role manyOrNone(Role r) {
  r.variadic = r.orNone = true;
  return r;
}
/// A MODEL operand: not a constant, but set from a model.
Role model(RoleName name) {
  Role r = scalar(name, Accepts::Model);
  r.constant = false;
  return r;
}
/// Any operand (tensors of rank 0 to 4) but a MODEL.
Role any(RoleName name) { return tensor(name, Accepts::Any, 0, 4); }
/// The operand may be given without a value.
Role omittable(Role r) {
  r.omittable = true;
  return r;
}

const Role kOutput = data(role::output, 0, 4);
const Role kFuse = i32(role::fuse);

std::vector<Role> roles(std::initializer_list<std::vector<Role>> parts) {
  std::vector<Role> all;
  for (const std::vector<Role> &p : parts)
    all.insert(all.end(), p.begin(), p.end());
  return all;
}

/// input, filter and bias of a convolution (NHWC); per-channel filter
/// scales run along `channelDim` (the output channels: 0 for [out, kh, kw,
/// in], 3 for DEPTHWISE_CONV_2D's [1, kh, kw, out]).
std::vector<Role> convTensors(int8_t channelDim = 0) {
  Role filter = tensor(role::filter, Accepts::Filter, 4, 4);
  filter.channelDim = channelDim;
  return {data(role::input, 4, 4), filter,
          tensor(role::bias, Accepts::Bias, 1, 1)};
}
std::vector<Role> explicitPadding() {
  return {i32(role::pad_left), i32(role::pad_right), i32(role::pad_top),
          i32(role::pad_bottom)};
}
std::vector<Role> strides() {
  return {i32(role::stride_w), i32(role::stride_h)};
}
/// The optional NCHW flag (group 1) and dilations (group 2) of CONV_2D and
/// DEPTHWISE_CONV_2D, from feature level 3.
std::vector<Role> layoutAndDilations() {
  return {optionalFlag(role::layout, 1),
          optionalInt(role::dilation_w, 2, Absent::One),
          optionalInt(role::dilation_h, 2, Absent::One)};
}
const std::vector<Group> kLayoutAndDilationGroups = {
    {3, "a layout operand"}, {3, "dilations other than 1"}};

/// CONV_2D-like: explicit and implicit padding forms around `middle`
/// (depth multiplier, number of groups), then `tail`.
std::vector<Form> convForms(std::vector<Role> middle, std::vector<Role> tail,
                            std::vector<Group> groups, int8_t channelDim = 0) {
  return {
      {"explicit padding",
       roles({convTensors(channelDim), explicitPadding(), strides(), middle,
              tail}),
       {kOutput},
       groups},
      {"implicit padding",
       roles({convTensors(channelDim),
              {i32(role::padding_scheme)},
              strides(),
              middle,
              tail}),
       {kOutput},
       groups},
  };
}

std::vector<Form> poolForms() {
  std::vector<Role> tail = {i32(role::filter_w), i32(role::filter_h), kFuse,
                            optionalFlag(role::layout, 1)};
  std::vector<Group> groups = {{3, "a layout operand"}};
  return {
      {"explicit padding",
       roles({{data(role::input, 4, 4)}, explicitPadding(), strides(), tail}),
       {kOutput},
       groups},
      {"implicit padding",
       roles({{data(role::input, 4, 4), i32(role::padding_scheme)},
              strides(),
              tail}),
       {kOutput},
       groups},
  };
}

Form single(std::vector<Role> inputs, std::vector<Role> outputs = {kOutput},
            std::vector<Group> groups = {}) {
  return {"", std::move(inputs), std::move(outputs), std::move(groups)};
}

std::vector<Layout> buildLayouts() {
  std::vector<Layout> all;
  auto add = [&](int32_t code, std::vector<Form> forms) {
    all.push_back({code, std::move(forms)});
  };
  // ADD, SUB, MUL, DIV: rank 0 from feature level 3.
  for (int32_t code : {ANEURALNETWORKS_ADD, ANEURALNETWORKS_SUB,
                       ANEURALNETWORKS_MUL, ANEURALNETWORKS_DIV})
    add(code, {single({rankFrom(data(role::input0), 0, 3),
                       rankFrom(data(role::input1), 0, 3), kFuse})});
  for (int32_t code :
       {ANEURALNETWORKS_RELU, ANEURALNETWORKS_RELU1, ANEURALNETWORKS_RELU6,
        ANEURALNETWORKS_LOGISTIC, ANEURALNETWORKS_TANH, ANEURALNETWORKS_EXP,
        ANEURALNETWORKS_LOG, ANEURALNETWORKS_SQRT, ANEURALNETWORKS_RSQRT,
        ANEURALNETWORKS_ABS, ANEURALNETWORKS_NEG, ANEURALNETWORKS_FLOOR,
        ANEURALNETWORKS_SIN, ANEURALNETWORKS_HARD_SWISH})
    add(code, {single({data(role::input)})});
  for (int32_t code :
       {ANEURALNETWORKS_MAXIMUM, ANEURALNETWORKS_MINIMUM, ANEURALNETWORKS_POW})
    add(code, {single({data(role::input0), data(role::input1)})});
  add(ANEURALNETWORKS_PRELU, {single({data(role::input), data(role::alpha)})});
  add(ANEURALNETWORKS_ELU, {single({data(role::input), real(role::alpha)})});
  for (int32_t code : {ANEURALNETWORKS_EQUAL, ANEURALNETWORKS_NOT_EQUAL,
                       ANEURALNETWORKS_GREATER, ANEURALNETWORKS_GREATER_EQUAL,
                       ANEURALNETWORKS_LESS, ANEURALNETWORKS_LESS_EQUAL})
    add(code, {single({data(role::input0), data(role::input1)},
                      {tensor(role::output, Accepts::Bool8, 1, 4)})});
  for (int32_t code : {ANEURALNETWORKS_LOGICAL_AND, ANEURALNETWORKS_LOGICAL_OR})
    add(code, {single({tensor(role::input0, Accepts::Bool8, 1, 4),
                       tensor(role::input1, Accepts::Bool8, 1, 4)},
                      {tensor(role::output, Accepts::Bool8, 1, 4)})});
  add(ANEURALNETWORKS_LOGICAL_NOT,
      {single({tensor(role::input, Accepts::Bool8, 1, 4)},
              {tensor(role::output, Accepts::Bool8, 1, 4)})});
  add(ANEURALNETWORKS_CAST,
      {single({tensor(role::input, Accepts::Castable, 1, 4)},
              {tensor(role::output, Accepts::Castable, 1, 4)})});
  add(ANEURALNETWORKS_SELECT,
      {single({tensor(role::condition, Accepts::Bool8, 1, 4),
               data(role::true_values), data(role::false_values)})});
  add(ANEURALNETWORKS_CONV_2D,
      convForms({}, roles({{kFuse}, layoutAndDilations()}),
                kLayoutAndDilationGroups));
  add(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
      convForms({i32(role::depth_multiplier)},
                roles({{kFuse}, layoutAndDilations()}),
                kLayoutAndDilationGroups, /*channelDim=*/3));
  add(ANEURALNETWORKS_GROUPED_CONV_2D,
      convForms({i32(role::num_groups)}, {kFuse, flag(role::layout)}, {}));
  add(ANEURALNETWORKS_TRANSPOSE_CONV_2D,
      {{"explicit padding",
        roles({convTensors(),
               explicitPadding(),
               strides(),
               {kFuse, flag(role::layout)}}),
        {kOutput},
        {}},
       {"implicit padding",
        roles({convTensors(),
               {int32s(role::output_shape), i32(role::padding_scheme)},
               strides(),
               {kFuse, flag(role::layout)}}),
        {kOutput},
        {}}});
  add(ANEURALNETWORKS_FULLY_CONNECTED,
      {single({data(role::input, 2, 4),
               tensor(role::weights, Accepts::Filter, 2, 2),
               tensor(role::bias, Accepts::Bias, 1, 1), kFuse})});
  add(ANEURALNETWORKS_QUANTIZE,
      {single({tensor(role::input, Accepts::FloatData, 1, 4)},
              {tensor(role::output, Accepts::QuantData, 1, 4)})});
  add(ANEURALNETWORKS_DEQUANTIZE,
      {single({tensor(role::input, Accepts::QuantData, 1, 4)},
              {tensor(role::output, Accepts::FloatData, 1, 4)})});
  add(ANEURALNETWORKS_AVERAGE_POOL_2D, poolForms());
  add(ANEURALNETWORKS_MAX_POOL_2D, poolForms());
  // RESHAPE: ranks 1 to 4 on both sides (what every level documents).
  add(ANEURALNETWORKS_RESHAPE,
      {single({data(role::input), int32s(role::shape)}, {data(role::output)})});
  // SOFTMAX: rank 2 or 4 with the last axis; any rank and axis from level 3.
  add(ANEURALNETWORKS_SOFTMAX,
      {single({rankFrom(rankFrom(data(role::input, 2, 4), 1, 3), 3, 3),
               real(role::beta), optionalInt(role::axis, 1, Absent::LastAxis)},
              {kOutput}, {{3, "an axis other than the last"}})});
  add(ANEURALNETWORKS_LOG_SOFTMAX,
      {single({data(role::input), real(role::beta), i32(role::axis)})});
  add(ANEURALNETWORKS_INSTANCE_NORMALIZATION,
      {single({data(role::input, 4, 4), real(role::gamma), real(role::beta),
               real(role::epsilon), flag(role::layout)})});
  // LOCAL_RESPONSE_NORMALIZATION, L2_NORMALIZATION: rank 4 along the last
  // axis; ranks 1 to 3 and other axes from level 3.
  Role normInput = data(role::input, 4, 4);
  for (int r : {1, 2, 3})
    normInput = rankFrom(normInput, r, 3);
  add(ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION,
      {single({normInput, i32(role::radius), real(role::bias),
               real(role::alpha), real(role::beta),
               optionalInt(role::axis, 1, Absent::LastAxis)},
              {kOutput}, {{3, "an axis other than the last"}})});
  add(ANEURALNETWORKS_L2_NORMALIZATION,
      {single({normInput, optionalInt(role::axis, 1, Absent::LastAxis)},
              {kOutput}, {{3, "an axis other than the last"}})});
  add(ANEURALNETWORKS_CONCATENATION,
      {single({many(data(role::input)), i32(role::axis)})});
  // Without the permutation, TRANSPOSE reverses the dimensions.
  add(ANEURALNETWORKS_TRANSPOSE,
      {single({data(role::input), inGroup(int32s(role::perm), 1)}, {kOutput},
              {{2, "a permutation"}})});
  add(ANEURALNETWORKS_PAD,
      {single({data(role::input), int32s(role::paddings, 2)})});
  add(ANEURALNETWORKS_PAD_V2,
      {single({data(role::input), int32s(role::paddings, 2),
               real(role::pad_value)})});
  add(ANEURALNETWORKS_MIRROR_PAD,
      {single(
          {data(role::input), int32s(role::paddings, 2), i32(role::mode)})});
  add(ANEURALNETWORKS_REVERSE,
      {single({data(role::input), int32s(role::axis)})});
  add(ANEURALNETWORKS_GATHER,
      {single({data(role::input), i32(role::axis),
               tensor(role::indices, Accepts::Int32s, 1, 4)})});
  for (int32_t code :
       {ANEURALNETWORKS_DEPTH_TO_SPACE, ANEURALNETWORKS_SPACE_TO_DEPTH})
    add(code, {single({data(role::input, 4, 4), i32(role::block_size),
                       optionalFlag(role::layout, 1)},
                      {kOutput}, {{3, "NCHW layout"}})});
  add(ANEURALNETWORKS_CHANNEL_SHUFFLE,
      {single({data(role::input), i32(role::num_groups), i32(role::axis)})});
  add(ANEURALNETWORKS_SLICE,
      {single({data(role::input), int32s(role::begin), int32s(role::size)})});
  add(ANEURALNETWORKS_STRIDED_SLICE,
      {single({data(role::input), int32s(role::begin), int32s(role::end),
               int32s(role::strides), i32(role::begin_mask),
               i32(role::end_mask), i32(role::shrink_axis_mask)})});
  add(ANEURALNETWORKS_SPLIT,
      {single({data(role::input), i32(role::axis), i32(role::num_splits)},
              {many(kOutput)})});
  add(ANEURALNETWORKS_TILE,
      {single({data(role::input), int32s(role::multiples)})});
  // MEAN's keep_dims is an INT32; the REDUCE_* operations' a BOOL.
  add(ANEURALNETWORKS_MEAN,
      {single({data(role::input), int32s(role::axes), i32(role::keep_dims)})});
  for (int32_t code : {ANEURALNETWORKS_REDUCE_SUM, ANEURALNETWORKS_REDUCE_MAX,
                       ANEURALNETWORKS_REDUCE_MIN, ANEURALNETWORKS_REDUCE_PROD})
    add(code, {single({data(role::input), int32s(role::axes),
                       flag(role::keep_dims)})});
  for (int32_t code : {ANEURALNETWORKS_REDUCE_ANY, ANEURALNETWORKS_REDUCE_ALL})
    add(code, {single({tensor(role::input, Accepts::Bool8, 1, 4),
                       int32s(role::axes), flag(role::keep_dims)},
                      {tensor(role::output, Accepts::Bool8, 0, 4)})});
  for (int32_t code : {ANEURALNETWORKS_ARGMAX, ANEURALNETWORKS_ARGMIN})
    add(code, {single({data(role::input), i32(role::axis)},
                      {tensor(role::output, Accepts::Int32s, 0, 4)})});
  add(ANEURALNETWORKS_BATCH_MATMUL,
      {single({data(role::input0, 2, 4), data(role::input1, 2, 4),
               optionalFlag(role::adj_x, 1), optionalFlag(role::adj_y, 1)},
              {kOutput}, {{6, "adj_x and adj_y"}})});
  // RESIZE_*: sizes (INT32) or, from level 3, scales; RESIZE_BILINEAR's
  // optional layout from level 3; both operations' corner flags from level 4.
  Role width = scalar(role::output_width, Accepts::SizeOrScale);
  Role height = scalar(role::output_height, Accepts::SizeOrScale);
  std::vector<Role> corners = {optionalFlag(role::align_corners, 2),
                               optionalFlag(role::half_pixel_centers, 2)};
  add(ANEURALNETWORKS_RESIZE_BILINEAR,
      {single(roles({{data(role::input, 4, 4), width, height,
                      optionalFlag(role::layout, 1)},
                     corners}),
              {kOutput},
              {{3, "a layout operand"},
               {4, "align_corners or half_pixel_centers"}})});
  // RESIZE_NEAREST_NEIGHBOR came with level 3, its layout flag with it: not
  // optional there.
  add(ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR,
      {single({data(role::input, 4, 4), width, height, flag(role::layout),
               optionalFlag(role::align_corners, 1),
               optionalFlag(role::half_pixel_centers, 1)},
              {kOutput}, {{4, "align_corners or half_pixel_centers"}})});
  // UNIDIRECTIONAL_SEQUENCE_LSTM: 28 inputs in every use; the input gate's
  // weights and bias (CIFG), the peepholes, the projection and the layer
  // norm weights may be given without a value. The state outputs came with
  // level 4.
  auto weights = [](RoleName name) { return data(name, 2, 2); };
  auto vector = [](RoleName name) { return data(name, 1, 1); };
  add(ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM,
      {single({data(role::input, 3, 3),
               omittable(weights(role::input_to_input_weights)),
               weights(role::input_to_forget_weights),
               weights(role::input_to_cell_weights),
               weights(role::input_to_output_weights),
               omittable(weights(role::recurrent_to_input_weights)),
               weights(role::recurrent_to_forget_weights),
               weights(role::recurrent_to_cell_weights),
               weights(role::recurrent_to_output_weights),
               omittable(vector(role::cell_to_input_weights)),
               omittable(vector(role::cell_to_forget_weights)),
               omittable(vector(role::cell_to_output_weights)),
               omittable(vector(role::input_gate_bias)),
               vector(role::forget_gate_bias),
               vector(role::cell_bias),
               vector(role::output_gate_bias),
               omittable(weights(role::projection_weights)),
               omittable(vector(role::projection_bias)),
               weights(role::output_state_in),
               weights(role::cell_state_in),
               i32(role::activation),
               real(role::cell_clip),
               real(role::proj_clip),
               flag(role::time_major),
               omittable(vector(role::input_layer_norm_weights)),
               omittable(vector(role::forget_layer_norm_weights)),
               omittable(vector(role::cell_layer_norm_weights)),
               omittable(vector(role::output_layer_norm_weights))},
              {data(role::output, 3, 3),
               inGroup(data(role::output_state_out, 2, 2), 1),
               inGroup(data(role::cell_state_out, 2, 2), 1)},
              {{4, "state outputs"}})});
  // UNIDIRECTIONAL_SEQUENCE_RNN: h = act(W x + R h + b) over a sequence;
  // time_major is an INT32 (1 or 0). Its hidden state output, a later
  // addition, is not used: the final state is the output's last step.
  add(ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_RNN,
      {single({data(role::input, 3, 3), weights(role::weights),
               weights(role::recurrent_weights), vector(role::bias),
               weights(role::hidden_state), kFuse, i32(role::time_major)},
              {data(role::output, 3, 3)})});
  // IF and WHILE: referenced models, then the values passed to them; their
  // results are the models' outputs (the host device and the dialect check
  // those against the models).
  add(ANEURALNETWORKS_IF,
      {single({tensor(role::condition, Accepts::Bool8, 1, 1),
               model(role::then_model), model(role::else_model),
               manyOrNone(any(role::input))},
              {many(any(role::output))})});
  add(ANEURALNETWORKS_WHILE,
      {single({model(role::condition_model), model(role::body_model),
               many(any(role::input))},
              {many(any(role::output))})});
  std::sort(all.begin(), all.end(),
            [](const Layout &a, const Layout &b) { return a.code < b.code; });
  return all;
}

//===----------------------------------------------------------------------===//
// Matching
//===----------------------------------------------------------------------===//

std::string roleText(bool input, size_t i, const Role &role) {
  return std::string(input ? "input " : "output ") + std::to_string(i) + " (" +
         role.name.str() + ")";
}

/// Raises `level` to `atLeast`, recording `what` as the reason.
void require(unsigned &level, std::string &why, unsigned atLeast,
             const std::string &what) {
  if (atLeast > level) {
    level = atLeast;
    why = what;
  }
}

/// Expands a form's roles to `count` operands: the mandatory roles and the
/// first `groups` optional groups, a variadic role repeated to fill.
bool expand(const std::vector<Role> &roles, size_t count, uint8_t groups,
            std::vector<const Role *> &out) {
  out.clear();
  size_t fixed = 0;
  const Role *variadic = nullptr;
  for (const Role &r : roles) {
    if (r.group > groups)
      continue;
    if (r.variadic)
      variadic = &r;
    else
      ++fixed;
  }
  if (variadic ? count < fixed + (variadic->orNone ? 0 : 1) : count != fixed)
    return false;
  for (const Role &r : roles) {
    if (r.group > groups)
      continue;
    size_t n = r.variadic ? count - fixed : 1;
    for (size_t i = 0; i < n; ++i)
      out.push_back(&r);
  }
  return true;
}

/// The operand counts a form accepts, as text ("7, 8 or 10").
std::string counts(const Form &form, bool inputs) {
  const std::vector<Role> &roles = inputs ? form.inputs : form.outputs;
  std::vector<std::string> options;
  bool variadic = false;
  for (uint8_t g = 0; g <= form.groups.size(); ++g) {
    size_t n = 0;
    for (const Role &r : roles) {
      if (r.group <= g)
        ++n;
      variadic = variadic || r.variadic;
    }
    // Groups of the other side's roles add nothing here.
    std::string option = std::to_string(n) + (variadic ? " or more" : "");
    if (std::find(options.begin(), options.end(), option) == options.end())
      options.push_back(option);
  }
  std::string text;
  for (size_t i = 0; i < options.size(); ++i)
    text += (i == 0                    ? ""
             : i + 1 == options.size() ? " or "
                                       : ", ") +
            options[i];
  return text;
}

class Matcher {
public:
  Matcher(const OperationInfo &op, const Form &form,
          const std::vector<OperandDesc> &inputs,
          const std::vector<OperandDesc> &outputs)
      : op(op), form(form), inputs(inputs), outputs(outputs) {}

  /// Returns the number of operands checked before the first mismatch (for
  /// choosing which form's error to report), with `error` set; or SIZE_MAX
  /// on success with `m` filled.
  size_t run(Match &m, std::string &error);

private:
  const OperationInfo &op;
  const Form &form;
  const std::vector<OperandDesc> &inputs, &outputs;

  bool check(bool input, size_t i, const Role &role, const OperandDesc &d,
             Match &m, std::string &error);
  /// The data types the operation accepts, as text: float ones, and with
  /// `quantized` the 8-bit quantized ones too (only those for QuantData).
  std::string accepted(bool quantized, bool onlyQuantized = false) const;
};

std::string Matcher::accepted(bool quantized, bool onlyQuantized) const {
  std::vector<std::string> names;
  int32_t types[] = {ANEURALNETWORKS_TENSOR_FLOAT32,
                     ANEURALNETWORKS_TENSOR_FLOAT16,
                     ANEURALNETWORKS_TENSOR_QUANT8_ASYMM,
                     ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED};
  for (int32_t t : types) {
    if (isQuant8DataType(t) ? !quantized : onlyQuantized)
      continue;
    if (dataTypeLevel(op, t))
      names.push_back(operandTypeName(t));
  }
  if (names.empty())
    return onlyQuantized ? "no 8-bit quantized tensor" : "no float tensor";
  std::string text = names[0];
  for (size_t i = 1; i < names.size(); ++i)
    text += (i + 1 == names.size() ? " or " : ", ") + names[i];
  return text;
}

bool Matcher::check(bool input, size_t i, const Role &role,
                    const OperandDesc &d, Match &m, std::string &error) {
  std::string what = roleText(input, i, role);
  if (d.omitted) {
    if (input && role.omittable)
      return true;
    error = what + " cannot be omitted";
    return false;
  }
  auto wrongType = [&](const char *expected) {
    error = what + " must be " + expected + ", got " + operandTypeName(d.type);
    return false;
  };
  bool tensor = isTensorOperandType(d.type);
  bool floatData = m.dataType == ANEURALNETWORKS_TENSOR_FLOAT16;
  switch (role.accepts) {
  case Accepts::Data:
    if (d.type != m.dataType)
      return wrongType(operandTypeName(m.dataType));
    break;
  case Accepts::Bool8:
    if (d.type != ANEURALNETWORKS_TENSOR_BOOL8)
      return wrongType("TENSOR_BOOL8");
    break;
  case Accepts::Int32s:
    if (d.type != ANEURALNETWORKS_TENSOR_INT32)
      return wrongType("TENSOR_INT32");
    break;
  case Accepts::Castable:
    if (d.type == ANEURALNETWORKS_TENSOR_BOOL8)
      require(m.level, m.why, kCastBool8Rule.level, kCastBool8Rule.why);
    else if (d.type == ANEURALNETWORKS_TENSOR_FLOAT16)
      require(m.level, m.why, op.float16Level, "float16 operands");
    else if (d.type != ANEURALNETWORKS_TENSOR_FLOAT32 &&
             d.type != ANEURALNETWORKS_TENSOR_INT32)
      return wrongType(
          "TENSOR_FLOAT32, TENSOR_FLOAT16, TENSOR_INT32 or TENSOR_BOOL8");
    break;
  case Accepts::Int32:
    if (d.type != ANEURALNETWORKS_INT32)
      return wrongType("INT32");
    break;
  case Accepts::Bool:
    if (d.type != ANEURALNETWORKS_BOOL)
      return wrongType("BOOL");
    break;
  case Accepts::Float:
    if (d.type !=
        (floatData ? ANEURALNETWORKS_FLOAT16 : ANEURALNETWORKS_FLOAT32))
      return wrongType(floatData ? "FLOAT16" : "FLOAT32");
    break;
  case Accepts::SizeOrScale:
    if (d.type ==
        (floatData ? ANEURALNETWORKS_FLOAT16 : ANEURALNETWORKS_FLOAT32))
      require(m.level, m.why, kResizeScaleRule.level, kResizeScaleRule.why);
    else if (d.type != ANEURALNETWORKS_INT32)
      return wrongType(floatData ? "INT32 or FLOAT16" : "INT32 or FLOAT32");
    break;
  case Accepts::Filter:
    if (d.type == m.dataType)
      break;
    if (isQuant8DataType(m.dataType) && role.channelDim >= 0 &&
        d.type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL) {
      require(m.level, m.why, kPerChannelRule.level, kPerChannelRule.why);
      break;
    }
    return wrongType(isQuant8DataType(m.dataType) && role.channelDim >= 0
                         ? (std::string(operandTypeName(m.dataType)) +
                            " or TENSOR_QUANT8_SYMM_PER_CHANNEL")
                               .c_str()
                         : operandTypeName(m.dataType));
  case Accepts::Bias: {
    int32_t expected =
        isQuant8DataType(m.dataType) ? ANEURALNETWORKS_TENSOR_INT32 : m.dataType;
    if (d.type != expected)
      return wrongType(operandTypeName(expected));
    break;
  }
  case Accepts::FloatData:
  case Accepts::QuantData: {
    bool quant = role.accepts == Accepts::QuantData;
    bool right = quant ? isQuant8DataType(d.type)
                       : (d.type == ANEURALNETWORKS_TENSOR_FLOAT32 ||
                          d.type == ANEURALNETWORKS_TENSOR_FLOAT16);
    unsigned level = right ? dataTypeLevel(op, d.type) : 0;
    if (!level)
      return wrongType(
          (quant ? accepted(true, true) : accepted(false)).c_str());
    require(m.level, m.why, level,
            std::string(operandTypeName(d.type)) + " operands");
    break;
  }
  case Accepts::Model:
    if (d.type != ANEURALNETWORKS_MODEL)
      return wrongType("MODEL");
    return true;
  case Accepts::Any:
    if (d.type == ANEURALNETWORKS_MODEL)
      return wrongType("a tensor or scalar");
    break;
  }
  if (tensor) {
    if (d.rank > 4 || role.rankLevel[d.rank] == 0) {
      std::string ranks;
      for (int r = 0; r <= 4; ++r)
        if (role.rankLevel[r])
          ranks += (ranks.empty() ? "" : ", ") + std::to_string(r);
      error = what + " has rank " + std::to_string(d.rank) +
              ", expected one of " + ranks;
      return false;
    }
    require(m.level, m.why, role.rankLevel[d.rank],
            std::string(role.name) + " of rank " + std::to_string(d.rank));
  }
  if (input && role.constant && !d.constant) {
    error = what + " must be a constant";
    return false;
  }
  return true;
}

size_t Matcher::run(Match &m, std::string &error) {
  m = Match();
  m.form = &form;
  m.level = op.level;
  m.why = op.name;
  // The optional groups present follow from the input count.
  bool counted = false;
  for (uint8_t g = 0; g <= form.groups.size() && !counted; ++g)
    if (expand(form.inputs, inputs.size(), g, m.inputRoles)) {
      m.groups = g;
      counted = true;
    }
  if (!counted) {
    error = "expects " + counts(form, true) + " inputs" +
            (*form.name ? std::string(" (") + form.name + ")" : "") + ", got " +
            std::to_string(inputs.size());
    return 0;
  }
  bool outputsCounted = false;
  for (uint8_t g = 0; g <= form.groups.size() && !outputsCounted; ++g)
    if (expand(form.outputs, outputs.size(), g, m.outputRoles)) {
      m.groups = std::max(m.groups, g);
      outputsCounted = true;
    }
  if (!outputsCounted) {
    error = "expects " + counts(form, false) + " outputs, got " +
            std::to_string(outputs.size());
    return 1;
  }
  // The data type: that of the first Data operand given a value.
  for (size_t i = 0; i < inputs.size() && m.dataType < 0; ++i)
    if (m.inputRoles[i]->accepts == Accepts::Data && !inputs[i].omitted) {
      int32_t t = inputs[i].type;
      if (unsigned level = dataTypeLevel(op, t)) {
        const char *why = t == ANEURALNETWORKS_TENSOR_FLOAT32 ? "float32 operands"
                          : t == ANEURALNETWORKS_TENSOR_FLOAT16
                              ? "float16 operands"
                              : nullptr;
        require(m.level, m.why, level,
                why ? std::string(why)
                    : std::string(operandTypeName(t)) + " operands");
      } else {
        error = roleText(true, i, *m.inputRoles[i]) + " must be " +
                accepted(true) + ", got " + operandTypeName(t);
        return 2 + i;
      }
      m.dataType = t;
    }
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!check(true, i, *m.inputRoles[i], inputs[i], m, error))
      return 2 + i;
  for (size_t i = 0; i < outputs.size(); ++i)
    if (!check(false, i, *m.outputRoles[i], outputs[i], m, error))
      return 2 + inputs.size() + i;
  // The deepest group present names the reason of a shared level.
  for (uint8_t g = m.groups; g > 0; --g)
    require(m.level, m.why, form.groups[g - 1].level, form.groups[g - 1].why);
  return SIZE_MAX;
}

} // namespace

const std::vector<Layout> &layouts() {
  static const std::vector<Layout> all = buildLayouts();
  return all;
}

const Layout *lookupLayout(int32_t code) {
  const std::vector<Layout> &all = layouts();
  auto it =
      std::lower_bound(all.begin(), all.end(), code,
                       [](const Layout &l, int32_t c) { return l.code < c; });
  return it != all.end() && it->code == code ? &*it : nullptr;
}

const Role *weightsRole(int32_t code) {
  if (const Layout *layout = lookupLayout(code))
    for (const Role &r : layout->forms.front().inputs)
      if (r.accepts == Accepts::Filter)
        return &r;
  return nullptr;
}

int Match::input(RoleName name) const {
  for (size_t i = 0; i < inputRoles.size(); ++i)
    if (std::string_view(name) == inputRoles[i]->name)
      return int(i);
  return -1;
}

int Match::output(RoleName name) const {
  for (size_t i = 0; i < outputRoles.size(); ++i)
    if (std::string_view(name) == outputRoles[i]->name)
      return int(i);
  return -1;
}

int32_t absentValue(Absent absent) {
  switch (absent) {
  case Absent::One:
    return 1;
  case Absent::LastAxis:
    return -1;
  case Absent::False:
  case Absent::Unknown:
    break;
  }
  return 0;
}

std::optional<int32_t> Match::absentInput(RoleName name) const {
  for (const Role &r : form->inputs)
    if (std::string_view(name) == r.name && r.absent != Absent::Unknown)
      return absentValue(r.absent);
  return std::nullopt;
}

size_t Match::inputCount(RoleName name) const {
  return size_t(
      std::count_if(inputRoles.begin(), inputRoles.end(), [&](const Role *r) {
        return std::string_view(name) == r->name;
      }));
}

bool match(int32_t code, const std::vector<OperandDesc> &inputs,
           const std::vector<OperandDesc> &outputs, Match &result,
           std::string &error) {
  const OperationInfo *op = lookupOperation(code);
  const Layout *layout = lookupLayout(code);
  if (!op || !layout) {
    error =
        "the NNAPI spec of this project has no operand layout for " +
        (op ? std::string(op->name) : "operation code " + std::to_string(code));
    return false;
  }
  size_t best = 0;
  error.clear();
  for (const Form &form : layout->forms) {
    Match m;
    std::string formError;
    size_t reached = Matcher(*op, form, inputs, outputs).run(m, formError);
    if (reached == SIZE_MAX) {
      result = std::move(m);
      return true;
    }
    if (error.empty() || reached > best) {
      best = reached;
      error = formError;
    }
  }
  return false;
}

bool assemble(int32_t code, const std::vector<Assigned> &assigned,
              const std::vector<OperandDesc> &outputs,
              std::vector<size_t> &order, Match &result, std::string &error) {
  const Layout *layout = lookupLayout(code);
  const char *name = operationName(code);
  if (!layout) {
    error = std::string("the NNAPI spec has no operand layout for ") +
            (name ? name : "this operation");
    return false;
  }
  for (const Form &form : layout->forms) {
    auto roleOf = [&](RoleName n) -> const Role * {
      for (const Role &r : form.inputs)
        if (std::string_view(n) == r.name)
          return &r;
      return nullptr;
    };
    // Every operand given has a role in the form, and every mandatory role
    // of the form is given.
    bool fits = std::all_of(assigned.begin(), assigned.end(),
                            [&](const Assigned &a) { return roleOf(a.role); });
    // A last-axis default also matches rank - 1 of the (first) input.
    int64_t lastAxis = -1;
    for (const Assigned &a : assigned)
      if (std::string_view(a.role) == role::input) {
        lastAxis = int64_t(a.desc.rank) - 1;
        break;
      }
    auto holdsAbsent = [&](const Role &r, const Assigned &a) {
      if (r.absent == Absent::Unknown || !a.value)
        return false;
      return *a.value == absentValue(r.absent) ||
             (r.absent == Absent::LastAxis && *a.value == lastAxis);
    };
    uint8_t groups = 0;
    for (const Role &r : form.inputs) {
      bool given = false, nonDefault = false;
      for (const Assigned &a : assigned)
        if (std::string_view(a.role) == r.name) {
          given = true;
          nonDefault = nonDefault || !holdsAbsent(r, a);
        }
      if (r.group == 0 && !given)
        fits = false;
      if (r.group > 0 && nonDefault)
        groups = std::max(groups, r.group);
    }
    if (!fits)
      continue;
    order.clear();
    std::vector<OperandDesc> descs;
    for (const Role &r : form.inputs) {
      if (r.group > groups)
        continue;
      bool found = false;
      for (size_t i = 0; i < assigned.size(); ++i)
        if (std::string_view(assigned[i].role) == r.name) {
          order.push_back(i);
          descs.push_back(assigned[i].desc);
          found = true;
        }
      if (!found) {
        error = std::string(name) + " needs its '" + r.name.str() +
                "' operand when an operand after it is given";
        return false;
      }
    }
    std::string why;
    if (!match(code, descs, outputs, result, why)) {
      error = std::string(name) + ": " + why;
      return false;
    }
    return true;
  }
  std::string given;
  for (const Assigned &a : assigned)
    given += (given.empty() ? "" : ", ") + std::string(a.role);
  error = std::string("no form of ") + name + " has the operands " + given;
  return false;
}

std::string describeRole(const Role &role) {
  std::string text;
  switch (role.accepts) {
  case Accepts::Data:
    text = "data";
    break;
  case Accepts::Bool8:
    text = "TENSOR_BOOL8";
    break;
  case Accepts::Int32s:
    text = "TENSOR_INT32";
    break;
  case Accepts::Castable:
    text = "float, TENSOR_INT32 or TENSOR_BOOL8 (" +
           std::to_string(kCastBool8Rule.level) + ")";
    break;
  case Accepts::Int32:
    text = "INT32";
    break;
  case Accepts::Bool:
    text = "BOOL";
    break;
  case Accepts::Float:
    text = "FLOAT32/FLOAT16";
    break;
  case Accepts::SizeOrScale:
    text = "INT32, or a float scale (" +
           std::to_string(kResizeScaleRule.level) + ")";
    break;
  case Accepts::Filter:
    text = role.channelDim < 0
               ? "data"
               : "data or per-channel along " +
                     std::to_string(role.channelDim) + " (" +
                     std::to_string(kPerChannelRule.level) + ")";
    break;
  case Accepts::Bias:
    text = "data (TENSOR_INT32 if quantized)";
    break;
  case Accepts::FloatData:
    text = "float";
    break;
  case Accepts::QuantData:
    text = "8-bit quantized";
    break;
  case Accepts::Model:
    text = "MODEL";
    break;
  case Accepts::Any:
    text = "any";
    break;
  }
  switch (role.absent) {
  case Absent::Unknown:
    break;
  case Absent::False:
    text += " (absent: false)";
    break;
  case Absent::One:
    text += " (absent: 1)";
    break;
  case Absent::LastAxis:
    text += " (absent: the last axis)";
    break;
  }
  std::string ranks;
  for (int r = 0; r <= 4; ++r)
    if (role.rankLevel[r])
      ranks +=
          (ranks.empty() ? "" : ",") + std::to_string(r) +
          (role.rankLevel[r] > 1 ? "(" + std::to_string(role.rankLevel[r]) + ")"
                                 : "");
  if (!ranks.empty())
    text += " rank " + ranks;
  if (role.constant && !ranks.empty())
    text += " constant";
  if (role.variadic)
    text += role.orNone ? ", repeated or none" : ", repeated";
  if (role.omittable)
    text += ", may be omitted";
  return text;
}

} // namespace nnapi_mlir::spec
