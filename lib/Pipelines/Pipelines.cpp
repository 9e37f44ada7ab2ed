//===- Pipelines.cpp - Pass pipelines of nnapi-mlir -----------------------===//

#include "nnapi-mlir/Pipelines/Pipelines.h"
#include "nnapi-mlir/Codegen/Passes.h"
#include "nnapi-mlir/Conversion/Passes.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/Dialect/NNAPI/Transforms/Passes.h"
#include "nnapi-mlir/Transforms/Passes.h"
#include "nnapi-mlir/Partition/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToSCF/TosaToSCF.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::nnapi;

namespace {

/// Whether a function's returned buffers become out-parameters: all but
/// a dynamic partition's (keepsReturnedBuffers).
bool resultsBecomeOutParams(func::FuncOp *func) {
  return !keepsReturnedBuffers(*func);
}

/// Row-major strides of `type`, if they are static.
std::optional<SmallVector<int64_t>> staticStrides(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(getStridesAndOffset(type, strides, offset)) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  return strides;
}

/// `a` and `b` are the same view: one value, or equal subviews of one.
bool isSameView(Value a, Value b) {
  if (a == b)
    return true;
  auto sa = a.getDefiningOp<memref::SubViewOp>();
  auto sb = b.getDefiningOp<memref::SubViewOp>();
  return sa && sb && sa.getType() == sb.getType() &&
         isSameView(sa.getSource(), sb.getSource()) &&
         sa.getMixedOffsets() == sb.getMixedOffsets() &&
         sa.getMixedSizes() == sb.getMixedSizes() &&
         sa.getMixedStrides() == sb.getMixedStrides();
}

/// Copies `from` into `to` (same static shape). Contiguous copies are one
/// memref.copy (a memcpy); a copy between views whose trailing dimensions
/// are contiguous in both is a loop nest over the leading dimensions around
/// a memcpy of each contiguous block; anything else is a linalg.copy (scalar
/// loops). Bufferization asks for these copies (inserting a tensor into a
/// padded buffer, returning a view), and element-wise loops over strided
/// views are what LLVM vectorizes worst.
void createBufferCopy(OpBuilder &b, Location loc, Value from, Value to) {
  // A producer that wrote into its consumer's buffer (a padded input's
  // interior) leaves bufferization a copy of the view onto itself.
  if (isSameView(from, to))
    return;
  auto fromType = dyn_cast<MemRefType>(from.getType());
  auto toType = dyn_cast<MemRefType>(to.getType());
  std::optional<SmallVector<int64_t>> fs, ts;
  if (fromType && toType && fromType.hasStaticShape()) {
    fs = staticStrides(fromType);
    ts = staticStrides(toType);
  }
  if (!fs || !ts) {
    b.create<linalg::CopyOp>(loc, from, to);
    return;
  }
  ArrayRef<int64_t> shape = fromType.getShape();
  int64_t rank = shape.size();
  // Trailing dimensions that are packed row-major in both.
  int64_t contiguous = 0, expected = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    if ((*fs)[d] != expected || (*ts)[d] != expected)
      break;
    expected *= shape[d];
    ++contiguous;
  }
  if (contiguous == rank) {
    b.create<memref::CopyOp>(loc, from, to);
    return;
  }
  if (contiguous == 0) {
    b.create<linalg::CopyOp>(loc, from, to);
    return;
  }
  int64_t outer = rank - contiguous;
  SmallVector<Value> ivs;
  OpBuilder::InsertionGuard guard(b);
  for (int64_t d = 0; d < outer; ++d) {
    Value lb = b.create<arith::ConstantIndexOp>(loc, 0);
    Value ub = b.create<arith::ConstantIndexOp>(loc, shape[d]);
    Value one = b.create<arith::ConstantIndexOp>(loc, 1);
    auto loop = b.create<scf::ForOp>(loc, lb, ub, one);
    // Blocks are disjoint: the copy runs on the thread pool like the
    // loops of the ops around it (so each thread copies what it produced,
    // and what it will consume, instead of one thread copying it all).
    int64_t elements = 1;
    for (int64_t size : shape.drop_front(d + 1))
      elements *= size;
    loop->setAttr(NNAPIDialect::kParallelAttrName,
                  b.getI64IntegerAttr(std::max<int64_t>(1, elements)));
    ivs.push_back(loop.getInductionVar());
    b.setInsertionPoint(loop.getBody()->getTerminator());
  }
  SmallVector<OpFoldResult> offsets(ivs.begin(), ivs.end()),
      sizes(outer, b.getIndexAttr(1)), strides(rank, b.getIndexAttr(1));
  for (int64_t d = outer; d < rank; ++d) {
    offsets.push_back(b.getIndexAttr(0));
    sizes.push_back(b.getIndexAttr(shape[d]));
  }
  ArrayRef<int64_t> blockShape = shape.drop_front(outer);
  auto view = [&](Value v, MemRefType type) -> Value {
    auto reduced = cast<MemRefType>(memref::SubViewOp::inferRankReducedResultType(
        blockShape, type, offsets, sizes, strides));
    return b.create<memref::SubViewOp>(loc, reduced, v, offsets, sizes,
                                       strides);
  };
  b.create<memref::CopyOp>(loc, view(from, fromType), view(to, toType));
}

} // namespace

