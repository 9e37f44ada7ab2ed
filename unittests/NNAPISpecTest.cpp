//===- NNAPISpecTest.cpp - The NNAPI spec's operand layouts ---------------===//
//
// The layout table's own consistency, and match()/assemble() on operand
// lists written out here by hand from NNAPI's documentation.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/NNAPI/Layouts.h"
#include "nnapi-mlir/NNAPI/NeuralNetworks.h"
#include "nnapi-mlir/NNAPI/Operations.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

using namespace nnapi_mlir;
using namespace nnapi_mlir::spec;

namespace {

OperandDesc tensor(int32_t type, uint32_t rank, bool constant = false) {
  return OperandDesc{type, rank, constant};
}
OperandDesc f32(uint32_t rank) {
  return tensor(ANEURALNETWORKS_TENSOR_FLOAT32, rank);
}
OperandDesc f16(uint32_t rank) {
  return tensor(ANEURALNETWORKS_TENSOR_FLOAT16, rank);
}
OperandDesc scalar(int32_t type) { return OperandDesc{type, 0, true}; }
const OperandDesc kI32 = scalar(ANEURALNETWORKS_INT32);
const OperandDesc kBool = scalar(ANEURALNETWORKS_BOOL);

/// CONV_2D with explicit padding: input, filter, bias, 4 paddings, 2
/// strides, fuse; then `extra` trailing operands.
std::vector<OperandDesc> conv(std::vector<OperandDesc> extra = {}) {
  std::vector<OperandDesc> in = {f32(4), f32(4), f32(1)};
  for (int i = 0; i < 7; ++i)
    in.push_back(kI32);
  in.insert(in.end(), extra.begin(), extra.end());
  return in;
}

TEST(NNAPISpec, LayoutsAreInCodeOrderAndWellFormed) {
  int32_t last = -1;
  for (const Layout &layout : layouts()) {
    EXPECT_GT(layout.code, last);
    last = layout.code;
    const OperationInfo *op = lookupOperation(layout.code);
    ASSERT_NE(op, nullptr);
    ASSERT_FALSE(layout.forms.empty()) << op->name;
    for (const Form &form : layout.forms) {
      // Groups come in order, after every mandatory role, among the inputs
      // or among the outputs.
      uint8_t group = 0;
      for (const std::vector<Role> *roles : {&form.inputs, &form.outputs}) {
        uint8_t last = 0;
        for (const Role &r : *roles) {
          EXPECT_GE(r.group, last) << op->name << " " << r.name.str();
          last = r.group;
          EXPECT_LE(r.group, form.groups.size())
              << op->name << " " << r.name.str();
          EXPECT_FALSE(r.omittable && r.group)
              << op->name << " " << r.name.str();
        }
        group = std::max(group, last);
      }
      EXPECT_EQ(lookupLayout(layout.code), &layout);
      EXPECT_EQ(group, form.groups.size()) << op->name;
      for (const Group &g : form.groups)
        EXPECT_GE(g.level, op->level) << op->name;
      EXPECT_FALSE(form.outputs.empty()) << op->name;
    }
  }
  EXPECT_GE(layouts().size(), 70u);
  EXPECT_EQ(lookupLayout(ANEURALNETWORKS_LSTM), nullptr);
}

TEST(NNAPISpec, OperandTypeTable) {
  EXPECT_EQ(operandTypeBytes(ANEURALNETWORKS_TENSOR_FLOAT16), 2u);
  EXPECT_EQ(operandTypeBytes(ANEURALNETWORKS_BOOL), 1u);
  EXPECT_EQ(operandTypeBytes(ANEURALNETWORKS_MODEL), 0u);
  EXPECT_EQ(operandTypeBytes(99), 0u);
  EXPECT_TRUE(isTensorOperandType(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED));
  EXPECT_FALSE(isTensorOperandType(ANEURALNETWORKS_FLOAT16));
  EXPECT_STREQ(operandTypeName(ANEURALNETWORKS_TENSOR_BOOL8), "TENSOR_BOOL8");
  EXPECT_STREQ(operandTypeName(-1), "?");
}

TEST(NNAPISpec, ConvFormsAndOptionalGroups) {
  Match m;
  std::string error;
  ASSERT_TRUE(match(ANEURALNETWORKS_CONV_2D, conv(), {f32(4)}, m, error))
      << error;
  EXPECT_STREQ(m.form->name, "explicit padding");
  EXPECT_EQ(m.level, 1u);
  EXPECT_EQ(m.groups, 0);
  EXPECT_EQ(m.input(role::stride_h), 8);
  EXPECT_EQ(m.input(role::dilation_w), -1);

  // The layout flag alone, then with dilations: level 3, and the reason is
  // the deepest group's.
  ASSERT_TRUE(
      match(ANEURALNETWORKS_CONV_2D, conv({kBool}), {f32(4)}, m, error));
  EXPECT_EQ(m.level, 3u);
  EXPECT_EQ(m.why, "a layout operand");
  ASSERT_TRUE(match(ANEURALNETWORKS_CONV_2D, conv({kBool, kI32, kI32}),
                    {f32(4)}, m, error));
  EXPECT_EQ(m.level, 3u);
  EXPECT_EQ(m.why, "dilations other than 1");
  EXPECT_EQ(m.input(role::dilation_h), 12);

  // Implicit padding with the layout flag and dilations has as many
  // operands as explicit padding alone: the BOOL at 7 tells them apart.
  std::vector<OperandDesc> implicit = {f32(4), f32(4), f32(1), kI32, kI32,
                                       kI32,   kI32,   kBool,  kI32, kI32};
  ASSERT_TRUE(match(ANEURALNETWORKS_CONV_2D, implicit, {f32(4)}, m, error))
      << error;
  EXPECT_STREQ(m.form->name, "implicit padding");
  EXPECT_EQ(m.input(role::padding_scheme), 3);
  EXPECT_EQ(m.input(role::layout), 7);

  // Dilations without the layout flag: no form has 12 operands.
  EXPECT_FALSE(
      match(ANEURALNETWORKS_CONV_2D, conv({kI32, kI32}), {f32(4)}, m, error));
  EXPECT_EQ(error, "expects 10, 11 or 13 inputs (explicit padding), got 12");
}

TEST(NNAPISpec, TypesRanksAndConstants) {
  Match m;
  std::string error;
  // float16 data: level 3 for ADD, which float16 reached then.
  ASSERT_TRUE(
      match(ANEURALNETWORKS_ADD, {f16(2), f16(2), kI32}, {f16(2)}, m, error));
  EXPECT_EQ(m.level, 3u);
  EXPECT_EQ(m.why, "float16 operands");
  // Rank 0 from level 3.
  ASSERT_TRUE(
      match(ANEURALNETWORKS_ADD, {f32(0), f32(2), kI32}, {f32(2)}, m, error));
  EXPECT_EQ(m.level, 3u);
  EXPECT_EQ(m.why, "input0 of rank 0");
  // Mixed data types, a wrong scalar, a rank out of range, a variable scalar.
  EXPECT_FALSE(
      match(ANEURALNETWORKS_ADD, {f32(2), f16(2), kI32}, {f32(2)}, m, error));
  EXPECT_EQ(error,
            "input 1 (input1) must be TENSOR_FLOAT32, got TENSOR_FLOAT16");
  EXPECT_FALSE(
      match(ANEURALNETWORKS_ADD, {f32(2), f32(2), kBool}, {f32(2)}, m, error));
  EXPECT_EQ(error, "input 2 (fuse) must be INT32, got BOOL");
  EXPECT_FALSE(
      match(ANEURALNETWORKS_ADD, {f32(5), f32(2), kI32}, {f32(2)}, m, error));
  EXPECT_EQ(error,
            "input 0 (input0) has rank 5, expected one of 0, 1, 2, 3, 4");
  OperandDesc variable = kI32;
  variable.constant = false;
  EXPECT_FALSE(match(ANEURALNETWORKS_ADD, {f32(2), f32(2), variable}, {f32(2)},
                     m, error));
  EXPECT_EQ(error, "input 2 (fuse) must be a constant");
  // A float parameter follows the data type.
  EXPECT_TRUE(match(ANEURALNETWORKS_ELU,
                    {f16(2), scalar(ANEURALNETWORKS_FLOAT16)}, {f16(2)}, m,
                    error));
  EXPECT_FALSE(match(ANEURALNETWORKS_ELU,
                     {f16(2), scalar(ANEURALNETWORKS_FLOAT32)}, {f16(2)}, m,
                     error));
  EXPECT_EQ(error, "input 1 (alpha) must be FLOAT16, got FLOAT32");
  // Operations without float data, and CAST's TENSOR_BOOL8 from level 4.
  EXPECT_FALSE(match(ANEURALNETWORKS_LOGICAL_AND, {f32(1), f32(1)},
                     {tensor(ANEURALNETWORKS_TENSOR_BOOL8, 1)}, m, error));
  EXPECT_EQ(error, "input 0 (input0) must be TENSOR_BOOL8, got TENSOR_FLOAT32");
  ASSERT_TRUE(match(ANEURALNETWORKS_CAST,
                    {tensor(ANEURALNETWORKS_TENSOR_BOOL8, 2)}, {f32(2)}, m,
                    error));
  EXPECT_EQ(m.level, 4u);
  EXPECT_EQ(m.why, "TENSOR_BOOL8 operands");
  // Variadic roles count.
  ASSERT_TRUE(match(ANEURALNETWORKS_CONCATENATION,
                    {f32(2), f32(2), f32(2), kI32}, {f32(2)}, m, error));
  EXPECT_EQ(m.inputCount(role::input), 3u);
  EXPECT_EQ(m.input(role::axis), 3);
  EXPECT_FALSE(
      match(ANEURALNETWORKS_SPLIT, {f32(2), kI32, kI32}, {}, m, error));
  EXPECT_EQ(error, "expects 1 or more outputs, got 0");
  EXPECT_FALSE(match(ANEURALNETWORKS_LSTM, {}, {}, m, error));
  EXPECT_EQ(error,
            "the NNAPI spec of this project has no operand layout for LSTM");
}

TEST(NNAPISpec, AssembleOrdersByRoleAndDropsDefaultGroups) {
  auto assign = [](RoleName name, OperandDesc d,
                   std::optional<int64_t> value = std::nullopt) {
    return Assigned{name, d, value};
  };
  // Given out of order, with the optional operands at NNAPI's defaults
  // (the table's: NHWC, dilations of 1).
  std::vector<Assigned> given = {assign(role::fuse, kI32, 0),
                                 assign(role::stride_h, kI32, 1),
                                 assign(role::dilation_w, kI32, 1),
                                 assign(role::dilation_h, kI32, 1),
                                 assign(role::layout, kBool, 0),
                                 assign(role::input, f32(4)),
                                 assign(role::filter, f32(4)),
                                 assign(role::bias, f32(1)),
                                 assign(role::pad_left, kI32),
                                 assign(role::pad_right, kI32),
                                 assign(role::pad_top, kI32),
                                 assign(role::pad_bottom, kI32),
                                 assign(role::stride_w, kI32)};
  std::vector<size_t> order;
  Match m;
  std::string error;
  ASSERT_TRUE(
      assemble(ANEURALNETWORKS_CONV_2D, given, {f32(4)}, order, m, error))
      << error;
  std::vector<std::string> names;
  for (size_t i : order)
    names.push_back(std::string(given[i].role));
  EXPECT_EQ(names,
            (std::vector<std::string>{"input", "filter", "bias", "pad_left",
                                      "pad_right", "pad_top", "pad_bottom",
                                      "stride_w", "stride_h", "fuse"}));
  EXPECT_EQ(m.level, 1u);
  // A dilation other than 1 brings the layout flag before it.
  given[3].value = 2;
  ASSERT_TRUE(
      assemble(ANEURALNETWORKS_CONV_2D, given, {f32(4)}, order, m, error));
  ASSERT_EQ(order.size(), 13u);
  EXPECT_EQ(std::string(given[order[10]].role), "layout");
  EXPECT_EQ(std::string(given[order[12]].role), "dilation_h");
  EXPECT_EQ(m.level, 3u);
  EXPECT_EQ(m.why, "dilations other than 1");
  // A role no form has.
  given.push_back(assign(role::beta, scalar(ANEURALNETWORKS_FLOAT32)));
  EXPECT_FALSE(
      assemble(ANEURALNETWORKS_CONV_2D, given, {f32(4)}, order, m, error));
  EXPECT_EQ(error.rfind("no form of CONV_2D has the operands fuse, ", 0), 0u)
      << error;
}

TEST(NNAPISpec, OptionalScalarsSayWhatTheyHoldWhenLeftOut) {
  // Every optional INT32 or BOOL input has NNAPI's value for "left out", so
  // that the blob writer can drop its group and readers can fill it in.
  for (const Layout &layout : layouts())
    for (const Form &form : layout.forms)
      for (const Role &r : form.inputs)
        if (r.group > 0 &&
            (r.accepts == Accepts::Int32 || r.accepts == Accepts::Bool)) {
          EXPECT_NE(r.absent, Absent::Unknown)
              << operationName(layout.code) << " " << r.name.str();
        }
  EXPECT_EQ(absentValue(Absent::False), 0);
  EXPECT_EQ(absentValue(Absent::One), 1);
  EXPECT_EQ(absentValue(Absent::LastAxis), -1);
  // SOFTMAX's axis: the last one, given as -1 or as rank - 1, is left out;
  // any other brings the group (and feature level 3).
  auto softmax = [](int64_t axis, Match &m) {
    std::vector<Assigned> given = {
        {role::input, f32(4), std::nullopt},
        {role::beta, scalar(ANEURALNETWORKS_FLOAT32), std::nullopt},
        {role::axis, kI32, axis}};
    std::vector<size_t> order;
    std::string error;
    EXPECT_TRUE(assemble(ANEURALNETWORKS_SOFTMAX, given, {f32(4)}, order, m,
                         error))
        << error;
    return order.size();
  };
  Match m;
  EXPECT_EQ(softmax(-1, m), 2u);
  EXPECT_EQ(softmax(3, m), 2u);
  EXPECT_EQ(m.level, 1u);
  EXPECT_EQ(softmax(1, m), 3u);
  EXPECT_EQ(m.level, 3u);
  EXPECT_EQ(m.absentInput(role::axis), -1);
  EXPECT_EQ(m.absentInput(role::beta), std::nullopt);
}

/// UNIDIRECTIONAL_SEQUENCE_LSTM's 28 inputs as NNAPI documents them: no
/// CIFG, no peepholes, no projection, no layer normalization.
std::vector<OperandDesc> sequenceLstm() {
  OperandDesc none;
  none.type = ANEURALNETWORKS_TENSOR_FLOAT32;
  none.omitted = true;
  std::vector<OperandDesc> in = {f32(3)};
  for (int i = 0; i < 8; ++i) // input and recurrent weights
    in.push_back(f32(2));
  in.insert(in.end(), {none, none, none}); // peepholes
  for (int i = 0; i < 4; ++i)              // biases
    in.push_back(f32(1));
  in.insert(in.end(), {none, none, f32(2), f32(2), kI32,
                       scalar(ANEURALNETWORKS_FLOAT32),
                       scalar(ANEURALNETWORKS_FLOAT32), kBool});
  in.insert(in.end(), {none, none, none, none}); // layer normalization
  return in;
}

TEST(NNAPISpec, OmittedOperandsAndOptionalOutputs) {
  Match m;
  std::string error;
  std::vector<OperandDesc> in = sequenceLstm();
  ASSERT_EQ(in.size(), 28u);
  // The output alone: level 3; with the state outputs: level 4.
  ASSERT_TRUE(match(ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM, in,
                    {f32(3)}, m, error))
      << error;
  EXPECT_EQ(m.level, 3u);
  ASSERT_TRUE(match(ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM, in,
                    {f32(3), f32(2), f32(2)}, m, error))
      << error;
  EXPECT_EQ(m.level, 4u);
  EXPECT_EQ(m.why, "state outputs");
  EXPECT_EQ(m.output(role::cell_state_out), 2);
  EXPECT_EQ(m.input(role::cell_state_in), 19);
  EXPECT_FALSE(match(ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM, in,
                     {f32(3), f32(2)}, m, error));
  EXPECT_EQ(error, "expects 1 or 3 outputs, got 2");
  // Only the optional operands may go without a value.
  in[2].omitted = true;
  EXPECT_FALSE(match(ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM, in,
                     {f32(3)}, m, error));
  EXPECT_EQ(error, "input 2 (input_to_forget_weights) cannot be omitted");
  // Every position stays: 24 inputs are too few.
  in = sequenceLstm();
  in.resize(24);
  EXPECT_FALSE(match(ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM, in,
                     {f32(3)}, m, error));
  EXPECT_EQ(error, "expects 28 inputs, got 24");
}

} // namespace

