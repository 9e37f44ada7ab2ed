//===- LowerPartitionCalls.cpp - Partition calls dispatch to the runtime --===//
//
// nnapi-lower-partition-calls: after bufferization, each partition function
// becomes a dispatcher that hands its blob and buffers to the runtime and
// runs the original body (the host copy, renamed <name>_host) when the
// runtime says so. A partition with static shapes writes into the caller's
// buffers (out-parameters); one with dynamic dimensions returns its buffers:
// the runtime specializes the blob to the call's input dims and says how
// large the outputs are, the dispatcher allocates them (or the host copy
// does, falling back).
//
//===----------------------------------------------------------------------===//

#include "DynamicShapes.h"
#include "nnapi-mlir/Conversion/Passes.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/NNAPI/BlobFormat.h"
#include "nnapi-mlir/Runtime/Runtime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPILOWERPARTITIONCALLS
#include "nnapi-mlir/Conversion/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;
using namespace mlir::nnapi;
namespace blob = nnapi_mlir::blob;

namespace {

/// Pointer to the first element of a memref, as an !llvm.ptr.
Value bufferPointer(OpBuilder &b, Location loc, Value memref) {
  Value index = b.create<memref::ExtractAlignedPointerAsIndexOp>(loc, memref);
  Value i64 = b.create<arith::IndexCastOp>(loc, b.getI64Type(), index);
  return b.create<LLVM::IntToPtrOp>(loc, LLVM::LLVMPointerType::get(b.getContext()),
                                    i64);
}

/// A stack array of `count` elements of `type` (at least one).
Value stackArray(OpBuilder &b, Location loc, Type type, size_t count) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  Value n = b.create<arith::ConstantIntOp>(
      loc, std::max<int64_t>(int64_t(count), 1), 64);
  return b.create<LLVM::AllocaOp>(loc, ptrType, type, n);
}

Value slotOf(OpBuilder &b, Location loc, Type type, Value array, size_t i) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  return b.create<LLVM::GEPOp>(loc, ptrType, type, array,
                               ArrayRef<LLVM::GEPArg>{int32_t(i)});
}

/// A stack array holding `values` (of one type).
Value stackArrayOf(OpBuilder &b, Location loc, Type type, ValueRange values) {
  Value array = stackArray(b, loc, type, values.size());
  for (auto [i, v] : llvm::enumerate(values))
    b.create<LLVM::StoreOp>(loc, v, slotOf(b, loc, type, array, i));
  return array;
}

Value pointerArray(OpBuilder &b, Location loc, ValueRange pointers) {
  return stackArrayOf(b, loc, LLVM::LLVMPointerType::get(b.getContext()),
                      pointers);
}

Value i32Constant(OpBuilder &b, Location loc, int32_t v) {
  return b.create<arith::ConstantIntOp>(loc, v, 32);
}

Value equals(OpBuilder &b, Location loc, Value status, int32_t code) {
  return b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, status,
                                 i32Constant(b, loc, code));
}

/// What the dispatchers of one module call and share.
struct Runtime {
  func::FuncOp execute, verify, prepareDims, executeDims;
};

/// What a dispatcher passes for its partition: the blob, its size and the
/// partition's name (a NUL-terminated global, for the runtime's reports).
struct BlobArgs {
  Value blob, size, name;
};

struct LowerPartitionCallsPass
    : public nnapi::impl::NNAPILowerPartitionCallsBase<
          LowerPartitionCallsPass> {
  void runOnOperation() override;

private:
  /// The static form: out-parameters the runtime (or the host copy) fills.
  void dispatchStatic(OpBuilder &b, Location loc, func::FuncOp host,
                      Block *body, const BlobArgs &blob, size_t numInputs,
                      size_t numOutputs);
  /// The dynamic form: buffers returned at the sizes of the call.
  void dispatchDynamic(OpBuilder &b, Location loc, func::FuncOp host,
                       Block *body, const BlobArgs &blob);

  Runtime rt;
};

/// The blob's operand `operand` fits memref `type`: its element size and,
/// where the blob states it (0 is NNAPI's unspecified, a dynamic partition's),
/// each dimension.
bool fitsOperand(const blob::Model &model, uint32_t operand, Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.getLayout().isIdentity())
    return false;
  const blob::Operand &o = model.operands[operand];
  // i1 is stored a byte per element, as TENSOR_BOOL8.
  if (blob::elementSize(o.type) != (memref.getElementTypeBitWidth() + 7) / 8)
    return false;
  ArrayRef<int64_t> shape = memref.getShape();
  // NNAPI has no rank 0: one element is [1].
  if (shape.empty())
    return o.dims == std::vector<uint32_t>{1};
  if (o.dims.size() != shape.size())
    return false;
  for (auto [d, s] : llvm::zip(o.dims, shape))
    if (ShapedType::isDynamic(s) ? d != 0 : int64_t(d) != s)
      return false;
  return true;
}

void LowerPartitionCallsPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = module.getContext();
  SmallVector<func::FuncOp> partitions;
  for (auto func : module.getOps<func::FuncOp>())
    if (func->hasAttr(NNAPIDialect::kBlobAttrName))
      partitions.push_back(func);
  if (partitions.empty())
    return;

  OpBuilder builder(ctx);
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  auto i64 = builder.getI64Type(), i32 = builder.getI32Type();
  auto declare = [&](StringRef name, FunctionType type) {
    auto fn = module.lookupSymbol<func::FuncOp>(name);
    if (!fn) {
      builder.setInsertionPointToStart(module.getBody());
      fn = builder.create<func::FuncOp>(module.getLoc(), name, type);
      fn.setPrivate();
    }
    return fn;
  };
  rt.execute = declare("nnapi_rt_execute_checked",
                       builder.getFunctionType({ptrType, i64, ptrType, i64,
                                                ptrType, i64, ptrType},
                                               {i32}));
  rt.verify = declare("nnapi_rt_verify", builder.getFunctionType(
                                             {ptrType, i64, i64, ptrType}, {}));
  if (llvm::any_of(partitions, keepsReturnedBuffers)) {
    rt.prepareDims = declare(
        "nnapi_rt_prepare_dims",
        builder.getFunctionType({ptrType, i64, ptrType, i64, ptrType, i64,
                                 ptrType},
                                {i32}));
    rt.executeDims = declare(
        "nnapi_rt_execute_dims",
        builder.getFunctionType({ptrType, i64, ptrType, i64, ptrType, i64,
                                 ptrType, i64, ptrType},
                                {i32}));
  }

  for (func::FuncOp func : partitions) {
    auto blobRef =
        func->getAttrOfType<FlatSymbolRefAttr>(NNAPIDialect::kBlobAttrName);
    auto global = module.lookupSymbol<memref::GlobalOp>(blobRef);
    if (!global || !global.getInitialValue()) {
      func.emitError("nnapi.blob does not name an initialized memref.global");
      return signalPassFailure();
    }
    // The blob says how many of the arguments are inputs, and what each
    // buffer must be.
    auto bytes = cast<DenseElementsAttr>(*global.getInitialValue());
    blob::Model model;
    std::string error;
    ArrayRef<char> raw = bytes.getRawData();
    if (!blob::read(reinterpret_cast<const uint8_t *>(raw.data()), raw.size(),
                    model, error)) {
      func.emitError("invalid partition blob: ") << error;
      return signalPassFailure();
    }
    FunctionType type = func.getFunctionType();
    size_t numInputs = model.inputs.size(), numOutputs = model.outputs.size();
    bool dynamic = keepsReturnedBuffers(func);
    if (dynamic ? type.getNumInputs() != numInputs ||
                      type.getNumResults() != numOutputs
                : type.getNumInputs() != numInputs + numOutputs) {
      func.emitError("partition must be bufferized with results as "
                     "out-parameters (or, with dynamic dimensions, returned): "
                     "expected ")
          << numInputs << " inputs and " << numOutputs << " outputs";
      return signalPassFailure();
    }
    SmallVector<Type> buffers(type.getInputs());
    llvm::append_range(buffers, type.getResults());
    for (auto [i, t] : llvm::enumerate(buffers)) {
      uint32_t operand =
          i < numInputs ? model.inputs[i] : model.outputs[i - numInputs];
      if (!fitsOperand(model, operand, t)) {
        const blob::Operand &o = model.operands[operand];
        InFlightDiagnostic diag = func.emitError("buffer ")
                                  << i << " of type " << t
                                  << " does not match the blob's "
                                  << blob::operandTypeName(o.type) << " [";
        llvm::interleave(
            o.dims, diag, [&](uint32_t d) { d ? diag << d : diag << "?"; },
            ",");
        diag << "]";
        return signalPassFailure();
      }
    }

    // Calls keep naming the partition, which becomes the dispatcher; the
    // original body moves to <name>_host.
    std::string name = func.getSymName().str();
    std::string hostName = name + "_host";
    if (module.lookupSymbol(hostName)) {
      func.emitError("symbol ") << hostName << " already exists";
      return signalPassFailure();
    }
    SymbolTable::setSymbolName(func, hostName);
    builder.setInsertionPointAfter(func);
    Location loc = func.getLoc();
    auto dispatch = builder.create<func::FuncOp>(loc, name, type);
    dispatch.setPrivate();
    Block *body = dispatch.addEntryBlock();
    // The partition's name, for the runtime's reports (NUL-terminated).
    memref::GlobalOp nameGlobal;
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointAfter(global);
      std::string text = name + '\0';
      auto i8 = builder.getIntegerType(8);
      auto nameType = MemRefType::get({int64_t(text.size())}, i8);
      nameGlobal = builder.create<memref::GlobalOp>(
          loc, name + "_name", builder.getStringAttr("private"), nameType,
          DenseElementsAttr::getFromRawBuffer(
              RankedTensorType::get(nameType.getShape(), i8),
              ArrayRef<char>(text.data(), text.size())),
          /*constant=*/true, /*alignment=*/nullptr);
      SymbolTable(module).insert(nameGlobal);
    }
    builder.setInsertionPointToStart(body);
    BlobArgs blobArgs;
    blobArgs.blob = bufferPointer(builder, loc,
                                  builder.create<memref::GetGlobalOp>(
                                      loc, global.getType(),
                                      global.getSymName()));
    blobArgs.size = builder.create<arith::ConstantIntOp>(
        loc, global.getType().getNumElements(), 64);
    blobArgs.name = bufferPointer(
        builder, loc,
        builder.create<memref::GetGlobalOp>(loc, nameGlobal.getType(),
                                            nameGlobal.getSymName()));
    if (dynamic) {
      dispatchDynamic(builder, loc, func, body, blobArgs);
      // Buffers of dynamic sizes cannot cross the host code's bare-pointer
      // calls: the host copy goes into the dispatcher, the dispatcher into
      // its callers.
      dispatch.walk([&](func::CallOp call) {
        if (call.getCallee() == func.getSymName())
          inlineCall(call, func);
      });
      SmallVector<func::CallOp> callers;
      module.walk([&](func::CallOp call) {
        if (call.getCallee() == dispatch.getSymName())
          callers.push_back(call);
      });
      for (func::CallOp call : callers)
        inlineCall(call, dispatch);
      func.erase();
      dispatch.erase();
      continue;
    }
    dispatchStatic(builder, loc, func, body, blobArgs, numInputs, numOutputs);
    // The host copy is an ordinary private function from now on.
    func->removeAttr(NNAPIDialect::kBlobAttrName);
    func->removeAttr(NNAPIDialect::kPartitionAttrName);
    func->removeAttr(NNAPIDialect::kFeatureLevelAttrName);
  }
}

