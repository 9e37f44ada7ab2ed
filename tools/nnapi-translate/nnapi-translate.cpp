//===- nnapi-translate.cpp - Blob serialization and dumps -----------------===//
//
//   nnapi-translate --serialize-nnapi-blob partition.mlir -o p.blob
//   nnapi-translate --dump-nnapi-blob p.blob
//   nnapi-translate --mlir-to-llvmir lowered.mlir
//   nnapi-translate --import-onnx model.onnx      (ONNX -> TOSA)
//   nnapi-translate --import-tflite model.tflite  (TFLite -> TOSA)
//
//===----------------------------------------------------------------------===//

#ifdef NNAPI_MLIR_HAVE_ONNX
#include "nnapi-mlir/Frontend/ONNX/ONNXImporter.h"
#endif
#ifdef NNAPI_MLIR_HAVE_TFLITE
#include "nnapi-mlir/Frontend/TFLite/TFLiteImporter.h"
#endif
#include "nnapi-mlir/Pipelines/Registration.h"
#include "nnapi-mlir/Target/NNAPIBlob/NNAPIBlob.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

int main(int argc, char **argv) {
  mlir::nnapi::registerNNAPIBlobTranslations();
#ifdef NNAPI_MLIR_HAVE_ONNX
  mlir::TranslateToMLIRRegistration fromONNX(
      "import-onnx", "import an ONNX model as TOSA",
      [](llvm::SourceMgr &sourceMgr,
         mlir::MLIRContext *context) -> mlir::OwningOpRef<mlir::Operation *> {
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        return mlir::nnapi::importONNX(buffer->getBuffer(),
                                       buffer->getBufferIdentifier(), context);
      });
#endif
#ifdef NNAPI_MLIR_HAVE_TFLITE
  mlir::TranslateToMLIRRegistration fromTFLite(
      "import-tflite", "import a TFLite model as TOSA",
      [](llvm::SourceMgr &sourceMgr,
         mlir::MLIRContext *context) -> mlir::OwningOpRef<mlir::Operation *> {
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        return mlir::nnapi::importTFLite(buffer->getBuffer(),
                                         buffer->getBufferIdentifier(),
                                         context);
      });
#endif
  mlir::TranslateFromMLIRRegistration toLLVM(
      "mlir-to-llvmir", "translate the LLVM dialect to LLVM IR",
      [](mlir::Operation *op, llvm::raw_ostream &os) -> mlir::LogicalResult {
        llvm::LLVMContext context;
        auto module = mlir::translateModuleToLLVMIR(op, context);
        if (!module)
          return mlir::failure();
        module->print(os, nullptr);
        return mlir::success();
      },
      [](mlir::DialectRegistry &registry) {
        registry.insert<mlir::DLTIDialect, mlir::func::FuncDialect,
                        mlir::LLVM::LLVMDialect>();
        mlir::registerBuiltinDialectTranslation(registry);
        mlir::registerLLVMDialectTranslation(registry);
      });
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "nnapi-mlir translation driver\n"));
}
