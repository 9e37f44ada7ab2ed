//===- CompositesTest.cpp - Composites' inputs by name --------------------===//
//
// Composites.h declares each composite's inputs once: orderInputs puts a new
// composite's operands in that order from names, Inputs::bind reads them
// back by name and refuses a number of operands that does not fit.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Transforms/Composites.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <string>

using namespace mlir;
namespace composite = mlir::nnapi::composite;
namespace in = mlir::nnapi::composite::input;

namespace {

class Composites : public ::testing::Test {
protected:
  Composites() {
    ctx.loadDialect<nnapi::NNAPIDialect, func::FuncDialect>();
  }

  /// The composite named `name` with `operands` (at least one) arguments of
  /// @f (all tensor<2xf32>) and parameters `params`, in a parsed module.
  nnapi::CompositeOp make(const std::string &name, unsigned operands,
                          const std::string &params = "") {
    std::string args, uses, types, blockArgs;
    for (unsigned i = 0; i < operands; ++i) {
      std::string sep = i ? ", " : "";
      args += sep + "%a" + std::to_string(i) + ": tensor<2xf32>";
      uses += sep + "%a" + std::to_string(i);
      types += sep + "tensor<2xf32>";
      blockArgs += sep + "%b" + std::to_string(i) + ": tensor<2xf32>";
    }
    std::string text =
        "func.func @f(" + args + ") -> tensor<2xf32> {\n  %r = "
        "nnapi.composite \"" + name + "\"(" + uses +
        ") {composite_attributes = {" + params + "}} : (" + types +
        ") -> tensor<2xf32> {\n  ^bb0(" + blockArgs +
        "):\n    nnapi.yield %b0 : tensor<2xf32>\n  }\n  return %r : "
        "tensor<2xf32>\n}\n";
    module = parseSourceString<ModuleOp>(text, &ctx);
    nnapi::CompositeOp op;
    if (module)
      module->walk([&](nnapi::CompositeOp c) { op = c; });
    return op;
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};

TEST_F(Composites, OrderInputsFollowsTheDeclaration) {
  nnapi::CompositeOp op = make("prelu", 2);
  ASSERT_TRUE(op);
  Value x = op.getInputs()[0], slope = op.getInputs()[1];
  // Given slope first, ordered x, slope.
  SmallVector<Value> ordered = composite::orderInputs(
      composite::kPrelu, {{in::kSlope, slope}, {in::kX, x}});
  ASSERT_EQ(ordered.size(), 2u);
  EXPECT_EQ(ordered[0], x);
  EXPECT_EQ(ordered[1], slope);
  // An LSTM's optional p and lens go after c, in that order.
  SmallVector<Value> lstm = composite::orderInputs(
      composite::kLstm, {{in::kLens, slope},
                         {in::kC, x},
                         {in::kH, x},
                         {in::kBias, x},
                         {in::kR, x},
                         {in::kW, x},
                         {in::kX, x}});
  ASSERT_EQ(lstm.size(), 7u);
  EXPECT_EQ(lstm.back(), slope);
}

TEST_F(Composites, BindReadsByName) {
  std::string why;
  nnapi::CompositeOp prelu = make("prelu", 2);
  ASSERT_TRUE(prelu);
  FailureOr<composite::Inputs> in = composite::Inputs::bind(prelu, why);
  ASSERT_TRUE(succeeded(in)) << why;
  EXPECT_EQ((*in)[in::kX], prelu.getInputs()[0]);
  EXPECT_EQ((*in)[in::kSlope], prelu.getInputs()[1]);

  // Peepholes declared: p is the seventh input, lens the optional eighth.
  nnapi::CompositeOp lstm = make("lstm", 7, "peepholes = 1 : i64");
  ASSERT_TRUE(lstm);
  in = composite::Inputs::bind(lstm, why);
  ASSERT_TRUE(succeeded(in)) << why;
  EXPECT_EQ((*in)[in::kP], lstm.getInputs()[6]);
  EXPECT_FALSE((*in)[in::kLens]);
  EXPECT_TRUE((*in).all(in::kLens).empty());

  nnapi::CompositeOp data = make("quantized_data", 3);
  ASSERT_TRUE(data);
  in = composite::Inputs::bind(data, why);
  ASSERT_TRUE(succeeded(in)) << why;
  EXPECT_EQ((*in).all(in::kXs).size(), 3u);

  nnapi::CompositeOp grouped = make("grouped_conv", 5, "groups = 2 : i64");
  ASSERT_TRUE(grouped);
  in = composite::Inputs::bind(grouped, why);
  ASSERT_TRUE(succeeded(in)) << why;
  EXPECT_EQ((*in).all(in::kFilters).size(), 2u);
  EXPECT_EQ((*in).all(in::kBiases)[1], grouped.getInputs()[4]);
}

TEST_F(Composites, BindSaysWhyTheInputsDoNotFit) {
  auto refusal = [&](nnapi::CompositeOp op) {
    std::string why;
    EXPECT_TRUE(failed(composite::Inputs::bind(op, why)));
    return why;
  };
  EXPECT_EQ(refusal(make("prelu", 3)),
            "composite 'prelu' takes x, slope; got 3 input(s)");
  EXPECT_EQ(refusal(make("lstm", 6, "peepholes = 1 : i64")),
            "composite 'lstm' takes x, w, r, bias, h, c, [p], [lens]; got 6 "
            "input(s)");
  EXPECT_EQ(refusal(make("lstm", 6)),
            "composite 'lstm' has no integer parameter 'peepholes'");
  EXPECT_EQ(refusal(make("grouped_conv", 1, "groups = 0 : i64")),
            "composite 'grouped_conv' has no positive 'groups' parameter");
  EXPECT_EQ(refusal(make("quantized_weighted", 2)),
            "composite 'quantized_weighted' takes x, weights, bias; got 2 "
            "input(s)");
  EXPECT_EQ(refusal(make("someone_elses", 1)),
            "composite 'someone_elses' is not a composite Composites.h "
            "declares");
}

} // namespace
