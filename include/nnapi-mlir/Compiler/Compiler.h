//===- Compiler.h - Model in, compiled model out ----------------*- C++ -*-===//
//
// The embedding API behind nnapi-compile and the Python package: load a
// model (TOSA MLIR, or ONNX through the importer) into a module, and compile
// a module through the partition pipeline, the host pipeline and LLVM into
// a shared library, an object file, LLVM IR or partitioned MLIR, on disk or
// in memory. docs/embedding.md shows it in use.
//
// Errors: the model's own problems (unsupported ops, invalid IR) are MLIR
// diagnostics on the module's context, as everywhere in MLIR; the driver's
// (unreadable file, unknown target, failed link) come back as llvm::Error
// with a message that names what failed.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_COMPILER_COMPILER_H
#define NNAPI_MLIR_COMPILER_COMPILER_H

#include "nnapi-mlir/Partition/PartitionReport.h"
#include "nnapi-mlir/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace mlir::nnapi {

enum class ModelFormat {
  Auto, ///< TFLite for its file identifier ("TFL3"), ONNX for a ".onnx" path
        ///< or protobuf bytes, else MLIR.
  ONNX,
  TFLite,
  MLIR, ///< Text or bytecode.
};

/// How to read a model. The ONNX fields mean what ONNXImportOptions's do;
/// inputShapes also sets a TFLite input's unknown (-1) dimensions.
struct LoadOptions {
  ModelFormat format = ModelFormat::Auto;
  std::map<std::string, std::vector<int64_t>> inputShapes;
  std::map<std::string, std::vector<int64_t>> inputDimRanges;
  /// The typical size of each dynamic dimension of an input, in order (0:
  /// none given): "[LOW..HIGH~TYPICAL]". Set on the imported entry's
  /// argument as nnapi.dim_typical, which placement costs read.
  std::map<std::string, std::vector<int64_t>> inputDimTypical;
  std::map<std::string, std::string> inputValues;
  std::map<std::string, std::string> specializeValues;
  /// ONNX values added to the outputs (ONNXImportOptions::exposeValues).
  std::vector<std::string> exposeValues;
  /// ONNX: import a float64 copy (ONNXImportOptions::float64).
  bool float64 = false;
  /// TFLite: the SignatureDef to import, by its key (empty: the model's
  /// first, or subgraph 0 when it has none).
  std::string signature;
};

/// Parses `spec`, --input-shape's "NAME=D0xD1x..." (a scalar: "NAME="; a
/// dimension "?", "[LOW..HIGH]" or "[LOW..HIGH~TYPICAL]" stays dynamic),
/// into `options`' inputShapes, inputDimRanges and inputDimTypical; false
/// with `error` if it is malformed or NAME was given before. nnapi-compile
/// and the Python package both use it.
bool parseInputShape(llvm::StringRef spec, LoadOptions &options,
                     std::string &error);

/// Reads the model at `path`. On failure returns an error; the model's own
/// problems were also emitted as diagnostics.
llvm::Expected<OwningOpRef<ModuleOp>>
loadModelFile(llvm::StringRef path, MLIRContext *context,
              const LoadOptions &options = {});
/// The same for a model in memory; `name` stands for the file in messages.
llvm::Expected<OwningOpRef<ModuleOp>>
loadModel(llvm::StringRef bytes, llvm::StringRef name, MLIRContext *context,
          const LoadOptions &options = {});

enum class EmitKind {
  SharedLibrary, ///< Linked with ld.lld for any ELF triple (Link.h): NEEDED
                 ///< libnnapi_runtime.so, libc and libm only.
  Object,        ///< Link it yourself, with -lnnapi_runtime.
  LLVMIR,        ///< Optimized LLVM IR (text).
  MLIR,          ///< After partitioning: TOSA with the serialized blobs.
};

