//===- ElfCheck.cpp - Check a shared object before dlopen -----------------===//

#include "nnapi-mlir/Runtime/ElfCheck.h"

#include <cstddef>
#include <cstring>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

namespace nnapi_mlir {

namespace {
/// The e_machine of the code this process runs (0: not known here).
constexpr uint16_t kThisMachine =
#if defined(__x86_64__)
    EM_X86_64;
#elif defined(__aarch64__)
    EM_AARCH64;
#elif defined(__i386__)
    EM_386;
#elif defined(__arm__)
    EM_ARM;
#elif defined(__riscv)
    EM_RISCV;
#else
    0;
#endif

std::string machineName(uint16_t machine) {
  switch (machine) {
  case EM_X86_64:
    return "x86-64";
  case EM_AARCH64:
    return "AArch64";
  case EM_386:
    return "x86";
  case EM_ARM:
    return "32-bit Arm";
  case EM_RISCV:
    return "RISC-V";
  default:
    return "machine " + std::to_string(machine);
  }
}

/// True if [offset, offset + count * entry) lies inside `size` bytes.
bool inside(uint64_t offset, uint64_t count, uint64_t entry, uint64_t size) {
  if (offset > size)
    return false;
  if (entry != 0 && count > (size - offset) / entry)
    return false;
  return true;
}
} // namespace

bool checkElfImage(const uint8_t *data, uint64_t headSize, uint64_t size,
                   std::string &error) {
  using Ehdr = ElfW(Ehdr);
  using Phdr = ElfW(Phdr);
  if (headSize < sizeof(Ehdr) || std::memcmp(data, ELFMAG, SELFMAG) != 0) {
    error = "not an ELF file";
    return false;
  }
  // e_machine lies at the same offset in 32- and 64-bit headers: check it
  // first, so that a model for another architecture is named as such.
  uint16_t machine = 0;
  std::memcpy(&machine, data + offsetof(ElfW(Ehdr), e_machine), sizeof machine);
  if (kThisMachine != 0 && data[EI_DATA] == ELFDATA2LSB &&
      machine != kThisMachine) {
    error = "built for " + machineName(machine) + ", but this process runs " +
            machineName(kThisMachine) + " code";
    return false;
  }
  const int wantClass = sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32;
  if (data[EI_CLASS] != wantClass) {
    error = std::string("ELF class is not this process's (") +
            (wantClass == ELFCLASS64 ? "64" : "32") + "-bit)";
    return false;
  }
  const uint16_t one = 1;
  const int wantData =
      *reinterpret_cast<const uint8_t *>(&one) ? ELFDATA2LSB : ELFDATA2MSB;
  if (data[EI_DATA] != wantData) {
    error = "ELF byte order is not this process's";
    return false;
  }
  Ehdr header;
  std::memcpy(&header, data, sizeof header);
  if (header.e_type != ET_DYN) {
    error = "not a shared object";
    return false;
  }
  if (header.e_phnum == 0 || header.e_phentsize != sizeof(Phdr) ||
      !inside(header.e_phoff, header.e_phnum, sizeof(Phdr), headSize)) {
    error = "truncated or malformed ELF program headers";
    return false;
  }
  if (header.e_shoff != 0 &&
      !inside(header.e_shoff, header.e_shnum, header.e_shentsize, size)) {
    error = "truncated: the section headers lie past the end of the file";
    return false;
  }
  for (uint64_t i = 0; i < header.e_phnum; ++i) {
    Phdr segment;
    std::memcpy(&segment, data + header.e_phoff + i * sizeof(Phdr),
                sizeof segment);
    if (segment.p_type != PT_LOAD && segment.p_type != PT_DYNAMIC)
      continue;
    if (!inside(segment.p_offset, 1, segment.p_filesz, size)) {
      error = "truncated: segment " + std::to_string(i) + " needs " +
              std::to_string(uint64_t(segment.p_offset) + segment.p_filesz) +
              " bytes, the file has " + std::to_string(size);
      return false;
    }
  }
  return true;
}

bool checkSharedObject(const std::string &path, std::string &error) {
  if (path.find('/') == std::string::npos)
    return true;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return true; // dlopen reports a missing or unreadable file itself
  struct stat st;
  bool ok = false;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    error = "not a regular file";
  } else {
    // The headers a loader reads first; program headers follow the ELF
    // header in every linker's output.
    static constexpr size_t kHead = 64 * 1024;
    std::string head(kHead, '\0');
    ssize_t n = ::pread(fd, head.data(), kHead, 0);
    if (n < 0)
      error = "cannot read the file";
    else
      ok = checkElfImage(reinterpret_cast<const uint8_t *>(head.data()),
                         uint64_t(n), uint64_t(st.st_size), error);
  }
  ::close(fd);
  return ok;
}

} // namespace nnapi_mlir
