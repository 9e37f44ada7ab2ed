//===- EmitEntryPoint.cpp - nnapi-emit-entry-point ------------------------===//
//
// The library's C entry points in the LLVM dialect: the model's run
// function over the caller's buffers, its signature and bound inputs as
// globals, and the calls into the runtime.
//
//===----------------------------------------------------------------------===//

#include "DynamicShapes.h"
#include "nnapi-mlir/Conversion/Passes.h"
#include "nnapi-mlir/Conversion/TosaToNNAPI/TosaToNNAPI.h"
#include "nnapi-mlir/Runtime/ModelABI.h"
#include "nnapi-mlir/Runtime/Runtime.h"
#include "nnapi-mlir/Support/Sha256.h"
#include "nnapi-mlir/Target/NNAPIBlob/NNAPIBlob.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPIEMITENTRYPOINT
#include "nnapi-mlir/Conversion/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;
using namespace mlir::nnapi;

namespace {

/// The bytes a caller's buffer holds for `value` (little-endian; one byte
/// per i1).
std::string bufferBytes(DenseElementsAttr value) {
  std::string bytes;
  unsigned width = value.getElementType().getIntOrFloatBitWidth();
  unsigned size = std::max(1u, width / 8);
  auto put = [&](const APInt &bits) {
    APInt wide = bits.zext(8 * size);
    for (unsigned k = 0; k < size; ++k)
      bytes.push_back(char(wide.extractBitsAsZExtValue(8, 8 * k)));
  };
  if (isa<FloatType>(value.getElementType()))
    for (APFloat f : value.getValues<APFloat>())
      put(f.bitcastToAPInt());
  else
    for (APInt v : value.getValues<APInt>())
      put(v);
  return bytes;
}

/// Before the model runs: for each input bound to a value at compile time
/// (nnapi.bound_inputs), compare the caller's buffer with that value and
/// return 1 + the input's index on the first difference. `args` are the
/// loaded input pointers; the builder ends in the block that runs the model.
LogicalResult emitBoundInputChecks(ModuleOp module, LLVM::LLVMFuncOp run,
                                   OpBuilder &builder, ArrayRef<Value> args,
                                   unsigned numInputs) {
  auto bound =
      module->getAttrOfType<DictionaryAttr>(NNAPIDialect::kBoundInputsAttrName);
  if (!bound)
    return success();
  module->removeAttr(NNAPIDialect::kBoundInputsAttrName);
  MLIRContext *ctx = module.getContext();
  Location loc = run.getLoc();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  auto i32 = builder.getI32Type();
  auto i64 = builder.getI64Type();
  auto memcmp = module.lookupSymbol<LLVM::LLVMFuncOp>("memcmp");
  if (!memcmp) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(module.getBody());
    memcmp = builder.create<LLVM::LLVMFuncOp>(
        loc, "memcmp",
        LLVM::LLVMFunctionType::get(i32, {ptrType, ptrType, i64}));
  }
  for (NamedAttribute entry : bound) {
    unsigned index;
    auto value = dyn_cast<DenseElementsAttr>(entry.getValue());
    if (entry.getName().getValue().getAsInteger(10, index) ||
        index >= numInputs || !value)
      return module.emitError() << "'" << NNAPIDialect::kBoundInputsAttrName
                                << "' must map input indices below "
                                << numInputs << " to dense values";
    std::string bytes = bufferBytes(value);
    if (bytes.empty())
      continue;
    LLVM::GlobalOp global;
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToEnd(module.getBody());
      global = builder.create<LLVM::GlobalOp>(
          loc, LLVM::LLVMArrayType::get(builder.getI8Type(), bytes.size()),
          /*isConstant=*/true, LLVM::Linkage::Internal,
          "nnapi_bound_input_" + std::to_string(index),
          builder.getStringAttr(bytes));
    }
    Value expected = builder.create<LLVM::AddressOfOp>(loc, global);
    Value size = builder.create<LLVM::ConstantOp>(loc, i64, bytes.size());
    Value diff = builder
                     .create<LLVM::CallOp>(
                         loc, memcmp, ValueRange{args[index], expected, size})
                     .getResult();
    Value zero = builder.create<LLVM::ConstantOp>(loc, i32, 0);
    Value differs =
        builder.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::ne, diff, zero);
    Block *mismatch = new Block();
    Block *next = new Block();
    run.getBody().push_back(mismatch);
    run.getBody().push_back(next);
    builder.create<LLVM::CondBrOp>(loc, differs, mismatch, next);
    builder.setInsertionPointToStart(mismatch);
    Value code = builder.create<LLVM::ConstantOp>(loc, i32, index + 1);
    builder.create<LLVM::ReturnOp>(loc, code);
    builder.setInsertionPointToStart(next);
  }
  return success();
}