void LowerPartitionCallsPass::dispatchStatic(OpBuilder &b, Location loc,
                                             func::FuncOp host, Block *body,
                                             const BlobArgs &blob,
                                             size_t numInputs,
                                             size_t numOutputs) {
  SmallVector<Value> inPtrs, outPtrs;
  for (auto [i, arg] : llvm::enumerate(body->getArguments()))
    (i < numInputs ? inPtrs : outPtrs).push_back(bufferPointer(b, loc, arg));
  Value outCount = b.create<arith::ConstantIntOp>(loc, numOutputs, 64);
  Value outArray = pointerArray(b, loc, outPtrs);
  Value status =
      b.create<func::CallOp>(
           loc, rt.execute,
           ValueRange{blob.blob, blob.size, blob.name,
                      b.create<arith::ConstantIntOp>(loc, numInputs, 64),
                      pointerArray(b, loc, inPtrs), outCount, outArray})
          .getResult(0);
  // Any status but success runs the host copy, except a loop timeout: the
  // host copy's loops have the same bound (nnapi-bound-loops). After
  // NNAPI_RT_VERIFY the runtime compares the device's results with the host
  // copy's.
  Value ok = i32Constant(b, loc, NNAPI_RT_OK);
  Value timeout = i32Constant(b, loc, NNAPI_RT_TIMEOUT);
  Value nonzero =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, status, ok);
  Value notTimeout =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, status, timeout);
  Value failed = b.create<arith::AndIOp>(loc, nonzero, notTimeout);
  auto ifOp = b.create<scf::IfOp>(loc, failed, /*else=*/false);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  b.create<func::CallOp>(loc, host, body->getArguments());
  b.setInsertionPointAfter(ifOp);
  auto checkIf = b.create<scf::IfOp>(
      loc, equals(b, loc, status, NNAPI_RT_VERIFY), /*else=*/false);
  b.setInsertionPointToStart(&checkIf.getThenRegion().front());
  b.create<func::CallOp>(loc, rt.verify,
                         ValueRange{blob.blob, blob.size, outCount, outArray});
  b.setInsertionPointAfter(checkIf);
  b.create<func::ReturnOp>(loc);
}

