//===- Compiler.cpp - Model in, compiled model out ------------------------===//

#include "nnapi-mlir/Compiler/Compiler.h"
#include "Backend.h"
#include "ConstantData.h"
#include "Link.h"
#include "nnapi-mlir/Codegen/Target.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#ifdef NNAPI_MLIR_HAVE_ONNX
#include "nnapi-mlir/Frontend/ONNX/ONNXImporter.h"
#endif
#ifdef NNAPI_MLIR_HAVE_TFLITE
#include "nnapi-mlir/Frontend/TFLite/TFLiteImporter.h"
#endif
#include "nnapi-mlir/NNAPI/BlobFormat.h"
#include "nnapi-mlir/Runtime/ModelABI.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <deque>


using namespace mlir;
using namespace mlir::nnapi;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Input shapes and values given for a model that is not ONNX.
static llvm::Error onnxOnlyOptionsError(const LoadOptions &options) {
  if (options.float64)
    return makeError("--float64 applies to ONNX models");
  if (!options.exposeValues.empty())
    return makeError("--expose-values (expose_values) applies to ONNX "
                     "models; a TOSA module's results are its function's");
  return makeError("--input-shape, --input-value and --specialize-value "
                   "(input_shapes, input_values, specialize_values) apply to "
                   "ONNX models; a TOSA module's function types are its "
                   "shapes");
}

/// A SignatureDef names a TFLite model's entry; other formats have none.
static llvm::Error signatureError(llvm::StringRef name, ModelFormat format) {
  return makeError("--signature (signature) applies to TFLite models; '" +
                   name + "' is " +
                   (format == ModelFormat::ONNX ? "ONNX" : "MLIR"));
}

static bool hasONNXOnlyOptions(const LoadOptions &options) {
  return !options.inputShapes.empty() || !options.inputValues.empty() ||
         !options.specializeValues.empty() || !options.exposeValues.empty() ||
         options.float64;
}

bool mlir::nnapi::parseInputShape(llvm::StringRef spec, LoadOptions &options,
                                  std::string &error) {
  // Names may hold '=' (any characters do), dimensions do not.
  auto [name, dims] = spec.rsplit('=');
  if (name.empty() || !spec.contains('=')) {
    error = "--input-shape '" + spec.str() +
            "' is not NAME=D0xD1x... (e.g. input=1x3x224x224)";
    return false;
  }
  std::vector<int64_t> shape, ranges, typical;
  bool ranged = false, typed = false;
  if (!dims.empty()) {
    llvm::SmallVector<llvm::StringRef> parts;
    dims.split(parts, 'x');
    for (llvm::StringRef p : parts) {
      int64_t d, low, high;
      // A dynamic dimension: "?" (any size) or "[low..high]".
      if (p == "?") {
        shape.push_back(-1);
        ranges.insert(ranges.end(), {int64_t(1), int64_t(NNAPI_MODEL_MAX_DYNAMIC_DIM)});
        typical.push_back(0);
        continue;
      }
      if (p.starts_with("[") && p.ends_with("]")) {
        auto [range, usual] = p.drop_front().drop_back().split('~');
        auto [lo, hi] = range.split("..");
        int64_t t = 0;
        if (lo.getAsInteger(10, low) || hi.getAsInteger(10, high) ||
            low < 1 || low > high || high > NNAPI_MODEL_MAX_DYNAMIC_DIM ||
            (p.contains('~') && (usual.getAsInteger(10, t) || t < low ||
                                 t > high))) {
          error = "--input-shape '" + spec.str() + "': '" + p.str() +
                  "' is not a range [LOW..HIGH] or [LOW..HIGH~TYPICAL] with "
                  "1 <= LOW <= TYPICAL <= HIGH <= 2^31-1";
          return false;
        }
        shape.push_back(-1);
        ranges.insert(ranges.end(), {low, high});
        typical.push_back(t);
        ranged = true;
        typed |= t != 0;
        continue;
      }
      if (p.getAsInteger(10, d) || d < 0 || d > NNAPI_MODEL_MAX_DYNAMIC_DIM) {
        error = "--input-shape '" + spec.str() + "': '" + p.str() +
                "' is not a dimension (an integer in [0, 2^31-1], ? or "
                "[LOW..HIGH])";
        return false;
      }
      shape.push_back(d);
    }
  }
  if (!options.inputShapes.emplace(name.str(), shape).second) {
    error = "--input-shape gives input '" + name.str() + "' twice";
    return false;
  }
  // Only declared ranges are recorded ("?" alone stays "?").
  if (ranged)
    options.inputDimRanges[name.str()] = ranges;
  else if (!ranges.empty())
    options.inputDimRanges[name.str()] = {};
  if (typed)
    options.inputDimTypical[name.str()] = typical;
  return true;
}