void mlir::nnapi::buildNNAPIPartitionPipeline(
    OpPassManager &pm, const CompilePipelineOptions &options, Report *report) {
  // Before any pass folds (MLIR 19's select folder mistypes broadcasts).
  pm.addPass(createNNAPIMaterializeSelectOperands());
  // Typical shapes of a dynamic model get static copies of the entry, placed
  // and compiled like models of their own.
  if (!options.shapeBuckets.empty()) {
    NNAPISpecializeShapesOptions specialize;
    specialize.entry = options.entry;
    specialize.shapeBuckets = options.shapeBuckets;
    pm.addPass(createNNAPISpecializeShapes(specialize));
  }
  // Quantized TOSA (tosa.rescale and !quant.uniform types from other
  // producers) computes on its storage integers; its convolutions first
  // become quantized composites while the types still hold the parameters.
  if (!options.hostOnly)
    pm.addPass(createNNAPIRaiseQuantizedTosa());
  pm.addPass(createNNAPIStripQuantTypes());
  // Imported NCHW models carry layout transposes around every NHWC op.
  pm.addPass(createNNAPIPropagateTransposes());
  if (options.channelsLastIO)
    pm.addNestedPass<func::FuncOp>(createNNAPIChannelsLastIO());
  // QDQ groups become quantized composites while their int8 weights are
  // still there (before the dequantizations of constants fold); host-only
  // too, where the host code of their convolutions computes on integers.
  pm.addPass(createNNAPIRaiseQuantized());
  // Slices and transposes of constants (a grouped convolution's weights)
  // become constants; imported batch norms fold into the convolutions
  // before them.
  pm.addPass(createNNAPIFoldConstants());
  pm.addPass(createNNAPIFoldScaleShift());
  if (!options.hostOnly) {
    // Last before placement: chains that mean one NNAPI operation become one
    // op (the host pipeline inlines what stays on the host).
    pm.addPass(createNNAPIRaiseComposites());
    // Again, for the QDQ groups around the composites just raised (softmax,
    // hard swish); the groups raised before are composites now.
    pm.addPass(createNNAPIRaiseQuantized());
    NNAPIPartitionOptions partition;
#define NNAPI_OPTION(TYPE, FIELD, FLAG, DEFAULT, DESC)                         \
  partition.FIELD = options.FIELD;
#define NNAPI_LIST_OPTION(TYPE, FIELD, FLAG, DESC)                             \
  partition.FIELD = options.FIELD;
#include "nnapi-mlir/Partition/PartitionOptions.inc"
    pm.addPass(createNNAPIPartition(partition, report));
  }
  // The signature is taken from the tensor-typed entry, before bufferization.
  NNAPIExportSignatureOptions signature;
  signature.entry = options.entry;
  signature.shapeBuckets = options.shapeBuckets;
  pm.addPass(createNNAPIExportSignature(signature));
  if (!options.hostOnly)
    pm.addPass(createNNAPISerializePartitions());
}

