//===- nnapi-compile.cpp - TOSA, ONNX or TFLite in, shared library out ----===//
//
//   nnapi-compile MODEL.mlir|MODEL.onnx|MODEL.tflite -o model.so
//                 [--feature-level=N]
//                 [--host-only] [--emit=so|obj|llvm|mlir] [--partition-summary]
//                 [--device-profile=P] [--report=PATH] [partitioner options]
//
// A thin driver over the embedding API (nnapi-mlir/Compiler/Compiler.h):
// loads the model, then partitions it for NNAPI, serializes the partitions
// into blobs, lowers everything (with a host copy of every partition) to
// LLVM, and links a shared library against the nnapi-mlir runtime.
// --emit=mlir stops after partitioning (TOSA with blobs), llvm after
// translation to LLVM IR, obj after code generation. The pipeline's options
// are declared once (nnapi-partition's in its Passes.td, the pipelines' own
// in PipelineOptions.def) and become this tool's flags here.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Codegen/Target.h"
#include "nnapi-mlir/Compiler/Compiler.h"
#ifdef NNAPI_MLIR_HAVE_ONNX
#include "nnapi-mlir/Frontend/ONNX/ONNXImporter.h"
#endif
#ifdef NNAPI_MLIR_HAVE_TFLITE
#include "nnapi-mlir/Frontend/TFLite/TFLiteImporter.h"
#endif
#include "nnapi-mlir/Pipelines/Registration.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory compileOptions("nnapi-compile options");

static cl::opt<std::string> inputFile(cl::Positional, cl::cat(compileOptions),
                                      cl::desc("<model.mlir | model.onnx>"));
static cl::opt<std::string> outputFile("o", cl::cat(compileOptions),
                                       cl::desc("Output file"),
                                       cl::value_desc("path"),
                                       cl::init("model.so"));
// The pipeline's options, from their one declaration.
#define NNAPI_OPTION(TYPE, FIELD, FLAG, DEFAULT, DESC)                         \
  static cl::opt<TYPE> FIELD##Flag(FLAG, cl::cat(compileOptions),              \
                                   cl::desc(DESC), cl::init(DEFAULT));
#define NNAPI_LIST_OPTION(TYPE, FIELD, FLAG, DESC)                             \
  static cl::list<TYPE> FIELD##Flag(FLAG, cl::cat(compileOptions),             \
                                    cl::desc(DESC), cl::CommaSeparated);
#include "nnapi-mlir/Partition/PartitionOptions.inc"
#define NNAPI_OPTION(TYPE, FIELD, FLAG, DEFAULT, DESC)                         \
  static cl::opt<TYPE> FIELD##Flag(FLAG, cl::cat(compileOptions),              \
                                   cl::desc(DESC), cl::init(DEFAULT));
#include "nnapi-mlir/Pipelines/PipelineOptions.def"
static cl::opt<bool> summary("partition-summary", cl::cat(compileOptions),
                             cl::desc("Print the partitions and host ops"));
static cl::list<std::string> inputShapes(
    "input-shape", cl::cat(compileOptions),
    cl::desc("Shape of an ONNX graph input with symbolic dimensions, or of a "
             "TFLite input with unknown (-1) ones, e.g. "
             "input=1x3x224x224 (repeatable); an ONNX dimension given as ? or "
             "[LOW..HIGH] stays dynamic: the library takes any size (in the "
             "range); [LOW..HIGH~TYPICAL] also names the size placement "
             "assumes"),
    cl::value_desc("NAME=D0xD1x..."));
static cl::opt<std::string> signatureKey(
    "signature", cl::cat(compileOptions),
    cl::desc("TFLite: the SignatureDef to compile, by its key (default: the "
             "model's first)"),
    cl::value_desc("KEY"));
static cl::list<std::string> inputValues(
    "input-value", cl::cat(compileOptions),
    cl::desc("Compile for one value of an ONNX graph input, read from an "
             "ONNX TensorProto file (repeatable): the graph uses it as a "
             "constant, and every run checks the input holds it"),
    cl::value_desc("NAME=FILE.pb"));