/// The typical sizes of LoadOptions::inputDimTypical on the entry arguments
/// the importer named after those inputs (nnapi.dim_typical; the importer
/// has checked the names and the dialect verifies the sizes).
static OwningOpRef<ModuleOp> withTypicalSizes(OwningOpRef<ModuleOp> module,
                                              const LoadOptions &options) {
  if (options.inputDimTypical.empty())
    return module;
  module->walk([&](FunctionOpInterface func) {
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      auto name =
          func.getArgAttrOfType<StringAttr>(i, NNAPIDialect::kNameAttrName);
      auto sizes =
          name ? options.inputDimTypical.find(name.str())
               : options.inputDimTypical.end();
      if (sizes != options.inputDimTypical.end())
        func.setArgAttr(i, NNAPIDialect::kDimTypicalAttrName,
                        DenseI64ArrayAttr::get(module->getContext(),
                                               sizes->second));
    }
  });
  return module;
}


#ifdef NNAPI_MLIR_HAVE_ONNX
static ONNXImportOptions importOptionsOf(const LoadOptions &options) {
  ONNXImportOptions importOptions;
  importOptions.inputShapes = options.inputShapes;
  importOptions.inputDimRanges = options.inputDimRanges;
  importOptions.inputValues = options.inputValues;
  importOptions.specializeValues = options.specializeValues;
  importOptions.exposeValues = options.exposeValues;
  importOptions.float64 = options.float64;
  return importOptions;
}
#endif

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

/// ONNX files are protobuf: they start with a field tag, never with MLIR's
/// bytecode magic or text.
static bool looksLikeONNX(llvm::StringRef bytes) {
  if (bytes.starts_with("ML\xefR"))
    return false;
  // ModelProto's first field is normally ir_version (field 1, varint: 0x08);
  // MLIR text starts with a letter, '#', '!', '/', '"' or white space.
  unsigned char c = bytes.empty() ? 0 : bytes.front();
  return c < 0x20 && c != '\n' && c != '\r' && c != '\t';
}

/// TFLite's flatbuffers carry "TFL3" after their root offset (whose first
/// byte would otherwise look like protobuf's).
static bool looksLikeTFLiteFile(llvm::StringRef bytes) {
  return bytes.size() >= 8 && bytes.substr(4, 4) == "TFL3";
}

/// Reads a TFLite model: ONNX's value options do not apply; shapes set
/// unknown dimensions.
static llvm::Expected<OwningOpRef<ModuleOp>>
loadTFLite(llvm::StringRef bytes, llvm::StringRef name, MLIRContext *context,
           const LoadOptions &options) {
#ifdef NNAPI_MLIR_HAVE_TFLITE
  if (options.float64)
    return makeError("--float64 applies to ONNX models");
  if (!options.inputValues.empty() || !options.specializeValues.empty() ||
      !options.exposeValues.empty())
    return makeError("--input-value, --specialize-value and --expose-values "
                     "apply to ONNX models; a TFLite model takes "
                     "--input-shape for its unknown dimensions");
  TFLiteImportOptions importOptions;
  importOptions.inputShapes = options.inputShapes;
  importOptions.inputDimRanges = options.inputDimRanges;
  importOptions.signature = options.signature;
  OwningOpRef<ModuleOp> module =
      importTFLite(bytes, name, context, importOptions);
  if (!module)
    return makeError("cannot import '" + name + "'");
  return withTypicalSizes(std::move(module), options);
#else
  (void)bytes;
  (void)context;
  (void)options;
  return makeError("this nnapi-mlir was built without TFLite support "
                   "(flatbuffers), so it cannot read '" + name + "'");
#endif
}

