//===- ConstantData.cpp - Weights as bytes for LLVM -----------------------===//

#include "ConstantData.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SwapByteOrder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <cstring>
#include <optional>
#include <string>

using namespace llvm;

/// Appends `value`'s bytes in memory order; false when it holds anything but
/// numbers (pointers, structs, expressions).
static bool appendBytes(const Constant *value, const DataLayout &layout,
                        std::string &bytes) {
  if (auto *data = dyn_cast<ConstantDataSequential>(value)) {
    // A vector of i1 or of odd widths would not be laid out as its raw
    // values; weights are arrays of whole bytes.
    if (data->getElementByteSize() !=
        layout.getTypeAllocSize(data->getElementType()))
      return false;
    bytes += data->getRawDataValues();
    return true;
  }
  if (isa<ConstantAggregateZero>(value)) {
    bytes.append(layout.getTypeAllocSize(value->getType()), '\0');
    return true;
  }
  if (auto *array = dyn_cast<ConstantArray>(value)) {
    for (const Use &element : array->operands())
      if (!appendBytes(cast<Constant>(element.get()), layout, bytes))
        return false;
    return true;
  }
  return false;
}

namespace {
/// A constant global's value as the bytes weightsAsBytes and detachWeights
/// take: a dense array of whole-byte numbers of more than 64 bytes.
struct WeightBytes {
  ArrayRef<char> raw;
  uint64_t align;
};
} // namespace

static std::optional<WeightBytes> weightBytes(mlir::LLVM::GlobalOp global) {
  auto dense =
      dyn_cast_or_null<mlir::DenseElementsAttr>(global.getValueOrNull());
  if (!global.getConstant() || !dense || dense.isSplat())
    return std::nullopt;
  mlir::Type element = dense.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8)
    return std::nullopt;
  ArrayRef<char> raw = dense.getRawData();
  if (raw.size() <= 64)
    return std::nullopt;
  // At least the alignment the elements had, and what LLVM prefers for
  // arrays that large.
  uint64_t align = std::max<uint64_t>(
      16, llvm::PowerOf2Ceil(element.getIntOrFloatBitWidth() / 8));
  if (std::optional<uint64_t> given = global.getAlignment())
    align = std::max(align, *given);
  return WeightBytes{raw, align};
}

void mlir::nnapi::weightsAsBytes(mlir::ModuleOp module, bool littleEndian) {
  if (littleEndian != sys::IsLittleEndianHost)
    return;
  auto byte = mlir::IntegerType::get(module.getContext(), 8);
  for (auto global : module.getOps<mlir::LLVM::GlobalOp>()) {
    std::optional<WeightBytes> weights = weightBytes(global);
    if (!weights)
      continue;
    auto bytes =
        mlir::RankedTensorType::get({int64_t(weights->raw.size())}, byte);
    global.setValueAttr(mlir::DenseResourceElementsAttr::get(
        bytes, "nnapi_weights",
        mlir::UnmanagedAsmResourceBlob::allocateInferAlign(weights->raw)));
    global.setGlobalType(
        mlir::LLVM::LLVMArrayType::get(byte, weights->raw.size()));
    global.setAlignment(weights->align);
  }
}

bool mlir::nnapi::canWriteDataObject(const Triple &triple) {
  return sys::IsLittleEndianHost && triple.isOSBinFormatELF() &&
         (triple.getArch() == Triple::x86_64 ||
          triple.getArch() == Triple::aarch64);
}

std::vector<mlir::nnapi::DataSymbol>
mlir::nnapi::detachWeights(mlir::ModuleOp module) {
  std::vector<DataSymbol> symbols;
  auto byte = mlir::IntegerType::get(module.getContext(), 8);
  for (auto global : module.getOps<mlir::LLVM::GlobalOp>()) {
    std::optional<WeightBytes> weights = weightBytes(global);
    // A global placed in a section of its own stays LLVM's to place.
    if (!weights || global.getSection())
      continue;
    symbols.push_back(
        {global.getSymName().str(), weights->raw, weights->align});
    global.setValueAttr(nullptr);
    global.setGlobalType(
        mlir::LLVM::LLVMArrayType::get(byte, weights->raw.size()));
    global.setAlignment(weights->align);
    global.setLinkage(mlir::LLVM::Linkage::External);
    global.setVisibility_(mlir::LLVM::Visibility::Hidden);
    global.setDsoLocal(true);
    global.setUnnamedAddr(std::nullopt);
  }
  return symbols;
}

