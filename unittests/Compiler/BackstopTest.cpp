//===- BackstopTest.cpp - Diagnostics only unverified IR reaches ----------===//
//
// The nnapi dialect's interface verifier and the blob writer re-check what
// the op verifiers and SSA dominance already guarantee, for C++ callers that
// hand them IR nobody verified. Parsed here without verification, each such
// input must get its diagnostic, not a crash or a blob.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/Target/NNAPIBlob/NNAPIBlob.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace mlir;

namespace {

class Backstop : public ::testing::Test {
protected:
  Backstop() {
    ctx.loadDialect<nnapi::NNAPIDialect, func::FuncDialect,
                    arith::ArithDialect>();
    handler.emplace(&ctx, [this](Diagnostic &diag) {
      errors.push_back(diag.str());
      return success();
    });
  }

  /// `text` parsed without running any verifier.
  OwningOpRef<ModuleOp> parseUnverified(const char *text) {
    ParserConfig config(&ctx, /*verifyAfterParse=*/false);
    return parseSourceString<ModuleOp>(text, config);
  }

  bool sawError(const std::string &part) const {
    for (const std::string &e : errors)
      if (e.find(part) != std::string::npos)
        return true;
    return false;
  }

  MLIRContext ctx;
  std::optional<ScopedDiagnosticHandler> handler;
  std::vector<std::string> errors;
};

// SOFTMAX takes ranks 1 to 4: a rank-5 input the op verifier would refuse
// first.
constexpr const char *kRank5Softmax = R"mlir(
func.func @p(%x: tensor<1x1x1x1x4xf32>) -> tensor<1x1x1x1x4xf32> attributes {nnapi.partition} {
  %0 = nnapi.softmax %x beta = 1.0 : tensor<1x1x1x1x4xf32>
  return %0 : tensor<1x1x1x1x4xf32>
}
)mlir";

TEST_F(Backstop, SpecRefusesOperandsOfUnverifiedOp) {
  OwningOpRef<ModuleOp> module = parseUnverified(kRank5Softmax);
  ASSERT_TRUE(module);
  Operation *softmax = nullptr;
  module->walk([&](nnapi::SoftmaxOp op) { softmax = op; });
  ASSERT_TRUE(softmax);
  EXPECT_TRUE(failed(nnapi::detail::verifySpecOperands(softmax)));
  EXPECT_TRUE(sawError("has NNAPI operands the NNAPI spec refuses: "))
      << (errors.empty() ? "no error" : errors.front());
}

TEST_F(Backstop, BlobWriterRefusesOperandsOfUnverifiedOp) {
  OwningOpRef<ModuleOp> module = parseUnverified(kRank5Softmax);
  ASSERT_TRUE(module);
  auto func = *module->getOps<func::FuncOp>().begin();
  EXPECT_TRUE(failed(nnapi::serializeToBlob(func)));
  EXPECT_TRUE(sawError("cannot be serialized into an NNAPI model: "))
      << (errors.empty() ? "no error" : errors.front());
}

TEST_F(Backstop, BlobWriterRefusesUseBeforeDefinition) {
  OwningOpRef<ModuleOp> module = parseUnverified(R"mlir(
func.func @p(%x: tensor<4xf32>) -> tensor<4xf32> attributes {nnapi.partition} {
  %1 = nnapi.add %0, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %0 = nnapi.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
)mlir");
  ASSERT_TRUE(module);
  auto func = *module->getOps<func::FuncOp>().begin();
  EXPECT_TRUE(failed(nnapi::serializeToBlob(func)));
  EXPECT_TRUE(sawError("value used before it is defined"))
      << (errors.empty() ? "no error" : errors.front());
}

} // namespace