llvm::Expected<OwningOpRef<ModuleOp>>
mlir::nnapi::loadModel(llvm::StringRef bytes, llvm::StringRef name,
                       MLIRContext *context, const LoadOptions &options) {
  ModelFormat format = options.format;
  if (format == ModelFormat::Auto)
    format = name.ends_with(".tflite") || looksLikeTFLiteFile(bytes)
                 ? ModelFormat::TFLite
             : name.ends_with(".onnx") || looksLikeONNX(bytes)
                 ? ModelFormat::ONNX
                 : ModelFormat::MLIR;
  if (format == ModelFormat::TFLite)
    return loadTFLite(bytes, name, context, options);
  if (!options.signature.empty())
    return signatureError(name, format);
  if (format == ModelFormat::ONNX) {
#ifdef NNAPI_MLIR_HAVE_ONNX
    OwningOpRef<ModuleOp> module =
        importONNX(bytes, name, context, importOptionsOf(options));
    if (!module)
      return makeError("cannot import '" + name + "'");
    return withTypicalSizes(std::move(module), options);
#else
    return makeError("this nnapi-mlir was built without ONNX support");
#endif
  }
  if (hasONNXOnlyOptions(options))
    return onnxOnlyOptionsError(options);
  // Parse errors go to the context's handlers, as every other diagnostic.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(bytes, name), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, context);
  if (!module)
    return makeError("cannot parse '" + name + "'");
  return std::move(module);
}

llvm::Expected<OwningOpRef<ModuleOp>>
mlir::nnapi::loadModelFile(llvm::StringRef path, MLIRContext *context,
                           const LoadOptions &options) {
#ifdef NNAPI_MLIR_HAVE_ONNX
  // The importer reads files itself (and says which file it could not).
  if (options.format == ModelFormat::ONNX ||
      (options.format == ModelFormat::Auto && path.ends_with(".onnx"))) {
    if (!options.signature.empty())
      return signatureError(path, ModelFormat::ONNX);
    OwningOpRef<ModuleOp> module =
        importONNXFile(path, context, importOptionsOf(options));
    if (!module)
      return makeError("cannot import '" + path + "'");
    return withTypicalSizes(std::move(module), options);
  }
#endif
  if (options.format == ModelFormat::MLIR ||
      (options.format == ModelFormat::Auto &&
       (path.ends_with(".mlir") || path.ends_with(".mlirbc"))))
    if (hasONNXOnlyOptions(options))
      return onnxOnlyOptionsError(options);
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path);
  if (!buffer)
    return makeError("cannot read '" + path +
                     "': " + buffer.getError().message());
  return loadModel((*buffer)->getBuffer(), path, context, options);
}

//===----------------------------------------------------------------------===//
// Summary
//===----------------------------------------------------------------------===//

/// Counts `func`'s ops by name, leaving out constants, the terminator and
/// (for host functions) the calls to partitions. A composite counts as the
/// TOSA ops of its body.
static unsigned countOps(func::FuncOp func, bool skipCalls,
                         std::map<std::string, unsigned> &counts) {
  unsigned total = 0;
  func.walk([&](Operation *op) {
    if (op == func.getOperation() ||
        isa<func::ReturnOp, CompositeOp, YieldOp>(op) ||
        op->hasTrait<OpTrait::ConstantLike>() ||
        (skipCalls && isa<func::CallOp>(op)))
      return;
    ++counts[op->getName().getStringRef().str()];
    ++total;
  });
  return total;
}

