//===- nnapi-compile.cpp - TOSA model in, shared library out --------------===//
//
//   nnapi-compile MODEL.mlir -o model.so [--feature-level=N] [--host-only]
//                 [--emit=so|obj|llvm|mlir] [--partition-summary]
//                 [--device-profile=P] [--report=PATH] [partitioner options]
//
// Partitions the model for NNAPI, serializes the partitions into blobs,
// lowers everything (with a host copy of every partition) to LLVM, and links
// a shared library against the nnapi-mlir runtime. --emit=mlir stops after
// partitioning (TOSA with blobs), llvm after translation to LLVM IR, obj
// after code generation.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Codegen/Target.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#ifdef NNAPI_MLIR_HAVE_ONNX
#include "nnapi-mlir/Frontend/ONNX/ONNXImporter.h"
#endif
#include "nnapi-mlir/Pipelines/Pipelines.h"
#include "nnapi-mlir/Pipelines/Registration.h"
#include "nnapi-mlir/Runtime/BlobFormat.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory compileOptions("nnapi-compile options");

static cl::opt<std::string> inputFile(cl::Positional, cl::cat(compileOptions),
                                      cl::desc("<model.mlir | model.onnx>"));
static cl::opt<std::string> outputFile("o", cl::cat(compileOptions),
                                       cl::desc("Output file"),
                                       cl::value_desc("path"),
                                       cl::init("model.so"));
static cl::opt<unsigned> featureLevel("feature-level", cl::cat(compileOptions),
                                      cl::desc("NNAPI feature level 1..8"),
                                      cl::init(7));
static cl::opt<bool> hostOnly("host-only", cl::cat(compileOptions),
                              cl::desc("Compile without NNAPI partitions"));
static cl::opt<std::string> entry("entry", cl::cat(compileOptions),
                                  cl::desc("Entry function"), cl::init("main"));
static cl::opt<bool> summary("partition-summary", cl::cat(compileOptions),
                             cl::desc("Print the partitions and host ops"));
static cl::opt<std::string>
    deviceProfile("device-profile", cl::cat(compileOptions),
                  cl::desc("Device profile JSON the partitioner targets "
                           "(default: a generic accelerator)"),
                  cl::value_desc("path"));
static cl::opt<double> minPartitionCost(
    "min-partition-cost", cl::cat(compileOptions),
    cl::desc("Keep partitions that save less than this many us on the host"),
    cl::init(0));
static cl::opt<unsigned>
    maxPartitions("max-partitions", cl::cat(compileOptions),
                  cl::desc("Keep at most N partitions (0: no limit)"),
                  cl::init(0));
static cl::opt<bool>
    allowFp16("allow-fp16", cl::cat(compileOptions),
              cl::desc("Let NNAPI compute float32 relaxed to float16"));
static cl::list<std::string> stopOps("stop-ops", cl::cat(compileOptions),
                                     cl::desc("Op types that stay on the host"),
                                     cl::CommaSeparated);
static cl::opt<std::string>
    placement("placement", cl::cat(compileOptions),
              cl::desc("JSON placement override {host: [...], nnapi: [...]}"),
              cl::value_desc("path"));
static cl::opt<std::string>
    report("report", cl::cat(compileOptions),
           cl::desc("Write the placement report to PATH.json, PATH.html and "
                    "PATH.dot"),
           cl::value_desc("PATH"));
static cl::list<std::string> inputShapes(
    "input-shape", cl::cat(compileOptions),
    cl::desc("Shape of an ONNX graph input with symbolic dimensions, e.g. "
             "input=1x3x224x224 (repeatable)"),
    cl::value_desc("NAME=D0xD1x..."));
static cl::list<std::string> inputValues(
    "input-value", cl::cat(compileOptions),
    cl::desc("Bind an ONNX graph input to a constant read from an ONNX "
             "TensorProto file (repeatable); the model no longer takes it"),
    cl::value_desc("NAME=FILE.pb"));
static cl::opt<bool> listONNXOps(
    "list-onnx-ops", cl::cat(compileOptions),
    cl::desc("Print the ONNX operator types the importer supports and exit"));
static cl::opt<bool> onnxOpsTable(
    "onnx-ops-table", cl::cat(compileOptions),
    cl::desc("Print docs/ops.md's table of ONNX operators and exit"));
static cl::opt<bool> remarks(
    "emit-remarks", cl::cat(compileOptions),
    cl::desc("Print why each host op stays there, and which host ops the "
             "code generation leaves to scalar loops"));