TEST(NNAPISpec, EveryRoleConstantNamesARoleOfSomeLayout) {
  // Roles.def lists the names the layouts use, no more: a constant no
  // layout has would read an operand that is never there.
  std::set<std::string> used;
  for (const Layout &layout : layouts())
    for (const Form &form : layout.forms)
      for (const std::vector<Role> *roles : {&form.inputs, &form.outputs})
        for (const Role &r : *roles)
          used.insert(r.name.str());
  std::string unused;
#define NNAPI_ROLE(name)                                                       \
  if (!used.count(#name))                                                      \
    unused += std::string(unused.empty() ? "" : ", ") + #name;
#include "nnapi-mlir/NNAPI/Roles.def"
  EXPECT_EQ(unused, "");
  EXPECT_EQ(std::string(role::filter), "filter");
}

TEST(NNAPISpec, WeightsRolesAndTheirChannelDimension) {
  // Per-channel scales run along the output channels of a filter: 0 for
  // CONV_2D's [out, kh, kw, in], 3 for DEPTHWISE_CONV_2D's [1, kh, kw, out];
  // FULLY_CONNECTED's weights take none.
  ASSERT_NE(weightsRole(ANEURALNETWORKS_CONV_2D), nullptr);
  EXPECT_EQ(std::string(weightsRole(ANEURALNETWORKS_CONV_2D)->name), "filter");
  EXPECT_EQ(weightsRole(ANEURALNETWORKS_CONV_2D)->channelDim, 0);
  EXPECT_EQ(weightsRole(ANEURALNETWORKS_DEPTHWISE_CONV_2D)->channelDim, 3);
  EXPECT_EQ(weightsRole(ANEURALNETWORKS_TRANSPOSE_CONV_2D)->channelDim, 0);
  const Role *fc = weightsRole(ANEURALNETWORKS_FULLY_CONNECTED);
  ASSERT_NE(fc, nullptr);
  EXPECT_EQ(std::string(fc->name), "weights");
  EXPECT_EQ(fc->channelDim, -1);
  EXPECT_EQ(weightsRole(ANEURALNETWORKS_ADD), nullptr);
  OperandDesc q8 = tensor(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, 2);
  OperandDesc perChannel =
      tensor(ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, 2);
  OperandDesc bias = tensor(ANEURALNETWORKS_TENSOR_INT32, 1);
  Match m;
  std::string error;
  EXPECT_TRUE(match(ANEURALNETWORKS_FULLY_CONNECTED, {q8, q8, bias, kI32},
                    {q8}, m, error))
      << error;
  EXPECT_FALSE(match(ANEURALNETWORKS_FULLY_CONNECTED,
                     {q8, perChannel, bias, kI32}, {q8}, m, error));
  EXPECT_EQ(error, "input 1 (weights) must be "
                   "TENSOR_QUANT8_ASYMM_SIGNED, got "
                   "TENSOR_QUANT8_SYMM_PER_CHANNEL");
}
