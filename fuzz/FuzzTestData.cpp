//===- FuzzTestData.cpp - Fuzz nnapi-run's .npy and TensorProto readers ---===//
//
// One target for both readers (FUZZ_NPY or FUZZ_TENSOR_PROTO picks which):
// a file is read or refused with a message, and what is read holds exactly
// the bytes its shape and element type need.
//
//===----------------------------------------------------------------------===//

#include "Npy.h"
#include "TensorProto.h"

#include <cstdio>
#include <cstdlib>

using namespace nnapi_mlir;

namespace {
[[noreturn]] void fail(const char *what) {
  std::fprintf(stderr, "%s\n", what);
  std::abort();
}
#ifdef FUZZ_NPY
/// Element width of a numpy type code ("f4", "i8" = int64, "b1").
size_t npyWidth(const std::string &code) {
  return code.size() == 2 ? size_t(code[1] - '0') : 0;
}
#else
/// Element width of the model ABI's element types ("f32", "i8" = int8).
size_t abiWidth(const std::string &dtype) {
  if (dtype == "i1")
    return 1;
  return std::stoul(dtype.substr(1)) / 8;
}
#endif
void checkSize(const std::vector<int64_t> &shape, size_t width, size_t bytes) {
  size_t count = 1;
  for (int64_t d : shape) {
    if (d < 0)
      fail("negative dimension accepted");
    count *= size_t(d);
  }
  if (width == 0 || count * width != bytes)
    fail("data size does not match the shape");
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  std::string error;
#ifdef FUZZ_NPY
  NpyArray array;
  bool ok = parseNpy(bytes, array, error);
  if (ok)
    checkSize(array.shape, npyWidth(array.dtype), array.data.size());
#else
  ProtoTensor tensor;
  bool ok = parseTensorProto(bytes, tensor, error);
  if (ok)
    checkSize(tensor.dims, abiWidth(tensor.dtype), tensor.data.size());
#endif
  if (!ok && error.empty())
    fail("input refused without a message");
  return 0;
}