static cl::list<std::string> specializeValues(
    "specialize-value", cl::cat(compileOptions),
    cl::desc("A value for an ONNX graph input, bound as by --input-value "
             "only if a node needs the input's value at compile time (a "
             "shape, axis or count; repeatable)"),
    cl::value_desc("NAME=FILE.pb"));
static cl::opt<bool> float64(
    "float64", cl::cat(compileOptions),
    cl::desc("ONNX: compile a float64 copy of the model (every float32 "
             "tensor widened; host code only, computed exactly): the "
             "reference of nnapi-run --compare-float64"),
    cl::init(false));
static cl::list<std::string> exposeValues(
    "expose-values", cl::cat(compileOptions), cl::CommaSeparated,
    cl::desc("Add these ONNX values (node outputs) to the model's outputs, "
             "after its own; 'all' adds every one (to compare a model layer "
             "by layer with another runtime)"),
    cl::value_desc("NAME,...|all"));
static cl::opt<bool> listONNXOps(
    "list-onnx-ops", cl::cat(compileOptions),
    cl::desc("Print the ONNX operator types the importer supports and exit"));
static cl::opt<bool> onnxOpsTable(
    "onnx-ops-table", cl::cat(compileOptions),
    cl::desc("Print docs/ops.md's table of ONNX operators and exit"));
static cl::opt<bool> listTFLiteOps(
    "list-tflite-ops", cl::cat(compileOptions),
    cl::desc("Print the TFLite operators the importer supports and exit"));
static cl::opt<bool> tfliteOpsTable(
    "tflite-ops-table", cl::cat(compileOptions),
    cl::desc("Print docs/ops.md's table of TFLite operators and exit"));
static cl::opt<bool> onnxNewOpsetsTable(
    "onnx-new-opsets-table", cl::cat(compileOptions),
    cl::desc("Print docs/ops.md's table of the ONNX operators that changed "
             "in opsets 18 to 21 and how they are read, and exit"));
static cl::opt<std::string>
    mtriple("mtriple", cl::cat(compileOptions),
            cl::desc("Target triple of the host code (default: "
                     "this machine's; e.g. aarch64-linux-android29, "
                     "aarch64-linux-gnu)"),
            cl::value_desc("triple"));
static cl::opt<std::string>
    mcpu("mcpu", cl::cat(compileOptions),
         cl::desc("CPU the host code is compiled for; tile sizes follow its "
                  "vector width (default: this machine's CPU, or the "
                  "generic CPU of a foreign --mtriple; native: this "
                  "machine's)"),
         cl::value_desc("name"));
static cl::opt<std::string> mattr("mattr", cl::cat(compileOptions),
                                  cl::desc("Target features to add or remove "
                                           "(+avx512f,-fma,...)"),
                                  cl::value_desc("+a,-b"));
static cl::opt<bool> noHostCodegen(
    "no-host-codegen", cl::cat(compileOptions),
    cl::desc("Same as --host-codegen=false: plain loops, no tiling or "
             "vectorization"));
static cl::opt<bool> printTarget(
    "print-target", cl::cat(compileOptions),
    cl::desc("Print the target and the vector shape the code generation uses"));
static cl::opt<std::string> runpath(
    "runpath", cl::cat(compileOptions),
    cl::desc("RUNPATH of the shared library (e.g. '$ORIGIN'; default: none, "
             "libnnapi_runtime.so is found by its soname)"),
    cl::value_desc("dir"));
static cl::opt<unsigned> compileThreads(
    "compile-threads", cl::cat(compileOptions),
    cl::desc("Threads for LLVM's optimization and code generation (default "
             "0: the CPUs this process may use, at most one per part of the "
             "library; the output is the same for any value)"),
    cl::init(0), cl::value_desc("n"));
static cl::opt<bool> verifyEach(
    "verify-each", cl::cat(compileOptions),
    cl::desc("Verify the IR after every pass of the pipelines, not only after "
             "each stage (slower; names the pass that broke the IR)"),
    cl::init(false));
static cl::opt<unsigned> llvmOptLevel(
    "llvm-opt-level", cl::cat(compileOptions),
    cl::desc("LLVM's optimization level for the host code, 0..3 (default 3; "
             "0 with --emit=llvm shows the IR before LLVM's optimizer)"),
    cl::init(3), cl::value_desc("n"));
