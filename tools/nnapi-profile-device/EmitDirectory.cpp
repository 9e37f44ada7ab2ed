//===- EmitDirectory.cpp - Models timed on another machine ----------------===//

#include "EmitDirectory.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace nnapi_mlir::profiling {

namespace {

/// run.sh of an --emit directory: POSIX sh, for Android's shell too.
const char *kRunScript = R"SH(#!/bin/sh
# Times the models nnapi-profile-device --emit wrote into this directory on
# this machine's NNAPI device and host code (docs/device-profiles.md):
#   sh run.sh [nnapi-run flags, e.g. --device NAME]
# with nnapi-run on PATH, or NNAPI_RUN=/path/to/nnapi-run. Writes devices.txt
# (nnapi-run --list-devices) and times.txt, one "FILE MEDIAN_MS" line per
# model ("FILE -" when it did not run: on the NNAPI side, when a partition
# ran its host copy). Then, where nnapi-profile-device is:
#   nnapi-profile-device --from DIR -o PROFILE.json
cd "$(dirname "$0")" || exit 1
run=${NNAPI_RUN:-nnapi-run}
"$run" --list-devices "$@" > devices.txt || exit 1
: > times.txt
while read -r file side; do
  expect=
  [ "$side" = nnapi ] && expect=--expect-nnapi
  ms=
  if out=$("$run" "./$file" --bench 100 --threads 1 $expect "$@" 2>&1); then
    ms=$(printf '%s\n' "$out" |
         sed -n 's/^bench: runs=[0-9]* median_ms=\([0-9.]*\).*/\1/p')
  fi
  echo "$file ${ms:--}" >> times.txt
done < models.txt
echo "wrote $(pwd)/times.txt"
)SH";

} // namespace

bool writeEmitDirectory(const std::string &dir, const Run &run,
                        std::string &error) {
  // The plan, the list run.sh walks, and run.sh.
  auto write = [&](const std::string &file, const std::string &text) {
    std::error_code ec;
    llvm::raw_fd_ostream os(dir + "/" + file, ec);
    if (!ec)
      os << text;
    if (ec || os.has_error()) {
      error = "cannot write " + dir + "/" + file;
      return false;
    }
    return true;
  };
  std::string models;
  for (const Measurement &m : run.measurements)
    models += m.file + " " + m.side + "\n";
  if (!write("plan.json", runToJSON(run)) || !write("models.txt", models) ||
      !write("run.sh", kRunScript))
    return false;
  llvm::sys::fs::setPermissions(dir + "/run.sh", llvm::sys::fs::perms(0755));
  return true;
}

bool runFromDirectory(const std::string &dir, Run &run, std::string &error) {
  auto read = [&](const std::string &file, std::string &text) {
    auto buffer = llvm::MemoryBuffer::getFile(dir + "/" + file);
    if (!buffer) {
      error = "cannot read " + dir + "/" + file + ": " +
              buffer.getError().message() +
              (file == "plan.json" ? "" : " (run run.sh there first)");
      return false;
    }
    text = (*buffer)->getBuffer().str();
    return true;
  };
  std::string plan, times, devices;
  if (!read("plan.json", plan) || !read("times.txt", times) ||
      !read("devices.txt", devices))
    return false;
  if (!runFromJSON(plan, run, error)) {
    error = dir + "/plan.json: " + error;
    return false;
  }
  // device 0: 'NAME' TYPE feature_level=N version='VERSION' (candidate 0)
  bool found = false;
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(devices).split(lines, '\n');
  for (llvm::StringRef line : lines) {
    if (!line.ends_with("(candidate 0)"))
      continue;
    size_t a = line.find('\''), b = line.find('\'', a + 1);
    size_t level = line.find(" feature_level=");
    size_t v = line.find(" version='"), ve = line.rfind("' (");
    if (a == llvm::StringRef::npos || b == llvm::StringRef::npos ||
        level == llvm::StringRef::npos || v == llvm::StringRef::npos ||
        ve == llvm::StringRef::npos || ve < v)
      break;
    run.device = line.substr(a + 1, b - a - 1).str();
    run.deviceType = line.substr(b + 1, level - b - 1).trim().str();
    unsigned n = 0;
    if (line.substr(level + 15).consumeInteger(10, n) || n < 1 || n > 8)
      break;
    run.featureLevel = std::min(run.featureLevel, n);
    run.version = line.substr(v + 10, ve - v - 10).str();
    found = true;
  }
  if (!found) {
    error = dir + "/devices.txt names no device that ran the models "
                  "('(candidate 0)')";
    return false;
  }
  run.cpu = "the machine run.sh ran on";
  std::map<std::string, std::string> medians;
  lines.clear();
  llvm::StringRef(times).split(lines, '\n', -1, false);
  for (llvm::StringRef line : lines) {
    auto [file, ms] = line.trim().split(' ');
    medians[file.str()] = ms.trim().str();
  }
  for (Measurement &m : run.measurements) {
    auto it = medians.find(m.file);
    double ms = 0;
    if (it == medians.end() || it->second == "-" ||
        llvm::StringRef(it->second).getAsDouble(ms) || !(ms > 0)) {
      if (m.side == "host") {
        error = dir + "/times.txt: no time for " + m.file +
                " (the host code must run everywhere)";
        return false;
      }
      m.failure = it == medians.end() ? "not timed" : "did not run on NNAPI";
      continue;
    }
    m.us = std::round(ms * 1e6) / 1000.0;
  }
  return true;
}

} // namespace nnapi_mlir::profiling