void mlir::nnapi::buildNNAPIHostPipeline(OpPassManager &pm,
                                         const CompilePipelineOptions &options) {
  // Composites left on the host, and in the host copies of partitions, are
  // their TOSA bodies again.
  pm.addPass(createNNAPIInlineComposites());
  // TOSA -> linalg/arith/tensor, in the order tosa-to-linalg-pipeline uses,
  // without its validation step (profiles are not our concern here).
  // transpose_conv2d (and friends) have no direct linalg lowering.
  pm.addNestedPass<func::FuncOp>(tosa::createTosaOptionalDecompositions());
  // Their 1x1 convolutions as fully connected layers where the feature map's
  // size is dynamic, as those do for static ones.
  pm.addNestedPass<func::FuncOp>(createNNAPIPointwiseConvAsMatmul());
  // Run-time control flow: tosa.cond_if and tosa.while_loop become scf.if
  // and scf.while around the TOSA ops of their regions, which the passes
  // below lower where they stand.
  pm.addPass(tosa::createTosaToSCF());
  // Those loops stop at the runtime's loop timeout, as NNAPI's WHILE does.
  pm.addPass(createNNAPIBoundLoops());
  pm.addNestedPass<func::FuncOp>(tosa::createTosaToLinalgNamed());
  pm.addNestedPass<func::FuncOp>(tosa::createTosaToLinalg());
  // tosa-to-linalg leaves tosa.rescale's tosa.apply_scale (64-bit
  // arithmetic: exact, and vectorized on x86-64 and AArch64 alike).
  pm.addNestedPass<func::FuncOp>(
      tosa::createTosaToArith(/*includeApplyRescale=*/true));
  pm.addNestedPass<func::FuncOp>(tosa::createTosaToTensor());
  // The importer's arith ops on tensors (unsigned boundary casts, float ->
  // int64 conversions).
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  pm.addPass(createCanonicalizerPass());
  // Dynamic dimensions: the function that computes the outputs' shapes,
  // while the shapes are still ops on tensors to reify.
  NNAPIOutputDimsOptions outputDims;
  outputDims.entry = options.entry;
  pm.addPass(createNNAPIOutputDims(outputDims));

  // Code generation on tensors: filters re-laid out at compile time, ops
  // tiled for registers with their initializers and element-wise consumers
  // fused into the tiles, and vectorized (nnapi-codegen's description).
  if (options.hostCodegen) {
    NNAPICodegenPrepareOptions prepare;
    prepare.vectorBits = options.vectorBits;
    prepare.int8Dot = options.int8Dot;
    pm.addNestedPass<func::FuncOp>(createNNAPICodegenPrepare(prepare));
    NNAPICodegenOptions codegen;
    codegen.vectorBits = options.vectorBits;
    codegen.vectorRegisters = options.vectorRegisters;
    codegen.int8Dot = options.int8Dot;
    codegen.emitRemarks = options.emitRemarks;
    pm.addNestedPass<func::FuncOp>(createNNAPICodegen(codegen));
  }
  // After code generation, whose folding would remove these copies again.
  pm.addPass(createNNAPICopyAliasedResults());

  // Bufferize across calls with identity layouts, then turn returned buffers
  // into caller-allocated out-parameters: that is the shape both the runtime
  // dispatch and the C entry point need. Copies are memcpys where the data is
  // contiguous and loops elsewhere (createBufferCopy): the default
  // memref.copy of strided views needs MLIR's C runner library.
  auto bufferCopy = [](OpBuilder &b, Location loc, Value from,
                       Value to) -> LogicalResult {
    createBufferCopy(b, loc, from, to);
    return success();
  };
  bufferization::OneShotBufferizationOptions bufferize;
  bufferize.memCpyFn = bufferCopy;
  bufferize.bufferizeFunctionBoundaries = true;
  // scf.while (run-time loops) yields new buffers each iteration.
  bufferize.allowReturnAllocsFromLoops = true;
  bufferize.setFunctionBoundaryTypeConversion(
      bufferization::LayoutMapOption::IdentityLayoutMap);
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // Loops that carry a buffer through iter_args return it unchanged: fold
  // that, so the returned value is the allocation itself.
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createNNAPIReturnFreshBuffers());
  bufferization::BufferResultsToOutParamsOpts outParams;
  outParams.hoistStaticAllocs = true;
  outParams.filterFn = resultsBecomeOutParams;
  outParams.memCpyFn = bufferCopy;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  // Loops of output tiles become functions the runtime's pool runs in
  // chunks (before buffer planning, which then plans their buffers too).
  if (options.hostCodegen)
    pm.addPass(createNNAPIOutlineParallelLoops());
  // One arena per function for the buffers that remain, before deallocation
  // is decided (so that only the arena is freed).
  pm.addNestedPass<func::FuncOp>(createNNAPIPlanBuffers());
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);
  pm.addPass(createNNAPIInlineDeallocHelper());

  // Partition calls dispatch to the runtime, falling back to the host copy.
  pm.addPass(createNNAPILowerPartitionCalls());
  // Dynamically shaped entry buffers as pointers and sizes.
  NNAPIDynamicEntryOptions dynamicEntry;
  dynamicEntry.entry = options.entry;
  pm.addPass(createNNAPIDynamicEntry(dynamicEntry));
  // Large functions cut into layers, and each distinct function kept once
  // (repeated layers, their parallel loops): what LLVM gets is many small
  // functions, fewer of them than the model has layers.
  pm.addPass(createNNAPIOutlineLayers());
  pm.addPass(createNNAPIMergeIdenticalFunctions());

  // Vector ops on buffers down to FMAs and 1-D loads and stores; then
  // loops for whatever linalg is left, and the LLVM dialect.
  if (options.hostCodegen) {
    NNAPILowerVectorsOptions lowerVectors;
    lowerVectors.int8Dot = options.int8Dot;
    pm.addNestedPass<func::FuncOp>(createNNAPILowerVectors(lowerVectors));
  }
  // Function by function where a pass allows it (those run on the
  // context's threads at once); the passes that declare functions (libm's,
  // the allocator's) or convert them on the module.
  OpPassManager &perFunction = pm.nest<func::FuncOp>();
  perFunction.addPass(createConvertVectorToSCFPass());
  perFunction.addPass(createConvertLinalgToLoopsPass());
  perFunction.addPass(memref::createExpandStridedMetadataPass());
  perFunction.addPass(createLowerAffinePass());
  perFunction.addPass(createConvertSCFToCFPass());
  perFunction.addPass(createNNAPIExpandMath());
  perFunction.addPass(arith::createArithExpandOpsPass());
  // Math ops LLVM has intrinsics for first (vector floor and fma stay
  // vector instructions); libm calls for the rest.
  perFunction.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addNestedPass<func::FuncOp>(createConvertVectorToLLVMPass());
  // Buffers come from the runtime's pool (Runtime.h), not straight from
  // malloc: repeated runs reuse their pages.
  FinalizeMemRefToLLVMConversionPassOptions memrefToLLVM;
  memrefToLLVM.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefToLLVM));
  pm.addNestedPass<func::FuncOp>(createArithToLLVMConversionPass());
  ConvertFuncToLLVMPassOptions funcToLLVM;
  funcToLLVM.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(funcToLLVM));
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createNNAPILowerParallelCalls());

  NNAPIEmitEntryPointOptions entry;
  entry.entry = options.entry;
  pm.addPass(createNNAPIEmitEntryPoint(entry));
}

void mlir::nnapi::buildNNAPICompilePipeline(
    OpPassManager &pm, const CompilePipelineOptions &options, Report *report) {
  buildNNAPIPartitionPipeline(pm, options, report);
  buildNNAPIHostPipeline(pm, options);
}

void mlir::nnapi::registerNNAPIPipelines() {
  PassPipelineRegistration<CompilePipelineOptions>(
      "nnapi-partition-pipeline",
      "Partition a TOSA module and serialize its NNAPI partitions",
      [](OpPassManager &pm, const CompilePipelineOptions &options) {
        buildNNAPIPartitionPipeline(pm, options);
      });
  PassPipelineRegistration<CompilePipelineOptions>(
      "nnapi-host-pipeline",
      "Lower partitioned TOSA (with blobs) to the LLVM dialect",
      buildNNAPIHostPipeline);
  PassPipelineRegistration<CompilePipelineOptions>(
      "nnapi-compile-pipeline", "TOSA model to the LLVM dialect, end to end",
      [](OpPassManager &pm, const CompilePipelineOptions &options) {
        buildNNAPICompilePipeline(pm, options);
      });
}
