# cmake --install: tools, headers, libraries and the CMake package
# (docs/embedding.md). Two export sets, so that an app that only runs models
# needs neither LLVM nor MLIR:
#   nnapi-mlirRuntimeTargets   nnapi-mlir::runtime (libnnapi_runtime.so),
#                              nnapi-mlir::host_nnapi (libnnapi_host.so),
#                              nnapi-mlir::nnapi-run
#   nnapi-mlirCompilerTargets  nnapi-mlir::compiler (everything below plus
#                              include paths), the libraries one by one
#                              (nnapi-mlir::NNAPIPipelines, ...), and the
#                              tools nnapi-compile, nnapi-opt, nnapi-translate
include(CMakePackageConfigHelpers)
set(NNAPI_MLIR_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/nnapi-mlir)

set_target_properties(nnapi_runtime PROPERTIES EXPORT_NAME runtime)
set_target_properties(nnapi_host PROPERTIES EXPORT_NAME host_nnapi)
install(TARGETS nnapi_runtime nnapi_host nnapi-run
  EXPORT nnapi-mlirRuntimeTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT nnapi-mlirRuntimeTargets NAMESPACE nnapi-mlir::
  DESTINATION ${NNAPI_MLIR_CMAKE_DIR})
install(FILES
  include/nnapi-mlir/Runtime/Runtime.h
  include/nnapi-mlir/Runtime/Model.h
  include/nnapi-mlir/Runtime/ModelABI.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/nnapi-mlir/Runtime)

if(NNAPI_MLIR_BUILD_COMPILER)
  set(compiler_libraries
    NNAPISupport NNAPIPartitionSolver NNAPISpec
    NNAPIDialect NNAPIDialectTransforms NNAPITosaTransforms NNAPITosaToNNAPI NNAPITargetBlob
    NNAPIToRuntime NNAPIPartition NNAPICodegen NNAPICodegenTarget
    NNAPIPipelines NNAPICompiler)
  list(APPEND compiler_libraries NNAPIFrontendCommon)
  if(NNAPI_MLIR_ONNX)
    list(APPEND compiler_libraries NNAPIONNXImporter)
  endif()
  if(NNAPI_MLIR_TFLITE)
    list(APPEND compiler_libraries NNAPITFLiteImporter)
  endif()
  # The one target embedders link: the embedding API and, through it, every
  # library; the include paths of nnapi-mlir (the config adds MLIR's).
  add_library(NNAPIMLIRCompilerInterface INTERFACE)
  set_target_properties(NNAPIMLIRCompilerInterface PROPERTIES
    EXPORT_NAME compiler)
  target_link_libraries(NNAPIMLIRCompilerInterface INTERFACE NNAPICompiler)
  target_include_directories(NNAPIMLIRCompilerInterface INTERFACE
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(NNAPIMLIRCompilerInterface INTERFACE cxx_std_17)
  install(TARGETS ${compiler_libraries} NNAPIMLIRCompilerInterface
          nnapi-compile nnapi-opt nnapi-translate
    EXPORT nnapi-mlirCompilerTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(EXPORT nnapi-mlirCompilerTargets NAMESPACE nnapi-mlir::
    DESTINATION ${NNAPI_MLIR_CMAKE_DIR})
  # A tool, not something to link: outside the export sets.
  install(TARGETS nnapi-profile-device RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  # Headers, and the ones TableGen and the option list generate.
  install(DIRECTORY include/nnapi-mlir
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    FILES_MATCHING PATTERN "*.h" PATTERN "*.def" PATTERN "*.td")
  install(DIRECTORY ${PROJECT_BINARY_DIR}/include/nnapi-mlir
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    FILES_MATCHING PATTERN "*.inc"
    PATTERN "CMakeFiles" EXCLUDE)
endif()

set(NNAPI_MLIR_HAVE_COMPILER ${NNAPI_MLIR_BUILD_COMPILER})
set(NNAPI_MLIR_COMPILER_EXPORTS "")
if(NNAPI_MLIR_BUILD_COMPILER)
  set(NNAPI_MLIR_COMPILER_EXPORTS ${compiler_libraries} compiler)
endif()
set(NNAPI_MLIR_HAVE_ONNX ${NNAPI_MLIR_ONNX})
configure_package_config_file(cmake/nnapi-mlirConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/nnapi-mlirConfig.cmake
  INSTALL_DESTINATION ${NNAPI_MLIR_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/nnapi-mlirConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/nnapi-mlirConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/nnapi-mlirConfigVersion.cmake
  DESTINATION ${NNAPI_MLIR_CMAKE_DIR})

# The package as an outsider uses it: installed to a temporary prefix, the
# out-of-tree example built against it, the Python tests run from it.
if(NNAPI_MLIR_BUILD_TESTS AND NNAPI_MLIR_BUILD_COMPILER AND NNAPI_MLIR_PYTHON)
  add_test(NAME install-package
    COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/test_install.sh
            ${PROJECT_BINARY_DIR} ${NNAPI_PYTHON})
endif()