static cl::opt<std::string>
    mtriple("mtriple", cl::cat(compileOptions),
            cl::desc("Target triple of the host code (default: "
                     "this machine's)"),
            cl::value_desc("triple"));
static cl::opt<std::string>
    mcpu("mcpu", cl::cat(compileOptions),
         cl::desc("CPU the host code is compiled for; tile sizes follow its "
                  "vector width (default: native, this machine's CPU)"),
         cl::value_desc("name"), cl::init("native"));
static cl::opt<std::string> mattr("mattr", cl::cat(compileOptions),
                                  cl::desc("Target features to add or remove "
                                           "(+avx512f,-fma,...)"),
                                  cl::value_desc("+a,-b"));
static cl::opt<bool> noHostCodegen(
    "no-host-codegen", cl::cat(compileOptions),
    cl::desc(
        "Lower the host code to plain loops (no tiling or vectorization)"));
static cl::opt<bool> printTarget(
    "print-target", cl::cat(compileOptions),
    cl::desc("Print the target and the vector shape the code generation uses"));
enum class Emit { SharedLibrary, Object, LLVMIR, MLIR };
static cl::opt<Emit>
    emit("emit", cl::cat(compileOptions), cl::desc("What to write"),
         cl::init(Emit::SharedLibrary),
         cl::values(clEnumValN(Emit::SharedLibrary, "so", "shared library"),
                    clEnumValN(Emit::Object, "obj", "object file"),
                    clEnumValN(Emit::LLVMIR, "llvm", "LLVM IR"),
                    clEnumValN(Emit::MLIR, "mlir",
                               "MLIR after partitioning and serialization")));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "nnapi-compile: error: " << message << "\n";
  return 1;
}

/// Prints each partition (ops by kind, blob size and feature level) and the
/// ops left on the host.
static void printSummary(ModuleOp module, llvm::raw_ostream &os) {
  auto countOps = [](func::FuncOp func, bool skipCalls) {
    std::map<std::string, unsigned> counts;
    unsigned total = 0;
    func.walk([&](Operation *op) {
      if (op == func.getOperation() || isa<func::ReturnOp>(op) ||
          op->hasTrait<OpTrait::ConstantLike>() ||
          (skipCalls && isa<func::CallOp>(op)))
        return;
      ++counts[op->getName().getStringRef().str()];
      ++total;
    });
    std::string s = std::to_string(total) + " ops";
    if (!counts.empty()) {
      s += " (";
      bool first = true;
      for (auto &[name, n] : counts) {
        s += (first ? "" : ", ") + name + " x" + std::to_string(n);
        first = false;
      }
      s += ")";
    }
    return s;
  };
  unsigned partitions = 0;
  os << "partition summary (target feature level " << featureLevel << ")\n";
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func->hasAttr(nnapi::NNAPIDialect::kPartitionAttrName))
      continue;
    ++partitions;
    os << "  nnapi @" << func.getSymName() << ": " << countOps(func, false)
       << ", " << func.getNumArguments() << " inputs, " << func.getNumResults()
       << " outputs";
    if (auto ref = func->getAttrOfType<FlatSymbolRefAttr>(
            nnapi::NNAPIDialect::kBlobAttrName))
      if (auto global = module.lookupSymbol<memref::GlobalOp>(ref)) {
        auto bytes = cast<DenseElementsAttr>(*global.getInitialValue());
        ArrayRef<char> raw = bytes.getRawData();
        nnapi_mlir::blob::Model model;
        std::string error;
        if (nnapi_mlir::blob::read(
                reinterpret_cast<const uint8_t *>(raw.data()), raw.size(),
                model, error))
          os << ", blob " << raw.size() << " bytes, needs feature level "
             << model.featureLevel;
      }
    os << "\n";
  }
  for (auto func : module.getOps<func::FuncOp>())
    if (!func->hasAttr(nnapi::NNAPIDialect::kPartitionAttrName) &&
        !func.isExternal())
      os << "  host @" << func.getSymName() << ": " << countOps(func, true)
         << "\n";
  os << "  " << partitions << " partition(s)\n";
}

/// The host code's planned buffers per function (nnapi-plan-buffers).
static void printMemorySummary(ModuleOp module, llvm::raw_ostream &os) {
  int64_t arena = 0, unplanned = 0;
  for (Operation &op : module.getBody()->getOperations()) {
    auto a =
        op.getAttrOfType<IntegerAttr>(nnapi::NNAPIDialect::kArenaBytesAttrName);
    auto u = op.getAttrOfType<IntegerAttr>(
        nnapi::NNAPIDialect::kUnplannedBytesAttrName);
    if (!a || !u)
      continue;
    os << "  host buffers @"
       << op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName())
              .getValue()
       << ": " << a.getInt() << " bytes in one arena (" << u.getInt()
       << " without reuse)\n";
    arena += a.getInt();
    unplanned += u.getInt();
  }
  os << "  host buffers in all: " << arena << " bytes (" << unplanned
     << " without reuse)\n";
}