struct EmitEntryPointPass
    : public nnapi::impl::NNAPIEmitEntryPointBase<EmitEntryPointPass> {
  using NNAPIEmitEntryPointBase::NNAPIEmitEntryPointBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    auto signature =
        module->getAttrOfType<StringAttr>(NNAPIDialect::kSignatureAttrName);
    if (!signature) {
      module.emitError("missing nnapi.signature: run nnapi-export-signature "
                       "before lowering to LLVM");
      return signalPassFailure();
    }
    auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(entry);
    if (!func || func.isExternal()) {
      if (auto unlowered = module.lookupSymbol<func::FuncOp>(entry))
        unlowered.emitError()
            << "entry function '@" << entry
            << "' was not lowered to the LLVM dialect: its arguments and "
               "results must be static, non-empty buffers (a zero-size "
               "tensor has no bare-pointer form)";
      else
        module.emitError() << "entry function '@" << entry
                           << "' not found in the LLVM dialect";
      return signalPassFailure();
    }
    unsigned numInputs = 0, numOutputs = 0;
    // Which buffers the entry takes: not those without elements (a "0"
    // among the dimensions; nnapi-export-signature dropped them). Which
    // dimensions are dynamic ("?" or "[low..high]"), per input and output.
    SmallVector<bool> passed;
    SmallVector<SmallVector<unsigned>> dynamicDims;
    for (StringRef line : llvm::split(signature.getValue(), '\n')) {
      bool input = line.starts_with("input "), output = line.starts_with("output ");
      if (!input && !output)
        continue;
      numInputs += input;
      numOutputs += output;
      SmallVector<StringRef> fields;
      line.split(fields, ' ');
      SmallVector<StringRef> dims;
      if (fields.size() > 4 && fields[4] != "scalar")
        fields[4].split(dims, 'x');
      passed.push_back(!llvm::is_contained(dims, "0"));
      SmallVector<unsigned> dynamic;
      for (auto [d, dim] : llvm::enumerate(dims))
        if (dim.starts_with("?") || dim.starts_with("["))
          dynamic.push_back(unsigned(d));
      dynamicDims.push_back(dynamic);
    }
    unsigned numSizes = 0;
    for (const auto &d : dynamicDims)
      numSizes += d.size();
    bool dynamic = numSizes != 0;
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    OpBuilder builder(ctx);
    auto i32 = builder.getI32Type();
    auto i64 = builder.getI64Type();
    LLVM::LLVMFunctionType fnType = func.getFunctionType();
    unsigned numBuffers = unsigned(llvm::count(passed, true));
    if (fnType.getNumParams() != numBuffers + numSizes ||
        !llvm::all_of(fnType.getParams().take_front(numBuffers),
                      [&](Type t) { return t == ptrType; }) ||
        !llvm::all_of(fnType.getParams().drop_front(numBuffers),
                      [&](Type t) { return t == i64; }) ||
        !isa<LLVM::LLVMVoidType>(fnType.getReturnType())) {
      func.emitError("entry function must take one bare pointer per input "
                     "and output, then each dynamic dimension, and return "
                     "nothing (bufferize with results as out-parameters, "
                     "nnapi-dynamic-entry, lower with the bare-pointer "
                     "calling convention)");
      return signalPassFailure();
    }

    builder.setInsertionPointToEnd(module.getBody());
    Location loc = func.getLoc();
    // element `i` of the pointer array `array`, loaded as `type`.
    auto loadAt = [&](Value array, unsigned i, Type type) -> Value {
      Value slot = builder.create<LLVM::GEPOp>(
          loc, ptrType, type, array, ArrayRef<LLVM::GEPArg>{int32_t(i)});
      return builder.create<LLVM::LoadOp>(loc, type, slot);
    };
    // The dynamic dimensions of tensors [first, first + count), each read
    // from the dims array of its tensor: dims[i - first][d].
    auto loadSizes = [&](Value dimsArray, unsigned first, unsigned count,
                         SmallVectorImpl<Value> &sizes) {
      for (unsigned i = 0; i < count; ++i) {
        if (dynamicDims[first + i].empty())
          continue;
        Value dims = loadAt(dimsArray, i, ptrType);
        for (unsigned d : dynamicDims[first + i])
          sizes.push_back(loadAt(dims, d, i64));
      }
    };

    // Static models: int32_t nnapi_model_run(void *const *inputs,
    //                                        void *const *outputs)
    // Dynamic ones:  int32_t nnapi_model_run_dims(
    //     void *const *inputs, const int64_t *const *inputDims,
    //     void *const *outputs, const int64_t *const *outputDims)
    SmallVector<Type> params = {ptrType, ptrType};
    if (dynamic)
      params.append(2, ptrType);
    auto run = builder.create<LLVM::LLVMFuncOp>(
        loc, dynamic ? "nnapi_model_run_dims" : "nnapi_model_run",
        LLVM::LLVMFunctionType::get(i32, params));
    Block *body = run.addEntryBlock(builder);
    builder.setInsertionPointToStart(body);
    Value inputArray = body->getArgument(0);
    Value outputArray = body->getArgument(dynamic ? 2 : 1);
    SmallVector<Value> args;
    for (unsigned i = 0; i < numInputs; ++i)
      args.push_back(loadAt(inputArray, i, ptrType));
    for (unsigned i = 0; i < numOutputs; ++i)
      args.push_back(loadAt(outputArray, i, ptrType));
    if (failed(emitBoundInputChecks(module, run, builder, args, numInputs)))
      return signalPassFailure();
    SmallVector<Value> callArgs;
    for (auto [arg, pass] : llvm::zip(args, passed))
      if (pass)
        callArgs.push_back(arg);
    if (dynamic) {
      loadSizes(body->getArgument(1), 0, numInputs, callArgs);
      loadSizes(body->getArgument(3), numInputs, numOutputs, callArgs);
    }
    // The model: the static copy of the entry for the call's shape
    // (nnapi-specialize-shapes), if there is one, else the entry. A copy is
    // called when the call's sizes are its inputs' and the output buffers
    // the runtime sized (by the dynamic entry's output-shape function) are
    // its outputs': were the two ever to disagree, the dynamic code runs
    // rather than a copy writing past a buffer.
    SmallVector<LLVM::LLVMFuncOp> copies;
    for (auto f : module.getOps<LLVM::LLVMFuncOp>())
      if (f->hasAttr(NNAPIDialect::kStaticShapesAttrName))
        copies.push_back(f);
    Block *join = nullptr;
    auto callModel = [&]() -> LogicalResult {
      ArrayRef<Value> buffers = ArrayRef<Value>(callArgs).take_front(numBuffers);
      for (LLVM::LLVMFuncOp copy : copies) {
        LLVM::LLVMFunctionType copyType = copy.getFunctionType();
        auto shapes =
            copy->getAttrOfType<ArrayAttr>(NNAPIDialect::kStaticShapesAttrName);
        if (copy.isExternal() || copyType.getNumParams() != numBuffers ||
            !isa<LLVM::LLVMVoidType>(copyType.getReturnType()) ||
            shapes.size() != numInputs + numOutputs)
          return copy.emitError()
                 << "a shape's copy of the entry must take one bare pointer "
                    "per input and output, return nothing and have a shape "
                    "for each";
        copy.setLinkage(LLVM::Linkage::Internal);
        Value match;
        unsigned next = numBuffers;
        for (unsigned t = 0; t < numInputs + numOutputs; ++t)
          for (unsigned d : dynamicDims[t]) {
            ArrayRef<int64_t> dims =
                cast<DenseI64ArrayAttr>(shapes[t]).asArrayRef();
            if (d >= dims.size())
              return copy.emitError("its shapes do not match the "
                                    "signature's ranks");
            Value want = builder.create<LLVM::ConstantOp>(loc, i64, dims[d]);
            Value same = builder.create<LLVM::ICmpOp>(
                loc, LLVM::ICmpPredicate::eq, callArgs[next++], want);
            match = match ? builder.create<LLVM::AndOp>(loc, match, same)
                          : same;
          }
        if (!match)
          continue;
        if (!join)
          join = new Block();
        Block *hit = new Block(), *miss = new Block();
        run.getBody().push_back(hit);
        run.getBody().push_back(miss);
        builder.create<LLVM::CondBrOp>(loc, match, hit, miss);
        builder.setInsertionPointToStart(hit);
        builder.create<LLVM::CallOp>(loc, copy, buffers);
        builder.create<LLVM::BrOp>(loc, join);
        builder.setInsertionPointToStart(miss);
      }
      builder.create<LLVM::CallOp>(loc, func, callArgs);
      if (join) {
        builder.create<LLVM::BrOp>(loc, join);
        run.getBody().push_back(join);
        builder.setInsertionPointToStart(join);
      }
      return success();
    };
    // A model with run-time loops (nnapi-bound-loops) returns whether one
    // of them ran past the loop timeout.
    if (module.lookupSymbol<LLVM::LLVMFuncOp>("nnapi_rt_loop_continue")) {
      auto declare = [&](StringRef name, Type result) {
        if (auto f = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
          return f;
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPointToEnd(module.getBody());
        return builder.create<LLVM::LLVMFuncOp>(
            loc, name, LLVM::LLVMFunctionType::get(result, {}));
      };
      LLVM::LLVMFuncOp begin =
          declare("nnapi_rt_run_begin", LLVM::LLVMVoidType::get(ctx));
      LLVM::LLVMFuncOp end = declare("nnapi_rt_run_end", i32);
      builder.create<LLVM::CallOp>(loc, begin, ValueRange{});
      if (failed(callModel()))
        return signalPassFailure();
      Value status =
          builder.create<LLVM::CallOp>(loc, end, ValueRange{}).getResult();
      builder.create<LLVM::ReturnOp>(loc, status);
    } else {
      if (failed(callModel()))
        return signalPassFailure();
      Value zero = builder.create<LLVM::ConstantOp>(loc, i32, 0);
      builder.create<LLVM::ReturnOp>(loc, zero);
    }
    if (dynamic &&
        failed(emitOutputDims(module, builder, numInputs, numOutputs,
                              dynamicDims, loadSizes, loadAt)))
      return signalPassFailure();

    // const char *nnapi_model_signature(void)
    builder.setInsertionPointToEnd(module.getBody());
    std::string text = signature.getValue().str();
    text.push_back('\0');
    auto arrayType = LLVM::LLVMArrayType::get(builder.getI8Type(), text.size());
    auto global = builder.create<LLVM::GlobalOp>(
        loc, arrayType, /*isConstant=*/true, LLVM::Linkage::Internal,
        "nnapi_signature_text", builder.getStringAttr(text));
    auto sigFn = builder.create<LLVM::LLVMFuncOp>(
        loc, "nnapi_model_signature", LLVM::LLVMFunctionType::get(ptrType, {}));
    Block *sigBody = sigFn.addEntryBlock(builder);
    builder.setInsertionPointToStart(sigBody);
    Value address = builder.create<LLVM::AddressOfOp>(loc, global);
    builder.create<LLVM::ReturnOp>(loc, address);

    // int32_t nnapi_model_placement_threads(void): the thread count
    // nnapi-partition priced placement at, when it ran.
    if (auto threads = module->getAttrOfType<IntegerAttr>(
            NNAPIDialect::kPlacementThreadsAttrName)) {
      builder.setInsertionPointToEnd(module.getBody());
      auto fn = builder.create<LLVM::LLVMFuncOp>(
          loc, NNAPI_MODEL_PLACEMENT_THREADS_SYMBOL,
          LLVM::LLVMFunctionType::get(builder.getI32Type(), {}));
      builder.setInsertionPointToStart(fn.addEntryBlock(builder));
      Value count = builder.create<LLVM::ConstantOp>(
          loc, builder.getI32Type(), builder.getI32IntegerAttr(int32_t(
                                         threads.getInt())));
      builder.create<LLVM::ReturnOp>(loc, count);
      module->removeAttr(NNAPIDialect::kPlacementThreadsAttrName);
    }

    // Keep the entry itself out of the dynamic symbol table: a public "main"
    // in a shared library would clash with the loading program's.
    func.setLinkage(LLVM::Linkage::Internal);
    module->removeAttr(NNAPIDialect::kSignatureAttrName);
  }

  /// int32_t nnapi_model_output_dims(const int64_t *const *inputDims,
  ///                                 int64_t *const *outputDims)
  /// writes each output's dynamic dimensions, from nnapi_output_dims
  /// (nnapi-output-dims); the caller has the static ones from the signature.
  template <typename LoadSizes, typename LoadAt>
  LogicalResult emitOutputDims(ModuleOp module, OpBuilder &builder,
                               unsigned numInputs, unsigned numOutputs,
                               ArrayRef<SmallVector<unsigned>> dynamicDims,
                               LoadSizes loadSizes, LoadAt loadAt) {
    MLIRContext *ctx = module.getContext();
    Location loc = module.getLoc();
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    auto i32 = builder.getI32Type();
    auto i64 = builder.getI64Type();
    auto shapes = module.lookupSymbol<LLVM::LLVMFuncOp>(
        NNAPIDialect::kOutputDimsFnName);
    bool dynamicOutputs = llvm::any_of(
        dynamicDims.drop_front(numInputs),
        [](const SmallVector<unsigned> &d) { return !d.empty(); });
    if (dynamicOutputs && (!shapes || shapes.isExternal())) {
      module.emitError() << "dynamically shaped outputs need @"
                         << NNAPIDialect::kOutputDimsFnName
                         << " in the LLVM dialect (nnapi-output-dims)";
      return failure();
    }
    builder.setInsertionPointToEnd(module.getBody());
    auto fn = builder.create<LLVM::LLVMFuncOp>(
        loc, "nnapi_model_output_dims",
        LLVM::LLVMFunctionType::get(i32, {ptrType, ptrType}));
    Block *body = fn.addEntryBlock(builder);
    builder.setInsertionPointToStart(body);
    SmallVector<Value> dims;
    if (dynamicOutputs) {
      SmallVector<Value> sizes;
      loadSizes(body->getArgument(0), 0, numInputs, sizes);
      if (shapes.getNumArguments() != sizes.size())
        return shapes.emitError()
               << "takes " << shapes.getNumArguments() << " sizes, the inputs "
               << "have " << sizes.size() << " dynamic dimensions";
      Value result = builder.create<LLVM::CallOp>(loc, shapes, sizes).getResult();
      if (auto packed = dyn_cast<LLVM::LLVMStructType>(result.getType())) {
        for (unsigned k = 0; k < packed.getBody().size(); ++k)
          dims.push_back(builder.create<LLVM::ExtractValueOp>(loc, result, k));
      } else {
        dims.push_back(result);
      }
      shapes.setLinkage(LLVM::Linkage::Internal);
    }
    unsigned next = 0;
    for (unsigned o = 0; o < numOutputs; ++o) {
      const SmallVector<unsigned> &dynamic = dynamicDims[numInputs + o];
      if (dynamic.empty())
        continue;
      Value out = loadAt(body->getArgument(1), o, ptrType);
      for (unsigned d : dynamic) {
        if (next >= dims.size())
          return shapes.emitError("returns fewer sizes than the outputs have "
                                  "dynamic dimensions");
        Value slot = builder.create<LLVM::GEPOp>(
            loc, ptrType, i64, out, ArrayRef<LLVM::GEPArg>{int32_t(d)});
        builder.create<LLVM::StoreOp>(loc, dims[next++], slot);
      }
    }
    Value zero = builder.create<LLVM::ConstantOp>(loc, i32, 0);
    builder.create<LLVM::ReturnOp>(loc, zero);
    return success();
  }
};

} // namespace
