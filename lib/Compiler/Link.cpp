//===- Link.cpp - Shared libraries for any target, with LLVM's linker -----===//

#include "Link.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/InterfaceStub/ELFObjHandler.h"
#include "llvm/InterfaceStub/IFSHandler.h"
#include "llvm/InterfaceStub/IFSStub.h"
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

/// Writes the stub library `soname` for `triple`: an ELF shared object with
/// that soname and no symbols, written by LLVM's interface-stub writer
/// rather than by a linker run (three fewer processes per library: of a
/// small model's 0.15 s compile, they were 0.07 s).
static Error writeStubLibrary(const Triple &triple, StringRef soname,
                              StringRef path) {
  ifs::IFSStub stub;
  stub.IfsVersion = ifs::IFSVersionCurrent;
  stub.SoName = soname.str();
  // The ELF machines of the architectures ld.lld links for Linux and Android.
  static const std::pair<Triple::ArchType, uint16_t> machines[] = {
      {Triple::x86_64, ELF::EM_X86_64},
      {Triple::x86, ELF::EM_386},
      {Triple::aarch64, ELF::EM_AARCH64},
      {Triple::arm, ELF::EM_ARM},
      {Triple::thumb, ELF::EM_ARM},
      {Triple::riscv32, ELF::EM_RISCV},
      {Triple::riscv64, ELF::EM_RISCV},
      {Triple::ppc64, ELF::EM_PPC64},
      {Triple::ppc64le, ELF::EM_PPC64},
      {Triple::loongarch64, ELF::EM_LOONGARCH},
      {Triple::systemz, ELF::EM_S390}};
  for (auto [arch, machine] : machines)
    if (arch == triple.getArch())
      stub.Target.Arch = machine;
  if (!stub.Target.Arch)
    return linkError("shared libraries are not built for '" + triple.str() +
                     "'; use --emit=obj");
  stub.Target.BitWidth = triple.isArch64Bit() ? ifs::IFSBitWidthType::IFS64
                                              : ifs::IFSBitWidthType::IFS32;
  stub.Target.Endianness = triple.isLittleEndian()
                               ? ifs::IFSEndiannessType::Little
                               : ifs::IFSEndiannessType::Big;
  if (Error err = ifs::writeBinaryStub(path, stub))
    return linkError("cannot write the stub '" + soname +
                     "': " + toString(std::move(err)));
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
    if (Error err = writeStubLibrary(triple, soname, stub))
      return err;
    args.push_back(stub);
  }
  if (!runpath.empty())
    args.push_back("-rpath=" + runpath.str());
  return runLinker(*linker, args, inDir("link.log"), "'" + library + "'");
}

} // namespace mlir::nnapi
