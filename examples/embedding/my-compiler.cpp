//===- my-compiler.cpp - A compiler that embeds nnapi-mlir ----------------===//
//
//   my-compiler MODEL.mlir -o MODEL.so [--feature-level=N]
//
// Loads a TOSA module into its own MLIRContext, runs a pass of its own
// (removing tosa.identity ops, which NNAPI has no operation for) before
// nnapi-mlir's partition pipeline in its own PassManager, then lets
// nnapi-mlir lower the partitioned module to a shared library. Built out of
// tree against the installed package: find_package(nnapi-mlir).
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Compiler/Compiler.h"
#include "nnapi-mlir/Pipelines/Pipelines.h"
#include "nnapi-mlir/Pipelines/Registration.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {
/// This compiler's own pass: forwards every tosa.identity's operand.
struct StripIdentityPass
    : public PassWrapper<StripIdentityPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(StripIdentityPass)
  StringRef getArgument() const override { return "my-strip-identity"; }
  void runOnOperation() override {
    getOperation().walk([&](tosa::IdentityOp op) {
      op.getResult().replaceAllUsesWith(op.getInput1());
      op.erase();
      ++stripped;
    });
  }
  static inline unsigned stripped = 0;
};
} // namespace

static cl::opt<std::string> input(cl::Positional, cl::Required,
                                  cl::desc("<model.mlir>"));
static cl::opt<std::string> output("o", cl::Required, cl::desc("Output .so"));
static cl::opt<unsigned> featureLevel("feature-level", cl::init(7),
                                      cl::desc("NNAPI feature level"));
// Leaves nnapi-mlir's partitioning out of the pass manager, to show the
// error emitPartitionedModule gives for a module that skipped it.
static cl::opt<bool> skipPartitioning("skip-partitioning", cl::init(false),
                                      cl::desc("Do not partition (an error)"));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "nnapi-mlir embedding example\n");

  // The embedder's registry, with everything nnapi-mlir's pipelines need.
  DialectRegistry registry;
  nnapi::registerCompilerDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  std::string error;
  auto file = openInputFile(input, &error);
  if (!file) {
    llvm::errs() << "my-compiler: " << error << "\n";
    return 1;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  // The options struct the passes, the pipelines and nnapi-compile share.
  nnapi::CompilePipelineOptions options;
  options.featureLevel = featureLevel.getValue();

  // Our pass first, then nnapi-mlir's partitioning, in our pass manager.
  PassManager pm(&context);
  pm.addNestedPass<func::FuncOp>(std::make_unique<StripIdentityPass>());
  if (!skipPartitioning)
    nnapi::buildNNAPIPartitionPipeline(pm, options);
  if (failed(pm.run(*module)))
    return 1;
  llvm::outs() << "my-strip-identity removed " << StripIdentityPass::stripped
               << " tosa.identity op(s)\n";

  // The host pipeline, LLVM and the link (the library names
  // libnnapi_runtime.so, found by soname when the app opens it).
  nnapi::CompileOutput out;
  out.path = output;
  nnapi::CompileSummary summary;
  if (llvm::Error err =
          nnapi::emitPartitionedModule(*module, options, out, &summary)) {
    llvm::errs() << "my-compiler: " << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  nnapi::printPartitionSummary(summary, llvm::outs());
  return 0;
}
