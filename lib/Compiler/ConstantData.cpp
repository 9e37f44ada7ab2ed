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
/// The few ELF64 structures writeDataObject needs, written field by field in
/// little-endian order.
class ElfWriter {
public:
  explicit ElfWriter(raw_ostream &os) : os(os) {}
  void u8(uint8_t v) {
    os << char(v);
    ++offset;
  }
  void u16(uint16_t v) { put(v, 2); }
  void u32(uint32_t v) { put(v, 4); }
  void u64(uint64_t v) { put(v, 8); }
  void bytes(StringRef data) {
    os << data;
    offset += data.size();
  }
  void zeros(uint64_t n) {
    os.write_zeros(n);
    offset += n;
  }
  void padTo(uint64_t align) { zeros(alignTo(offset, align) - offset); }
  uint64_t offset = 0;

private:
  void put(uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; ++i)
      u8(uint8_t(v >> (8 * i)));
  }
  raw_ostream &os;
};

struct SectionHeader {
  uint32_t name = 0, type = 0;
  uint64_t flags = 0, offset = 0, size = 0;
  uint32_t link = 0, info = 0;
  uint64_t align = 1, entsize = 0;
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
  uint64_t dataAlign = 1, dataSize = 0;
  std::vector<uint64_t> at;
  for (const DataSymbol &symbol : symbols) {
    dataAlign = std::max(dataAlign, symbol.align);
    dataSize = alignTo(dataSize, symbol.align);
    at.push_back(dataSize);
    dataSize += symbol.bytes.size();
  }
  enum { kNull, kData, kStrtab, kShstrtab, kSymtab, kStackNote, kCount };
  SectionHeader sections[kCount];
  sections[kData] = {name(shstrtab, ".rodata"),
                     ELF::SHT_PROGBITS,
                     ELF::SHF_ALLOC,
                     0,
                     dataSize,
                     0,
                     0,
                     dataAlign,
                     0};
  sections[kStrtab] = {name(shstrtab, ".strtab"), ELF::SHT_STRTAB};
  sections[kShstrtab] = {name(shstrtab, ".shstrtab"), ELF::SHT_STRTAB};
  // Every symbol but the null one is global: the first non-local is 1.
  sections[kSymtab] = {name(shstrtab, ".symtab"),
                       ELF::SHT_SYMTAB,
                       0,
                       0,
                       (symbols.size() + 1) * 24,
                       kStrtab,
                       1,
                       8,
                       24};
  // No executable stack wanted.
  sections[kStackNote] = {name(shstrtab, ".note.GNU-stack"), ELF::SHT_PROGBITS};
  std::vector<uint32_t> names;
  for (const DataSymbol &symbol : symbols)
    names.push_back(name(strtab, symbol.name));

  uint64_t offset = alignTo(64, dataAlign);
  sections[kData].offset = offset;
  offset += dataSize;
  sections[kStrtab].offset = offset;
  sections[kStrtab].size = strtab.size();
  offset += strtab.size();
  sections[kShstrtab].offset = offset;
  sections[kShstrtab].size = shstrtab.size();
  offset += shstrtab.size();
  offset = sections[kSymtab].offset = alignTo(offset, 8);
  offset += sections[kSymtab].size;
  uint64_t headers = alignTo(offset, 8);

  ElfWriter w(os);
  const uint8_t ident[] = {0x7f,
                           'E',
                           'L',
                           'F',
                           ELF::ELFCLASS64,
                           ELF::ELFDATA2LSB,
                           ELF::EV_CURRENT,
                           ELF::ELFOSABI_NONE};
  for (uint8_t b : ident)
    w.u8(b);
  w.padTo(16);
  w.u16(ELF::ET_REL);
  w.u16(triple.getArch() == Triple::x86_64 ? ELF::EM_X86_64 : ELF::EM_AARCH64);
  w.u32(ELF::EV_CURRENT);
  w.u64(0); // entry
  w.u64(0); // program headers
  w.u64(headers);
  w.u32(0); // flags
  w.u16(64);
  w.u16(0);
  w.u16(0);
  w.u16(64);
  w.u16(kCount);
  w.u16(kShstrtab);

  w.padTo(dataAlign);
  for (auto [symbol, start] : llvm::zip(symbols, at)) {
    w.zeros(sections[kData].offset + start - w.offset);
    w.bytes(StringRef(symbol.bytes.data(), symbol.bytes.size()));
  }
  w.bytes(strtab);
  w.bytes(shstrtab);
  w.padTo(8);
  // Symbols: the null one, then each object, hidden.
  w.zeros(24);
  for (auto [symbol, start, nameAt] : llvm::zip(symbols, at, names)) {
    w.u32(nameAt);
    w.u8((ELF::STB_GLOBAL << 4) | ELF::STT_OBJECT);
    w.u8(ELF::STV_HIDDEN);
    w.u16(kData);
    w.u64(start);
    w.u64(symbol.bytes.size());
  }
  w.padTo(8);
  for (const SectionHeader &h : sections) {
    w.u32(h.name);
    w.u32(h.type);
    w.u64(h.flags);
    w.u64(0); // address
    w.u64(h.offset);
    w.u64(h.size);
    w.u32(h.link);
    w.u32(h.info);
    w.u64(h.align);
    w.u64(h.entsize);
  }
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