namespace {
/// Writes to a stream and counts what it wrote, for ELF's file offsets.
struct CountingWriter {
  raw_ostream &os;
  uint64_t offset = 0;
  /// A structure of LLVM's ELF.h as it is in memory: this machine is
  /// little-endian (canWriteDataObject), as the file is.
  template <typename T> void raw(const T &value) {
    bytes(StringRef(reinterpret_cast<const char *>(&value), sizeof(T)));
  }
  void bytes(StringRef data) {
    os << data;
    offset += data.size();
  }
  void padTo(uint64_t at) {
    os.write_zeros(at - offset);
    offset = at;
  }
};
} // namespace

Error mlir::nnapi::writeDataObject(const Triple &triple,
                                   ArrayRef<DataSymbol> symbols,
                                   raw_ostream &os) {
  if (!canWriteDataObject(triple))
    return createStringError(inconvertibleErrorCode(),
                             "no data objects for '" + triple.str() + "'");
  // Layout: header, the data section, the string tables, the symbol table,
  // the section headers.
  std::string strtab(1, '\0'), shstrtab(1, '\0');
  auto name = [](std::string &table, StringRef s) {
    uint32_t at = table.size();
    table += s;
    table += '\0';
    return at;
  };
  // Each symbol's offset in the data section, at its alignment; the
  // symbol table starts with the null symbol.
  uint64_t dataAlign = 1, dataSize = 0;
  std::vector<ELF::Elf64_Sym> table(1, ELF::Elf64_Sym{});
  enum { kNull, kData, kStrtab, kShstrtab, kSymtab, kStackNote, kCount };
  for (const DataSymbol &symbol : symbols) {
    dataAlign = std::max(dataAlign, symbol.align);
    dataSize = alignTo(dataSize, symbol.align);
    ELF::Elf64_Sym &entry = table.emplace_back();
    entry.st_name = name(strtab, symbol.name);
    entry.setBindingAndType(ELF::STB_GLOBAL, ELF::STT_OBJECT);
    entry.st_other = ELF::STV_HIDDEN;
    entry.st_shndx = kData;
    entry.st_value = dataSize;
    entry.st_size = symbol.bytes.size();
    dataSize += symbol.bytes.size();
  }

  ELF::Elf64_Shdr sections[kCount] = {};
  auto section = [&](unsigned index, StringRef sectionName, uint32_t type) {
    sections[index].sh_name = name(shstrtab, sectionName);
    sections[index].sh_type = type;
    sections[index].sh_addralign = 1;
  };
  section(kData, ".rodata", ELF::SHT_PROGBITS);
  section(kStrtab, ".strtab", ELF::SHT_STRTAB);
  section(kShstrtab, ".shstrtab", ELF::SHT_STRTAB);
  section(kSymtab, ".symtab", ELF::SHT_SYMTAB);
  // No executable stack wanted.
  section(kStackNote, ".note.GNU-stack", ELF::SHT_PROGBITS);
  sections[kData].sh_flags = ELF::SHF_ALLOC;
  sections[kData].sh_addralign = dataAlign;
  sections[kData].sh_size = dataSize;
  sections[kStrtab].sh_size = strtab.size();
  sections[kShstrtab].sh_size = shstrtab.size();
  sections[kSymtab].sh_size = table.size() * sizeof(ELF::Elf64_Sym);
  sections[kSymtab].sh_entsize = sizeof(ELF::Elf64_Sym);
  sections[kSymtab].sh_addralign = 8;
  sections[kSymtab].sh_link = kStrtab;
  // Every symbol but the null one is global: the first non-local is 1.
  sections[kSymtab].sh_info = 1;
  uint64_t offset = sizeof(ELF::Elf64_Ehdr);
  for (unsigned s = kData; s < kCount; ++s) {
    offset = sections[s].sh_offset = alignTo(offset, sections[s].sh_addralign);
    if (sections[s].sh_type != ELF::SHT_NOBITS)
      offset += sections[s].sh_size;
  }

  ELF::Elf64_Ehdr header = {};
  memcpy(header.e_ident, ELF::ElfMagic, strlen(ELF::ElfMagic));
  header.e_ident[ELF::EI_CLASS] = ELF::ELFCLASS64;
  header.e_ident[ELF::EI_DATA] = ELF::ELFDATA2LSB;
  header.e_ident[ELF::EI_VERSION] = ELF::EV_CURRENT;
  header.e_ident[ELF::EI_OSABI] = ELF::ELFOSABI_NONE;
  header.e_type = ELF::ET_REL;
  header.e_machine =
      triple.getArch() == Triple::x86_64 ? ELF::EM_X86_64 : ELF::EM_AARCH64;
  header.e_version = ELF::EV_CURRENT;
  header.e_shoff = alignTo(offset, 8);
  header.e_ehsize = sizeof(ELF::Elf64_Ehdr);
  header.e_shentsize = sizeof(ELF::Elf64_Shdr);
  header.e_shnum = kCount;
  header.e_shstrndx = kShstrtab;

  CountingWriter w{os};
  w.raw(header);
  for (auto [symbol, entry] :
       llvm::zip(symbols, ArrayRef(table).drop_front())) {
    w.padTo(sections[kData].sh_offset + entry.st_value);
    w.bytes(StringRef(symbol.bytes.data(), symbol.bytes.size()));
  }
  w.padTo(sections[kStrtab].sh_offset);
  w.bytes(strtab);
  w.padTo(sections[kShstrtab].sh_offset);
  w.bytes(shstrtab);
  w.padTo(sections[kSymtab].sh_offset);
  for (const ELF::Elf64_Sym &entry : table)
    w.raw(entry);
  w.padTo(header.e_shoff);
  for (const ELF::Elf64_Shdr &h : sections)
    w.raw(h);
  return Error::success();
}