enum class Sanitizer { None, Thread };
static cl::opt<Sanitizer> sanitize(
    "sanitize", cl::cat(compileOptions),
    cl::desc("Instrument the host code for a sanitizer; the library then "
             "loads only into a process built with it"),
    cl::init(Sanitizer::None),
    cl::values(clEnumValN(Sanitizer::Thread, "thread",
                          "ThreadSanitizer (-fsanitize=thread)")));
using nnapi::EmitKind;
static cl::opt<EmitKind>
    emit("emit", cl::cat(compileOptions), cl::desc("What to write"),
         cl::init(EmitKind::SharedLibrary),
         cl::values(clEnumValN(EmitKind::SharedLibrary, "so", "shared library"),
                    clEnumValN(EmitKind::Object, "obj", "object file"),
                    clEnumValN(EmitKind::LLVMIR, "llvm", "LLVM IR"),
                    clEnumValN(EmitKind::MLIR, "mlir",
                               "MLIR after partitioning and serialization")));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "nnapi-compile: error: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // -mlir-timing, -mlir-print-ir-after=..., -mlir-disable-threading, ...
  registerPassManagerCLOptions();
  registerMLIRContextCLOptions();
  registerAsmPrinterCLOptions();
  registerDefaultTimingManagerCLOptions();
  // --help lists this tool's options and MLIR's -mlir-* ones; the LLVM back
  // end's hundreds of options stay reachable through --help-hidden.
  for (auto &entry : cl::getRegisteredOptions()) {
    cl::Option *option = entry.getValue();
    llvm::StringRef name = entry.getKey();
    if (!name.starts_with("mlir-") && !name.starts_with("help") &&
        name != "version" &&
        !llvm::is_contained(option->Categories, &compileOptions))
      option->setHiddenFlag(cl::Hidden);
  }
  cl::ParseCommandLineOptions(argc, argv,
                              "nnapi-mlir ahead-of-time compiler\n");
  if (listONNXOps) {
#ifdef NNAPI_MLIR_HAVE_ONNX
    for (const std::string &op : nnapi::getSupportedONNXOps())
      llvm::outs() << op << "\n";
    return 0;
#else
    return fail("this nnapi-compile was built without ONNX support");
#endif
  }
  if (onnxOpsTable || onnxNewOpsetsTable) {
#ifdef NNAPI_MLIR_HAVE_ONNX
    llvm::outs() << (onnxOpsTable ? nnapi::getONNXOpsTable()
                                  : nnapi::getONNXNewOpsetsTable());
    return 0;
#else
    return fail("this nnapi-compile was built without ONNX support");
#endif
  }
  if (listTFLiteOps || tfliteOpsTable) {
#ifdef NNAPI_MLIR_HAVE_TFLITE
    if (listTFLiteOps)
      for (const std::string &op : nnapi::getSupportedTFLiteOps())
        llvm::outs() << op << "\n";
    else
      llvm::outs() << nnapi::getTFLiteOpsTable();
    return 0;
#else
    return fail("this nnapi-compile was built without TFLite support");
#endif
  }
  if (inputFile.empty())
    return fail("no input model (nnapi-compile "
                "MODEL.mlir|MODEL.onnx|MODEL.tflite -o OUT)");

  DialectRegistry registry;
  nnapi::registerCompilerDialects(registry);
  MLIRContext context(registry);
  // Remarks and errors name the op's source line; printing the op is noise.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);

  nnapi::CompilePipelineOptions options;
#define NNAPI_OPTION(TYPE, FIELD, FLAG, DEFAULT, DESC)                         \
  options.FIELD = FIELD##Flag.getValue();