static void summarizePartitions(ModuleOp module, CompileSummary &summary) {
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    if (!func->hasAttr(NNAPIDialect::kPartitionAttrName)) {
      CompileSummary::HostFunction host;
      host.name = func.getSymName().str();
      host.numOps = countOps(func, true, host.ops);
      summary.hostFunctions.push_back(std::move(host));
      continue;
    }
    CompileSummary::Partition p;
    p.name = func.getSymName().str();
    p.numOps = countOps(func, false, p.ops);
    p.numInputs = func.getNumArguments();
    p.numOutputs = func.getNumResults();
    if (auto ref =
            func->getAttrOfType<FlatSymbolRefAttr>(NNAPIDialect::kBlobAttrName))
      if (auto global = module.lookupSymbol<memref::GlobalOp>(ref);
          global && global.getInitialValue() &&
          isa<DenseElementsAttr>(*global.getInitialValue())) {
        // (A blob that is not dense bytes is the host pipeline's to report.)
        ArrayRef<char> raw =
            cast<DenseElementsAttr>(*global.getInitialValue()).getRawData();
        p.blobBytes = raw.size();
        nnapi_mlir::blob::Model model;
        std::string error;
        if (nnapi_mlir::blob::read(
                reinterpret_cast<const uint8_t *>(raw.data()), raw.size(),
                model, error)) {
          p.featureLevel = model.featureLevel;
          for (const nnapi_mlir::blob::Operation &op : model.operations)
            if (const char *name = nnapi_mlir::operationName(op.opcode))
              ++p.nnapiOperations[name];
          for (const nnapi_mlir::blob::Operand &o : model.operands)
            if (nnapi_mlir::blob::isTensorType(o.type))
              ++p.tensorTypes[nnapi_mlir::blob::operandTypeName(o.type)];
        }
      }
    summary.partitions.push_back(std::move(p));
  }
}

static void summarizeBuffers(ModuleOp module, CompileSummary &summary) {
  for (Operation &op : module.getBody()->getOperations()) {
    auto a = op.getAttrOfType<IntegerAttr>(NNAPIDialect::kArenaBytesAttrName);
    auto u =
        op.getAttrOfType<IntegerAttr>(NNAPIDialect::kUnplannedBytesAttrName);
    auto name = op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
    if (!a || !u || !name)
      continue;
    summary.hostBuffers[name.str()] = {a.getInt(), u.getInt()};
    summary.arenaBytes += a.getInt();
    summary.unplannedBytes += u.getInt();
  }
}

/// "A x1, B x2".
static std::string listCounts(const std::map<std::string, unsigned> &counts) {
  std::string s;
  for (auto &[name, n] : counts)
    s += (s.empty() ? "" : ", ") + name + " x" + std::to_string(n);
  return s;
}

static std::string opCounts(unsigned total,
                            const std::map<std::string, unsigned> &counts) {
  std::string s = std::to_string(total) + " ops";
  if (counts.empty())
    return s;
  return s + " (" + listCounts(counts) + ")";
}

void mlir::nnapi::printPartitionSummary(const CompileSummary &summary,
                                        llvm::raw_ostream &os) {
  os << "partition summary (target feature level " << summary.targetFeatureLevel
     << ")\n";
  for (const CompileSummary::Partition &p : summary.partitions) {
    os << "  nnapi @" << p.name << ": " << opCounts(p.numOps, p.ops) << ", "
       << p.numInputs << " inputs, " << p.numOutputs << " outputs";
    if (p.featureLevel)
      os << ", blob " << p.blobBytes << " bytes, needs feature level "
         << p.featureLevel;
    os << "\n";
    if (!p.nnapiOperations.empty())
      os << "    NNAPI operations: " << listCounts(p.nnapiOperations)
         << "; tensors: " << listCounts(p.tensorTypes) << "\n";
  }
  for (const CompileSummary::HostFunction &h : summary.hostFunctions)
    os << "  host @" << h.name << ": " << opCounts(h.numOps, h.ops) << "\n";
  os << "  " << summary.partitions.size() << " partition(s)\n";
  // The partitioner's own estimate (partitions' calls and copies included),
  // so a user can set it beside a measurement (nnapi-run --bench).
  for (const ReportFunction &f : summary.report.functions)
    os << "  estimated latency @" << f.name << ": "
       << llvm::format("%.1f", f.chosenUs) << " us as placed, "
       << llvm::format("%.1f", f.allHostUs) << " us all on host (profile "
       << summary.report.profileName << ")\n";
}