Error mlir::nnapi::writeDataObject(const Triple &triple,
                                   ArrayRef<DataSymbol> symbols,
                                   StringRef path) {
  auto cannotWrite = [&](std::error_code ec) {
    return createStringError(inconvertibleErrorCode(),
                             "cannot write '" + path + "': " + ec.message());
  };
  std::error_code ec;
  raw_fd_ostream os(path, ec, sys::fs::OF_None);
  if (ec)
    return cannotWrite(ec);
  Error err = writeDataObject(triple, symbols, os);
  os.close();
  // An I/O error the stream saw is reported here, not by its destructor.
  ec = os.error();
  os.clear_error();
  if (err)
    return err;
  if (ec)
    return cannotWrite(ec);
  return Error::success();
}

unsigned mlir::nnapi::flattenConstantData(llvm::Module &module) {
  const llvm::DataLayout &layout = module.getDataLayout();
  if (layout.isLittleEndian() != sys::IsLittleEndianHost)
    return 0;
  llvm::Type *byte = llvm::Type::getInt8Ty(module.getContext());
  SmallVector<GlobalVariable *> candidates;
  for (GlobalVariable &global : module.globals()) {
    if (!global.isConstant() || !global.hasInitializer())
      continue;
    Constant *init = global.getInitializer();
    // Zeros go to .bss as they are; byte arrays are already what we want.
    if (!init->getType()->isArrayTy() || isa<ConstantAggregateZero>(init) ||
        (isa<ConstantDataArray>(init) &&
         cast<ConstantDataArray>(init)->getElementType() == byte))
      continue;
    candidates.push_back(&global);
  }
  unsigned rewritten = 0;
  for (GlobalVariable *global : candidates) {
    std::string bytes;
    if (!appendBytes(global->getInitializer(), layout, bytes) ||
        bytes.size() != layout.getTypeAllocSize(global->getValueType()))
      continue;
    Constant *init = ConstantDataArray::getRaw(bytes, bytes.size(), byte);
    auto *flat = new GlobalVariable(
        module, init->getType(), /*isConstant=*/true, global->getLinkage(),
        init, "", global, global->getThreadLocalMode(),
        global->getAddressSpace());
    flat->copyAttributesFrom(global);
    flat->setAlignment(layout.getPreferredAlign(global));
    flat->takeName(global);
    global->replaceAllUsesWith(flat);
    global->eraseFromParent();
    ++rewritten;
  }
  return rewritten;
}
