//===- ElfCheck.h - Check a shared object before dlopen ---------*- C++ -*-===//
//
// dlopen maps a shared object's segments without checking that the file holds
// them: a truncated library (an interrupted copy, a partial download) maps
// pages past the end of the file and the loader dies of SIGBUS when it touches
// them. checkSharedObject reads the ELF header and program headers and refuses
// such a file with a message, so that the caller's dlopen only sees files
// whose every loaded byte exists.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_RUNTIME_ELFCHECK_H
#define NNAPI_MLIR_RUNTIME_ELFCHECK_H

#include <cstdint>
#include <string>

namespace nnapi_mlir {

/// Checks an ELF file of `size` bytes whose first `headSize` bytes are at
/// `head`: a shared object of this process's class and byte order whose
/// program headers lie in `head` and whose section headers and loadable
/// segments lie inside the file. False with a reason in `error` otherwise.
bool checkElfImage(const uint8_t *head, uint64_t headSize, uint64_t size,
                   std::string &error);

/// Reads the file at `path` and checks it with checkElfImage. A path without
/// '/' names a library the dynamic loader searches for: nothing to check.
bool checkSharedObject(const std::string &path, std::string &error);

} // namespace nnapi_mlir

#endif
