//===- Link.cpp - Shared libraries for any target, with LLVM's linker -----===//

#include "Link.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace llvm;

namespace mlir::nnapi {

static Error linkError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

SmallVector<std::string> neededLibraries(const Triple &triple) {
  if (triple.isAndroid())
    return {"libnnapi_runtime.so", "libm.so", "libc.so"};
  return {"libnnapi_runtime.so", "libm.so.6", "libc.so.6"};
}

/// $NNAPI_MLIR_LLD, else ld.lld-19 or ld.lld on PATH.
static Expected<std::string> findLinker() {
  if (const char *env = std::getenv("NNAPI_MLIR_LLD"); env && *env) {
    if (auto found = sys::findProgramByName(env);
        found && sys::fs::can_execute(*found))
      return *found;
    return linkError("NNAPI_MLIR_LLD='" + Twine(env) +
                     "' is not an executable linker");
  }
  for (StringRef name : {"ld.lld-19", "ld.lld"})
    if (auto found = sys::findProgramByName(name))
      return *found;
  return linkError(
      "no ELF linker: install Debian's lld-19 (ld.lld-19) or set "
      "NNAPI_MLIR_LLD to an ld.lld; or emit an object file (--emit=obj) and "
      "link it yourself");
}

/// Runs the linker with `args` (after argv[0]), its output going to
/// `logPath` (a new file per run); on failure the error carries its exit
/// status and what it printed.
static Error runLinker(StringRef linker, ArrayRef<std::string> args,
                       StringRef logPath, const Twine &what) {
  SmallVector<StringRef> argv = {linker};
  for (const std::string &a : args)
    argv.push_back(a);
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                          StringRef(logPath)};
  std::string error;
  int rc = sys::ExecuteAndWait(linker, argv, std::nullopt, redirects, 0, 0,
                               &error);
  if (rc == 0)
    return Error::success();
  std::string said;
  if (auto log = MemoryBuffer::getFile(logPath))
    said = StringRef((*log)->getBuffer()).trim().str();
  if (said.empty())
    said = error;
  return linkError("linking " + what + " failed (" +
                   (rc == -1   ? std::string("it could not run")
                    : rc < 0 ? std::string("it crashed")
                             : "exit status " + std::to_string(rc)) +
                   ")" + (said.empty() ? "" : ": " + said));
}

/// An object file with nothing in it, for `machine`'s target: what the stub
/// libraries are linked from.
static Error writeEmptyObject(TargetMachine &machine, StringRef path) {
  LLVMContext context;
  Module module("nnapi_link_stub", context);
  module.setTargetTriple(machine.getTargetTriple().str());
  module.setDataLayout(machine.createDataLayout());
  std::error_code ec;
  raw_fd_ostream os(path, ec, sys::fs::OF_None);
  if (ec)
    return linkError("cannot write '" + path + "': " + ec.message());
  legacy::PassManager codegen;
  if (machine.addPassesToEmitFile(codegen, os, nullptr,
                                  CodeGenFileType::ObjectFile))
    return linkError("the target cannot emit object files");
  codegen.run(module);
  return Error::success();
}

Error linkModelLibrary(TargetMachine &machine, ArrayRef<std::string> objects,
                       StringRef library, StringRef runpath) {
  const Triple &triple = machine.getTargetTriple();
  if (!triple.isOSBinFormatELF())
    return linkError("shared libraries are built for ELF targets only, not '" +
                     triple.str() + "'; use --emit=obj");
  Expected<std::string> linker = findLinker();
  if (!linker)
    return linker.takeError();

  SmallString<128> dir;
  if (std::error_code ec = sys::fs::createUniqueDirectory("nnapi-link", dir))
    return linkError("cannot create a temporary directory: " + ec.message());
  auto cleanup =
      llvm::make_scope_exit([&] { sys::fs::remove_directories(dir); });
  auto inDir = [&](StringRef name) {
    SmallString<128> path(dir);
    sys::path::append(path, name);
    return path.str().str();
  };
  std::string empty = inDir("empty.o");
  if (Error err = writeEmptyObject(machine, empty))
    return err;

  std::vector<std::string> args = {"-shared",
                                   "--soname=" +
                                       sys::path::filename(library).str(),
                                   "--build-id=sha1",
                                   "--hash-style=gnu",
                                   "--eh-frame-hdr",
                                   "-z",
                                   "relro",
                                   "-z",
                                   "now",
                                   "-z",
                                   "noexecstack",
                                   "-o",
                                   library.str()};
  args.insert(args.end(), objects.begin(), objects.end());
  for (const std::string &soname : neededLibraries(triple)) {
    std::string stub = inDir(soname);
    if (Error err = runLinker(*linker,
                              {"-shared", "--soname=" + soname, "-o", stub,
                               empty},
                              inDir(soname + ".log"),
                              "the stub '" + soname + "'"))
      return err;
    args.push_back(stub);
  }
  if (!runpath.empty())
    args.push_back("-rpath=" + runpath.str());
  return runLinker(*linker, args, inDir("link.log"), "'" + library + "'");
}

} // namespace mlir::nnapi
