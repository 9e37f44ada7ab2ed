//===- Npy.h - Minimal .npy reader/writer for float tensors ---------------===//
#ifndef NNAPI_MLIR_TOOLS_NPY_H
#define NNAPI_MLIR_TOOLS_NPY_H

#include <cstdint>
#include <string>
#include <vector>

namespace nnapi_mlir {

struct NpyArray {
  std::string dtype; ///< numpy descr without byte order: "f4", "f2", "i4"
  std::vector<int64_t> shape;
  std::vector<uint8_t> data; ///< little-endian, C order
};

/// Reads a version 1/2/3 .npy file with a little-endian C-order array.
bool readNpy(const std::string &path, NpyArray &array, std::string &error);
/// The same for the bytes of a .npy file; `error` says what is wrong.
bool parseNpy(const std::vector<uint8_t> &bytes, NpyArray &array,
              std::string &error);
/// Reads a whole file; false with "cannot open 'PATH'" in `error`.
bool readBinaryFile(const std::string &path, std::vector<uint8_t> &bytes,
                    std::string &error);
bool writeNpy(const std::string &path, const NpyArray &array,
              std::string &error);

} // namespace nnapi_mlir

#endif
