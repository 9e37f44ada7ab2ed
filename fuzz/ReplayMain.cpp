//===- ReplayMain.cpp - Run fuzz inputs without libFuzzer -----------------===//
//
// Stands in for libFuzzer's main in builds without -fsanitize=fuzzer (GCC,
// the default build): runs every file named on the command line, and every
// file in every directory named, through LLVMFuzzerTestOneInput once.
// Arguments starting with '-' (libFuzzer options) are ignored, so the same
// command line replays a corpus with either build. A path that does not
// exist, and a replay of no input at all, are errors: a corpus that moved
// or emptied must not pass as replayed.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int *argc,
                                                          char ***argv);

int main(int argc, char **argv) {
  if (LLVMFuzzerInitialize)
    LLVMFuzzerInitialize(&argc, &argv);
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (!arg.empty() && arg[0] == '-')
      continue;
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) {
      for (const auto &entry : std::filesystem::directory_iterator(arg, ec))
        if (entry.is_regular_file() && entry.path().filename() != "README.md")
          files.push_back(entry.path().string());
    } else if (std::filesystem::is_regular_file(arg, ec)) {
      files.push_back(arg);
    } else {
      std::fprintf(stderr, "replay: '%s' is neither a file nor a directory\n",
                   arg.c_str());
      return 1;
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "replay: no inputs to replay\n");
    return 1;
  }
  std::sort(files.begin(), files.end());
  for (const std::string &path : files) {
    std::ifstream in(path, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
    // A copy of exactly `size` bytes, so that reading past the end is seen
    // by AddressSanitizer as it is under libFuzzer.
    std::vector<uint8_t> exact(bytes.begin(), bytes.end());
    exact.shrink_to_fit();
    LLVMFuzzerTestOneInput(exact.empty() ? nullptr : exact.data(),
                           exact.size());
  }
  std::printf("replayed %zu inputs\n", files.size());
  return 0;
}