#define NNAPI_LIST_OPTION(TYPE, FIELD, FLAG, DESC)                             \
  options.FIELD = std::vector<TYPE>(FIELD##Flag.begin(), FIELD##Flag.end());
#include "nnapi-mlir/Partition/PartitionOptions.inc"
#define NNAPI_OPTION(TYPE, FIELD, FLAG, DEFAULT, DESC)                         \
  options.FIELD = FIELD##Flag.getValue();
#include "nnapi-mlir/Pipelines/PipelineOptions.def"
  if (noHostCodegen)
    options.hostCodegen = false;

  // Android's package manager extracts (and System.loadLibrary loads) only
  // libraries named lib<name>.so from an APK's jniLibs.
  if (emit == nnapi::EmitKind::SharedLibrary &&
      llvm::Triple(llvm::Triple::normalize(mtriple.getValue())).isAndroid()) {
    llvm::StringRef name = llvm::sys::path::filename(outputFile.getValue());
    if (!name.starts_with("lib") || !name.ends_with(".so"))
      llvm::errs() << "nnapi-compile: warning: '" << name
                   << "' is not named lib<name>.so: an Android app does not "
                      "package or load it from jniLibs (name it lib"
                   << llvm::sys::path::stem(name) << ".so)\n";
  }

  nnapi::CompileOutput output;
  output.path = outputFile;
  output.emit = emit;
  output.triple = mtriple;
  output.cpu = mcpu;
  output.features = mattr;
  output.runpath = runpath;
  output.threads = compileThreads;
  output.verifyEachPass = verifyEach;
  output.llvmOptLevel = llvmOptLevel;
  output.threadSanitizer = sanitize == Sanitizer::Thread;
  if (printTarget) {
    llvm::Expected<nnapi::HostTarget> target =
        nnapi::createHostTarget(mtriple, mcpu, mattr);
    if (!target)
      return fail(toString(target.takeError()));
    llvm::outs() << "target " << target->triple << " cpu " << target->cpu
                 << ": " << target->vectorBits << "-bit vectors, "
                 << target->vectorRegisters << " vector registers, 8-bit dot "
                 << "products: "
                 << (target->int8Dot.empty() ? "none" : target->int8Dot)
                 << "\n";
  }
  output.configurePassManager = [](PassManager &pm, llvm::StringRef) {
    return applyPassManagerCLOptions(pm);
  };
  // -mlir-timing reports the stages under one root.
  DefaultTimingManager timingManager;
  applyDefaultTimingManagerCLOptions(timingManager);
  TimingScope timing = timingManager.getRootScope();
  output.timing = &timing;

  nnapi::LoadOptions load;
#ifdef NNAPI_MLIR_HAVE_ONNX
  nnapi::ONNXImportOptions importOptions;
  for (const std::string &spec : inputShapes) {
    std::string error;
    if (!nnapi::parseInputShape(spec, load, error))
      return fail(error);
  }
  for (const std::string &spec : inputValues) {
    std::string error;
    if (!nnapi::parseONNXInputValue(spec, importOptions, error))
      return fail(error);
  }
  for (const std::string &spec : specializeValues) {
    std::string error;
    if (!nnapi::parseONNXSpecializeValue(spec, importOptions, error))
      return fail(error);
  }
  load.inputValues = std::move(importOptions.inputValues);
  load.specializeValues = std::move(importOptions.specializeValues);
  load.exposeValues.assign(exposeValues.begin(), exposeValues.end());
  load.float64 = float64;
  if (llvm::is_contained(load.exposeValues, "all") &&
      load.exposeValues.size() > 1)
    return fail("--expose-values: 'all' goes alone");
#else
  if (!exposeValues.empty())
    return fail("--expose-values needs the ONNX importer, which this "
                "nnapi-compile was built without");
  if (!inputShapes.empty() || !inputValues.empty() || !specializeValues.empty())
    return fail("--input-shape, --input-value and --specialize-value need "
                "the ONNX importer, which this nnapi-compile was built "
                "without");
#endif
  load.signature = signatureKey;
  auto module = nnapi::loadModelFile(inputFile, &context, load);
  if (!module)
    return fail(toString(module.takeError()));

  nnapi::CompileSummary compileSummary;
  llvm::Error err =
      nnapi::compileModule(**module, options, output, &compileSummary);
  if (summary)
    nnapi::printPartitionSummary(compileSummary, llvm::outs());
  if (summary && !compileSummary.hostBuffers.empty())
    nnapi::printBufferSummary(compileSummary, llvm::outs());
  if (err)
    return fail(toString(std::move(err)));
  return 0;
}
