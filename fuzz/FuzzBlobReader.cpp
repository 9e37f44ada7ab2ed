//===- FuzzBlobReader.cpp - Fuzz the NNAPI blob reader --------------------===//
//
// Any bytes, with their checksum sealed (or not, decided by the first byte,
// so the checksum test itself is fuzzed too), must be read or refused with a
// message; a blob that reads must write back to bytes that read again the
// same, and dump without failing.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/NNAPI/BlobFormat.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace nnapi_mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  bool seal = data[0] & 1;
  std::vector<uint8_t> bytes(data + 1, data + size);
  if (seal)
    blob::sealChecksum(bytes.data(), bytes.size());
  blob::Model model;
  std::string error;
  if (!blob::read(bytes.data(), bytes.size(), model, error)) {
    if (error.empty()) {
      std::fprintf(stderr, "blob refused without a message\n");
      std::abort();
    }
    return 0;
  }
  (void)blob::dump(model);
  std::vector<uint8_t> again = blob::write(model);
  blob::Model reread;
  if (!blob::read(again.data(), again.size(), reread, error)) {
    std::fprintf(stderr, "a blob that reads does not read after writing: %s\n",
                 error.c_str());
    std::abort();
  }
  if (blob::write(reread) != again) {
    std::fprintf(stderr, "writing a blob is not stable\n");
    std::abort();
  }
  return 0;
}