static int linkSharedLibrary(const std::string &object, const char *argv0) {
  std::string exe = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&linkSharedLibrary));
  llvm::SmallString<256> libDir(llvm::sys::path::parent_path(exe));
  llvm::sys::path::append(libDir, "..", "lib");
  llvm::sys::fs::make_absolute(libDir);
  llvm::SmallString<256> runtime(libDir);
  llvm::sys::path::append(runtime, "libnnapi_runtime.so");
  if (!llvm::sys::fs::exists(runtime))
    return fail("runtime library not found at '" + runtime + "'");
  const char *ccEnv = std::getenv("CC");
  auto cc = llvm::sys::findProgramByName(ccEnv && *ccEnv ? ccEnv : "cc");
  if (!cc)
    return fail("no C compiler driver ('cc' or $CC) to link the shared "
                "library; use --emit=obj and link it yourself");
  std::string rpath = "-Wl,-rpath," + libDir.str().str();
  std::string libFlag = "-L" + libDir.str().str();
  llvm::SmallVector<llvm::StringRef> args = {
      *cc,     "-shared",         "-o",  outputFile, object,
      libFlag, "-lnnapi_runtime", rpath, "-lm"};
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(*cc, args, std::nullopt, {}, 0, 0, &error);
  if (rc != 0)
    return fail("linking '" + outputFile + "' failed" +
                (error.empty() ? "" : ": " + error));
  return 0;
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
  if (onnxOpsTable) {
#ifdef NNAPI_MLIR_HAVE_ONNX
    llvm::outs() << nnapi::getONNXOpsTable();
    return 0;
#else
    return fail("this nnapi-compile was built without ONNX support");
#endif
  }
  if (inputFile.empty())
    return fail("no input model (nnapi-compile MODEL.mlir|MODEL.onnx -o OUT)");
  if (featureLevel < 1 || featureLevel > nnapi::kMaxFeatureLevel)
    return fail("--feature-level must be 1..8, got " +
                llvm::Twine(featureLevel.getValue()));

  // Open the output first: an unwritable path fails before any work.
  std::error_code ec;
  std::string intermediate = outputFile;
  if (emit == Emit::SharedLibrary)
    intermediate = outputFile + ".o";
  auto out = std::make_unique<llvm::ToolOutputFile>(
      intermediate, ec,
      emit == Emit::LLVMIR || emit == Emit::MLIR ? llvm::sys::fs::OF_Text
                                                 : llvm::sys::fs::OF_None);
  if (ec)
    return fail("cannot open output file '" + intermediate +
                "': " + ec.message());

  DialectRegistry registry;
  nnapi::registerCompilerDialects(registry);
  MLIRContext context(registry);
  // Remarks and errors name the op's source line; printing the op is noise.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module;
  if (llvm::StringRef(inputFile).ends_with(".onnx")) {
#ifdef NNAPI_MLIR_HAVE_ONNX
    nnapi::ONNXImportOptions importOptions;
    for (const std::string &spec : inputShapes) {
      std::string error;
      if (!nnapi::parseONNXInputShape(spec, importOptions, error))
        return fail(error);
    }
    for (const std::string &spec : inputValues) {
      std::string error;
      if (!nnapi::parseONNXInputValue(spec, importOptions, error))
        return fail(error);
    }
    module = nnapi::importONNXFile(inputFile, &context, importOptions);
    if (!module)
      return fail("cannot import '" + inputFile + "'");
#else
    return fail("this nnapi-compile was built without ONNX support");
#endif
  } else {
    if (!inputShapes.empty() || !inputValues.empty())
      return fail("--input-shape and --input-value apply to ONNX models; a "
                  "TOSA module's function types are its shapes");
    auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(inputFile);
    if (!buffer)
      return fail("cannot read '" + inputFile +
                  "': " + buffer.getError().message());
    sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
    module = parseSourceFile<ModuleOp>(sourceMgr, &context);
    if (!module)
      return fail("cannot parse '" + inputFile + "'");
  }

  // The target first: the host code generation sizes its tiles by it.
  llvm::Expected<nnapi::HostTarget> hostTarget =
      nnapi::createHostTarget(mtriple, mcpu, mattr);
  if (!hostTarget)
    return fail(toString(hostTarget.takeError()));
  if (printTarget)
    llvm::outs() << "target " << hostTarget->triple << " cpu "
                 << hostTarget->cpu << ": " << hostTarget->vectorBits
                 << "-bit vectors, " << hostTarget->vectorRegisters
                 << " vector registers\n";
  if (emit == Emit::SharedLibrary &&
      llvm::Triple(hostTarget->triple).getArch() !=
          llvm::Triple(llvm::sys::getDefaultTargetTriple()).getArch())
    return fail("a shared library for '" + hostTarget->triple +
                "' needs that target's linker; use --emit=obj and link it "
                "with the target's toolchain");
  nnapi::CompilePipelineOptions options;
  options.featureLevel = featureLevel.getValue();
  options.hostOnly = hostOnly.getValue();
  options.entry = entry.getValue();
  options.deviceProfile = deviceProfile.getValue();
  options.minPartitionCost = minPartitionCost.getValue();
  options.maxPartitions = maxPartitions.getValue();
  options.allowFp16 = allowFp16.getValue();
  options.stopOps = std::vector<std::string>(stopOps.begin(), stopOps.end());
  options.placement = placement.getValue();
  options.report = report.getValue();
  options.emitRemarks = remarks.getValue();
  options.hostCodegen = !noHostCodegen;
  options.vectorBits = hostTarget->vectorBits;
  options.vectorRegisters = hostTarget->vectorRegisters;
  // -mlir-timing reports both pass managers under one root.
  DefaultTimingManager timingManager;
  applyDefaultTimingManagerCLOptions(timingManager);
  TimingScope timing = timingManager.getRootScope();
  TimingScope partitionTiming = timing.nest("partitioning");
  PassManager partitionPM(&context);
  if (failed(applyPassManagerCLOptions(partitionPM)))
    return fail("invalid pass manager options");
  partitionPM.enableTiming(partitionTiming);
  nnapi::buildNNAPIPartitionPipeline(partitionPM, options);
  if (failed(partitionPM.run(*module)))
    return fail("partitioning failed");
  partitionTiming.stop();
  if (summary)
    printSummary(*module, llvm::outs());
  if (emit == Emit::MLIR) {
    module->print(out->os());
    out->keep();
    return 0;
  }

  TimingScope hostTiming = timing.nest("host pipeline");
  PassManager hostPM(&context);
  if (failed(applyPassManagerCLOptions(hostPM)))
    return fail("invalid pass manager options");
  hostPM.enableTiming(hostTiming);
  nnapi::buildNNAPIHostPipeline(hostPM, options);
  if (failed(hostPM.run(*module)))
    return fail("lowering to LLVM failed");
  hostTiming.stop();
  if (summary)
    printMemorySummary(*module, llvm::outs());

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmContext, "nnapi_model");
  if (!llvmModule)
    return fail("translation to LLVM IR failed");

  llvm::TargetMachine *machine = hostTarget->machine.get();
  llvmModule->setDataLayout(machine->createDataLayout());
  llvmModule->setTargetTriple(hostTarget->triple);
  // Every function for the chosen CPU (the target machine's defaults apply
  // to functions without these attributes, but tools reading the IR should
  // see them).
  for (llvm::Function &f : *llvmModule)
    if (!f.isDeclaration()) {
      f.addFnAttr("target-cpu", hostTarget->cpu);
      if (!hostTarget->features.empty())
        f.addFnAttr("target-features", hostTarget->features);
    }
  TimingScope optTiming = timing.nest("LLVM -O3");
  auto optimize = makeOptimizingTransformer(3, 0, machine);
  if (llvm::Error err = optimize(llvmModule.get()))
    return fail("LLVM optimization failed: " + toString(std::move(err)));
  optTiming.stop();

  if (emit == Emit::LLVMIR) {
    llvmModule->print(out->os(), nullptr);
    out->keep();
    return 0;
  }
  TimingScope codegenTiming = timing.nest("LLVM code generation");
  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, out->os(), nullptr,
                                   llvm::CodeGenFileType::ObjectFile))
    return fail("the target cannot emit object files");
  codegen.run(*llvmModule);
  out->os().flush();
  codegenTiming.stop();
  if (emit == Emit::Object) {
    out->keep();
    return 0;
  }
  out->keep();
  out.reset();
  int rc = linkSharedLibrary(intermediate, argv[0]);
  llvm::sys::fs::remove(intermediate);
  return rc;
}