void mlir::nnapi::printBufferSummary(const CompileSummary &summary,
                                     llvm::raw_ostream &os) {
  for (auto &[name, bytes] : summary.hostBuffers)
    os << "  host buffers @" << name << ": " << bytes.first
       << " bytes in one arena (" << bytes.second << " without reuse)\n";
  os << "  host buffers in all: " << summary.arenaBytes << " bytes ("
     << summary.unplannedBytes << " without reuse)\n";
  if (summary.codeParts)
    os << "  host code: " << summary.codeParts << " part(s)\n";
}

//===----------------------------------------------------------------------===//
// Compiling
//===----------------------------------------------------------------------===//

namespace {
/// A stage's timer, when timing is on.
struct StageTimer {
  std::optional<TimingScope> scope;
  StageTimer(TimingScope *parent, llvm::StringRef name) {
    if (parent)
      scope.emplace(parent->nest(name));
  }
};

/// Where the bytes go: the output file (opened first, so that an unwritable
/// path fails before any work), or a temporary one for `buffer`.
struct OutputFile {
  std::string path;
  bool temporary = false;
  ~OutputFile() {
    if (temporary && !path.empty())
      llvm::sys::fs::remove(path);
  }
};
} // namespace

static llvm::Error runPipeline(ModuleOp module, const CompileOutput &output,
                               llvm::StringRef stage,
                               llvm::function_ref<void(PassManager &)> build,
                               llvm::StringRef failure) {
  StageTimer timer(output.timing,
                   stage == "partition" ? "partitioning" : "host pipeline");
  PassManager pm(module.getContext());
  pm.enableVerifier(output.verifyEachPass);
  if (output.configurePassManager &&
      failed(output.configurePassManager(pm, stage)))
    return makeError("invalid pass manager options");
  if (timer.scope)
    pm.enableTiming(*timer.scope);
  build(pm);
  if (failed(pm.run(module)))
    return makeError(failure);
  // Once per stage: what the next stage (or the translation) reads is valid.
  if (!output.verifyEachPass && failed(verify(module)))
    return makeError(failure + " (the " + stage +
                     " stage produced invalid IR; --verify-each names the "
                     "pass)");
  return llvm::Error::success();
}

