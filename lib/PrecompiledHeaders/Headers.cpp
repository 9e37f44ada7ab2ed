//===- Headers.cpp - The host of MLIR's precompiled headers ---------------===//
//
// Empty: the build compiles the precompiled header of this library's target
// (lib/PrecompiledHeaders/CMakeLists.txt), and the compiler's other libraries
// include it.
//
//===----------------------------------------------------------------------===//