/// What to produce and for which machine.
struct CompileOutput {
  EmitKind emit = EmitKind::SharedLibrary;
  /// The file to write; when empty, `buffer` receives the bytes instead.
  std::string path;
  std::string *buffer = nullptr;
  /// Target of the host code: triple (empty: this machine's), CPU (empty:
  /// this machine's, or a foreign triple's generic one; "native": this
  /// machine's) and features ("+avx2,-fma"). The code generation sizes its
  /// tiles by the target's vectors, overriding the options' vector-bits and
  /// vector-registers.
  std::string triple, cpu, features;
  /// RUNPATH of a shared library (e.g. "$ORIGIN", for a model shipped
  /// beside libnnapi_runtime.so). Empty: none; the library names
  /// libnnapi_runtime.so by soname, which the process that opens the model
  /// (nnapi-run, the Python package, an app linking the runtime) has loaded.
  std::string runpath;
  /// Threads for LLVM's optimization and code generation of a shared
  /// library's parts; 0: the MLIR context's threads (the CPUs), at most one
  /// per part. The library is the same bytes for any value.
  unsigned threads = 0;
  /// Verify the IR after every pass (as nnapi-opt does), not only after
  /// each stage: it points at the pass that broke it, at a cost of a third
  /// of the host pipeline's time on a large model.
  bool verifyEachPass = false;
  /// LLVM's optimization level for the host code (0..3; 0 leaves the IR as
  /// MLIR translated it, e.g. to look at it with --emit=llvm).
  unsigned llvmOptLevel = 3;
  /// Instrument the host code for ThreadSanitizer (every function
  /// sanitize_thread, LLVM's TSan passes after the optimizer): the library
  /// then loads only into a process built with -fsanitize=thread, where the
  /// generated code's memory accesses are checked like the runtime's.
  bool threadSanitizer = false;
  /// Called on each pass manager before it runs ("partition", "host"):
  /// instrumentation, IR printing, crash reproducers.
  std::function<LogicalResult(PassManager &, llvm::StringRef stage)>
      configurePassManager;
  /// Times the stages under this scope when set (-mlir-timing).
  TimingScope *timing = nullptr;
};

/// What the compilation decided: the partitions, the ops left on the host
/// and the estimated latencies (from nnapi-partition's cost model), and the
/// host code's buffers.
struct CompileSummary {
  struct Partition {
    std::string name;
    std::map<std::string, unsigned> ops; ///< Op name -> count.
    unsigned numOps = 0, numInputs = 0, numOutputs = 0;
    int64_t blobBytes = 0;
    unsigned featureLevel = 0; ///< The blob's, 0 when unread.
    /// From the blob: its NNAPI operations and its tensor operands by type
    /// ("CONV_2D" x 2; "TENSOR_QUANT8_ASYMM_SIGNED" x 5).
    std::map<std::string, unsigned> nnapiOperations, tensorTypes;
  };
  struct HostFunction {
    std::string name;
    std::map<std::string, unsigned> ops;
    unsigned numOps = 0;
  };
  unsigned targetFeatureLevel = 0;
  std::vector<Partition> partitions;
  std::vector<HostFunction> hostFunctions;
  /// nnapi-partition's report: every op's placement, cost and, for host
  /// ops, why. Empty functions with --host-only.
  Report report;
  /// Host code buffers (nnapi-plan-buffers), per function and in all.
  std::map<std::string, std::pair<int64_t, int64_t>> hostBuffers;
  int64_t arenaBytes = 0, unplannedBytes = 0;
  /// Parts the host code was compiled in (0 before LLVM; CompileOutput's
  /// threads compile them at once).
  unsigned codeParts = 0;
};

/// Compiles `module` (TOSA) with `options`. Runs nnapi-partition's pipeline,
/// then (unless emitting MLIR) the host pipeline, LLVM -O3 and code
/// generation, and writes the result. `module` is lowered in place, and
/// emptied once translated to LLVM IR (unless emitting MLIR): a large
/// model's IR would otherwise stay in memory through LLVM's stages.
llvm::Error compileModule(ModuleOp module,
                          const CompilePipelineOptions &options,
                          const CompileOutput &output,
                          CompileSummary *summary = nullptr);

/// The same for a module that already went through
/// buildNNAPIPartitionPipeline (in the embedder's own pass manager, after
/// passes of its own): runs the host pipeline, LLVM and code generation, and
/// writes the result (`module` as with compileModule). The summary's report
/// stays empty (the partitioner ran elsewhere); its partitions are read from
/// the module.
llvm::Error emitPartitionedModule(ModuleOp module,
                                  const CompilePipelineOptions &options,
                                  const CompileOutput &output,
                                  CompileSummary *summary = nullptr);

/// nnapi-compile --partition-summary's text: the partitions and host
/// functions, then (after the host pipeline) the buffers.
void printPartitionSummary(const CompileSummary &summary,
                           llvm::raw_ostream &os);
void printBufferSummary(const CompileSummary &summary, llvm::raw_ostream &os);

} // namespace mlir::nnapi

#endif // NNAPI_MLIR_COMPILER_COMPILER_H