/// compileModule, or emitPartitionedModule when `partitioned`.
static llvm::Error compile(ModuleOp module, const CompilePipelineOptions &given,
                           const CompileOutput &output, CompileSummary *summary,
                           bool partitioned) {
  if (output.llvmOptLevel > 3)
    return makeError("--llvm-opt-level must be 0..3, got " +
                     llvm::Twine(output.llvmOptLevel));
  if (given.featureLevel < 1 || given.featureLevel > kMaxFeatureLevel)
    return makeError("--feature-level must be 1.." +
                     llvm::Twine(kMaxFeatureLevel) + ", got " +
                     llvm::Twine(given.featureLevel.getValue()));
  if (output.path.empty() && !output.buffer)
    return makeError("no output: give a path or a buffer");
  if (!output.runpath.empty() && output.emit != EmitKind::SharedLibrary)
    return makeError("--runpath (runpath) applies to shared libraries "
                     "(--emit=so) only");
  bool text = output.emit == EmitKind::LLVMIR || output.emit == EmitKind::MLIR;

  // The stream the last stage writes: the output file itself, its ".o"
  // before linking, or a temporary file.
  OutputFile finalFile, streamFile;
  // The library's other parts (Backend.h), linked after the first.
  std::deque<OutputFile> partFiles;
  // The weights, when written as an object of their own (ConstantData.h).
  OutputFile dataFile;
  auto objectPaths = [&] {
    std::vector<std::string> paths = {streamFile.path};
    for (const OutputFile &file : partFiles)
      paths.push_back(file.path);
    if (!dataFile.path.empty())
      paths.push_back(dataFile.path);
    return paths;
  };
  if (output.path.empty()) {
    llvm::SmallString<128> tmp;
    const char *suffix = output.emit == EmitKind::SharedLibrary ? "so" : "out";
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("nnapi-model", suffix, tmp))
      return makeError("cannot create a temporary file: " + ec.message());
    finalFile.path = tmp.str().str();
    finalFile.temporary = true;
  } else {
    finalFile.path = output.path;
  }
  streamFile.path = finalFile.path;
  if (output.emit == EmitKind::SharedLibrary) {
    streamFile.path = finalFile.path + ".o";
    streamFile.temporary = true;
  }
  std::error_code ec;
  auto out = std::make_unique<llvm::ToolOutputFile>(
      streamFile.path, ec,
      text ? llvm::sys::fs::OF_Text : llvm::sys::fs::OF_None);
  if (ec)
    return makeError("cannot open output file '" + streamFile.path +
                     "': " + ec.message());

  // The target first: the host code generation sizes its tiles by it.
  llvm::Expected<HostTarget> target =
      createHostTarget(output.triple, output.cpu, output.features);
  if (!target)
    return target.takeError();
  CompilePipelineOptions options;
  options.copyOptionValuesFrom(given);
  options.vectorBits = target->vectorBits;
  options.vectorRegisters = target->vectorRegisters;
  options.int8Dot = target->int8Dot;

  CompileSummary local;
  CompileSummary &s = summary ? *summary : local;
  s = CompileSummary();
  s.targetFeatureLevel = options.featureLevel;
  if (partitioned && !module->hasAttr(NNAPIDialect::kSignatureAttrName))
    return makeError("the module has not been through "
                     "buildNNAPIPartitionPipeline (it has no exported "
                     "signature); use compileModule");
  if (!partitioned)
    if (llvm::Error err = runPipeline(
            module, output, "partition",
            [&](PassManager &pm) {
              buildNNAPIPartitionPipeline(pm, options, &s.report);
            },
            "partitioning failed"))
      return err;
  summarizePartitions(module, s);
  auto finish = [&]() -> llvm::Error {
    out->os().flush();
    out->keep();
    out.reset();
    if (output.emit == EmitKind::SharedLibrary) {
      StageTimer timer(output.timing, "linking");
      if (llvm::Error err = linkModelLibrary(*target->machine, objectPaths(),
                                             finalFile.path, output.runpath))
        return err;
    }
    if (!output.buffer)
      return llvm::Error::success();
    auto bytes = llvm::MemoryBuffer::getFile(finalFile.path, false, false);
    if (!bytes)
      return makeError("cannot read back '" + finalFile.path +
                       "': " + bytes.getError().message());
    *output.buffer = (*bytes)->getBuffer().str();
    return llvm::Error::success();
  };
  if (output.emit == EmitKind::MLIR) {
    module.print(out->os());
    return finish();
  }

  if (llvm::Error err = runPipeline(
          module, output, "host",
          [&](PassManager &pm) { buildNNAPIHostPipeline(pm, options); },
          "lowering to LLVM failed"))
    return err;
  summarizeBuffers(module, s);

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule;
  {
    StageTimer timer(output.timing, "translation to LLVM IR");
    // A library's weights go from the MLIR attributes to an object file of
    // their own; anything else gets them as LLVM byte arrays.
    llvm::Triple triple(target->triple);
    if (output.emit == EmitKind::SharedLibrary &&
        canWriteDataObject(triple)) {
      dataFile.path = streamFile.path + ".data.o";
      dataFile.temporary = true;
      if (llvm::Error err =
              writeDataObject(triple, detachWeights(module), dataFile.path))
        return err;
    } else {
      weightsAsBytes(module,
                     target->machine->createDataLayout().isLittleEndian());
    }
    llvmModule = translateModuleToLLVMIR(module, llvmContext, "nnapi_model");
    if (!llvmModule)
      return makeError("translation to LLVM IR failed");
    // Nothing reads the MLIR from here on: its memory goes before LLVM's
    // optimizer and code generation take theirs.
    module.getBody()->clear();
  }
  llvm::TargetMachine *machine = target->machine.get();
  llvmModule->setDataLayout(machine->createDataLayout());
  llvmModule->setTargetTriple(target->triple);
  // Every function for the chosen CPU (the target machine's defaults apply
  // to functions without these attributes, but tools reading the IR should
  // see them).
  for (llvm::Function &f : *llvmModule)
    if (!f.isDeclaration()) {
      f.addFnAttr("target-cpu", target->cpu);
      if (!target->features.empty())
        f.addFnAttr("target-features", target->features);
      // The backend instruments what carries the attribute (Backend.cpp).
      if (output.threadSanitizer)
        f.addFnAttr(llvm::Attribute::SanitizeThread);
    }
  flattenConstantData(*llvmModule);
  if (output.emit == EmitKind::LLVMIR) {
    {
      StageTimer timer(output.timing,
                       "LLVM -O" + std::to_string(output.llvmOptLevel));
      optimizeModule(*llvmModule, *machine, output.llvmOptLevel);
    }
    llvmModule->print(out->os(), nullptr);
    return finish();
  }
  // An object file is one object; a library links as many as the module's
  // size asks for (never as many as there are threads: the bytes must not
  // depend on the machine), each written to its file as it is made.
  if (output.emit == EmitKind::SharedLibrary) {
    s.codeParts = countParts(*llvmModule);
    std::vector<std::unique_ptr<llvm::raw_fd_ostream>> partStreams;
    std::vector<llvm::raw_pwrite_stream *> objects = {&out->os()};
    for (unsigned p = 1; p <= s.codeParts; ++p) {
      OutputFile &file = partFiles.emplace_back();
      file.path = streamFile.path + "." + std::to_string(p) + ".o";
      file.temporary = true;
      std::error_code ec;
      objects.push_back(partStreams
                            .emplace_back(std::make_unique<llvm::raw_fd_ostream>(
                                file.path, ec, llvm::sys::fs::OF_None))
                            .get());
      if (ec)
        return makeError("cannot write '" + file.path + "': " + ec.message());
    }
    MLIRContext *ctx = module.getContext();
    if (llvm::Error err = compileToObjects(
            std::move(llvmModule), *target, output.llvmOptLevel, objects,
            output.threads,
            ctx->isMultithreadingEnabled() ? &ctx->getThreadPool() : nullptr,
            output.timing))
      return makeError("LLVM code generation failed: " +
                       toString(std::move(err)));
    for (auto [stream, file] : llvm::zip(partStreams, partFiles)) {
      stream->close();
      if (std::error_code ec = stream->error()) {
        stream->clear_error();
        return makeError("cannot write '" + file.path + "': " + ec.message());
      }
    }
  } else if (llvm::Error err =
                 compileToObject(*llvmModule, *target, output.llvmOptLevel,
                                 out->os(), output.timing)) {
    return makeError("LLVM code generation failed: " +
                     toString(std::move(err)));
  }
  return finish();
}

llvm::Error mlir::nnapi::compileModule(ModuleOp module,
                                       const CompilePipelineOptions &options,
                                       const CompileOutput &output,
                                       CompileSummary *summary) {
  return compile(module, options, output, summary, /*partitioned=*/false);
}

llvm::Error mlir::nnapi::emitPartitionedModule(
    ModuleOp module, const CompilePipelineOptions &options,
    const CompileOutput &output, CompileSummary *summary) {
  return compile(module, options, output, summary, /*partitioned=*/true);
}
