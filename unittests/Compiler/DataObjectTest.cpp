//===- DataObjectTest.cpp - The weights' object file, read back by LLVM ---===//
//
// writeDataObject writes ELF by hand (ConstantData.h). LLVM's own object
// reader is the independent check: each symbol must come back global,
// hidden, of its size, at an address of its alignment, over its bytes.
//
//===----------------------------------------------------------------------===//

#include "../../lib/Compiler/ConstantData.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

using namespace llvm;
using mlir::nnapi::DataSymbol;

namespace {

struct Want {
  std::string bytes;
  uint64_t align;
};

/// Writes `symbols` for `triple` and checks what LLVM reads back.
void checkRoundTrip(const char *tripleName, unsigned machine) {
  Triple triple(tripleName);
  ASSERT_TRUE(mlir::nnapi::canWriteDataObject(triple));
  // Odd sizes and mixed alignments, so that padding sits between them.
  std::map<std::string, Want> want = {
      {"__constant_a", {std::string(67, 'a'), 16}},
      {"__constant_b", {"b-bytes-" + std::string(90, '\x7f'), 64}},
      {"__nnapi_blob_0", {std::string(129, '\0') + "end", 32}},
  };
  std::vector<DataSymbol> symbols;
  for (auto &[name, e] : want)
    symbols.push_back(
        {name, ArrayRef<char>(e.bytes.data(), e.bytes.size()), e.align});
  std::string written;
  raw_string_ostream os(written);
  ASSERT_FALSE(bool(mlir::nnapi::writeDataObject(triple, symbols, os)));
  os.flush();

  auto file =
      object::ObjectFile::createObjectFile(MemoryBufferRef(written, "data.o"));
  ASSERT_TRUE(bool(file)) << toString(file.takeError());
  auto *elf = dyn_cast<object::ELF64LEObjectFile>(file->get());
  ASSERT_TRUE(elf);
  EXPECT_EQ(elf->getELFFile().getHeader().e_machine, machine);
  EXPECT_TRUE(elf->isRelocatableObject());

  unsigned seen = 0;
  for (const object::ELFSymbolRef &symbol : elf->symbols()) {
    Expected<StringRef> name = symbol.getName();
    ASSERT_TRUE(bool(name));
    if (name->empty())
      continue;
    auto it = want.find(name->str());
    ASSERT_NE(it, want.end()) << name->str();
    ++seen;
    EXPECT_EQ(symbol.getBinding(), ELF::STB_GLOBAL);
    EXPECT_EQ(symbol.getELFType(), ELF::STT_OBJECT);
    EXPECT_EQ(symbol.getOther(), ELF::STV_HIDDEN);
    EXPECT_EQ(symbol.getSize(), it->second.bytes.size());
    uint64_t value = cantFail(symbol.getValue());
    EXPECT_EQ(value % it->second.align, 0u) << name->str();
    object::section_iterator section = cantFail(symbol.getSection());
    ASSERT_NE(section, elf->section_end());
    EXPECT_EQ(cantFail(section->getName()), ".rodata");
    EXPECT_FALSE(section->isText());
    EXPECT_EQ(section->getAlignment().value() % it->second.align, 0u);
    StringRef contents = cantFail(section->getContents());
    ASSERT_LE(value + symbol.getSize(), contents.size());
    EXPECT_EQ(contents.substr(value, symbol.getSize()), it->second.bytes);
  }
  EXPECT_EQ(seen, want.size());
}

TEST(DataObject, X86_64) {
  checkRoundTrip("x86_64-unknown-linux-gnu", ELF::EM_X86_64);
}

TEST(DataObject, AArch64Android) {
  checkRoundTrip("aarch64-linux-android", ELF::EM_AARCH64);
}

TEST(DataObject, NoSymbols) {
  std::string written;
  raw_string_ostream os(written);
  Triple triple("x86_64-unknown-linux-gnu");
  ASSERT_FALSE(bool(mlir::nnapi::writeDataObject(triple, {}, os)));
  os.flush();
  auto file =
      object::ObjectFile::createObjectFile(MemoryBufferRef(written, "empty.o"));
  ASSERT_TRUE(bool(file)) << toString(file.takeError());
}

TEST(DataObject, OtherTargetsRefused) {
  for (const char *name :
       {"aarch64_be-unknown-linux-gnu", "i686-unknown-linux-gnu",
        "x86_64-apple-darwin", "riscv64-unknown-linux-gnu"}) {
    Triple triple(name);
    EXPECT_FALSE(mlir::nnapi::canWriteDataObject(triple)) << name;
    std::string written;
    raw_string_ostream os(written);
    Error err = mlir::nnapi::writeDataObject(triple, {}, os);
    ASSERT_TRUE(bool(err)) << name;
    EXPECT_EQ(toString(std::move(err)),
              "no data objects for '" + std::string(name) + "'");
  }
}

} // namespace