void LowerPartitionCallsPass::dispatchDynamic(OpBuilder &b, Location loc,
                                              func::FuncOp host, Block *body,
                                              const BlobArgs &blob) {
  Type i64 = b.getI64Type(), index = b.getIndexType();
  TypeRange resultTypes = host.getFunctionType().getResults();
  // Every input's dims, in order.
  SmallVector<Value> inDims, inPtrs;
  for (Value arg : body->getArguments()) {
    auto type = cast<MemRefType>(arg.getType());
    for (int64_t d = 0; d < type.getRank(); ++d)
      inDims.push_back(b.create<arith::IndexCastOp>(
          loc, i64, b.create<memref::DimOp>(loc, arg, d)));
    inPtrs.push_back(bufferPointer(b, loc, arg));
  }
  size_t numOutDims = 0;
  for (Type t : resultTypes)
    numOutDims += cast<MemRefType>(t).getRank();
  Value dimsIn = stackArrayOf(b, loc, i64, inDims);
  Value numDims = b.create<arith::ConstantIntOp>(loc, inDims.size(), 64);
  Value outCount = b.create<arith::ConstantIntOp>(loc, resultTypes.size(), 64);
  Value dimsOut = stackArray(b, loc, i64, numOutDims);
  Value prepared =
      b.create<func::CallOp>(loc, rt.prepareDims,
                             ValueRange{blob.blob, blob.size, blob.name,
                                        numDims, dimsIn, outCount, dimsOut})
          .getResult(0);
  Value isPrepared = equals(b, loc, prepared, NNAPI_RT_OK);
  // The outputs at the sizes the runtime computed (empty when it could not
  // prepare: the host copy then makes its own).
  SmallVector<Value> outputs, outPtrs;
  size_t next = 0;
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  for (Type t : resultTypes) {
    auto type = cast<MemRefType>(t);
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < type.getRank(); ++d, ++next)
      if (type.isDynamicDim(d))
        sizes.push_back(b.create<arith::SelectOp>(
            loc, isPrepared,
            b.create<arith::IndexCastOp>(
                loc, index,
                b.create<LLVM::LoadOp>(loc, i64,
                                       slotOf(b, loc, i64, dimsOut, next))),
            zero));
    outputs.push_back(b.create<memref::AllocOp>(loc, type, sizes,
                                                b.getI64IntegerAttr(64)));
    outPtrs.push_back(bufferPointer(b, loc, outputs.back()));
  }
  Value outArray = pointerArray(b, loc, outPtrs);
  auto run = b.create<scf::IfOp>(
      loc, isPrepared,
      [&](OpBuilder &then, Location at) {
        Value status =
            then.create<func::CallOp>(
                    at, rt.executeDims,
                    ValueRange{blob.blob, blob.size, blob.name, numDims,
                               dimsIn,
                               then.create<arith::ConstantIntOp>(
                                   at, inPtrs.size(), 64),
                               pointerArray(then, at, inPtrs), outCount,
                               outArray})
                .getResult(0);
        then.create<scf::YieldOp>(at, status);
      },
      [&](OpBuilder &otherwise, Location at) {
        otherwise.create<scf::YieldOp>(at, prepared);
      });
  Value status = run.getResult(0);
  // Done, or a loop timeout (the host copy's loops have the same bound);
  // else the host copy's own buffers, compared with the device's after
  // NNAPI_RT_VERIFY.
  Value succeeded = equals(b, loc, status, NNAPI_RT_OK);
  Value timedOut = equals(b, loc, status, NNAPI_RT_TIMEOUT);
  Value done = b.create<arith::OrIOp>(loc, succeeded, timedOut);
  auto ifDone = b.create<scf::IfOp>(
      loc, done,
      [&](OpBuilder &ok, Location at) { ok.create<scf::YieldOp>(at, outputs); },
      [&](OpBuilder &fallback, Location at) {
        for (Value o : outputs)
          fallback.create<memref::DeallocOp>(at, o);
        ResultRange hosted =
            fallback.create<func::CallOp>(at, host, body->getArguments())
                .getResults();
        auto check = fallback.create<scf::IfOp>(
            at, equals(fallback, at, status, NNAPI_RT_VERIFY),
            /*else=*/false);
        OpBuilder checker = check.getThenBodyBuilder();
        SmallVector<Value> hostPtrs;
        for (Value h : hosted)
          hostPtrs.push_back(bufferPointer(checker, at, h));
        checker.create<func::CallOp>(
            at, rt.verify,
            ValueRange{blob.blob, blob.size, outCount,
                       pointerArray(checker, at, hostPtrs)});
        fallback.create<scf::YieldOp>(at, ValueRange(hosted));
      });
  b.create<func::ReturnOp>(loc, ifDone.getResults());
}

} // namespace

bool mlir::nnapi::keepsReturnedBuffers(func::FuncOp partition) {
  return partition->hasAttr(NNAPIDialect::kBlobAttrName) &&
         (llvm::any_of(partition.getArgumentTypes(), isDynamicShape) ||
          llvm::any_of(partition.getResultTypes(), isDynamicShape));
}
