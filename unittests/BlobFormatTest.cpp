//===- BlobFormatTest.cpp - Blob writer/reader round trips and rejects ----===//

#include "TestModels.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace nnapi_mlir;

namespace {

TEST(BlobFormat, RoundTripPreservesEverything) {
  blob::Model m = test_models::addBiasReluModel();
  m.featureLevel = 3;
  m.relaxFloat32ToFloat16 = true;
  std::vector<uint8_t> bytes = blob::write(m);
  blob::Model r;
  std::string error;
  ASSERT_TRUE(blob::read(bytes.data(), bytes.size(), r, error)) << error;
  EXPECT_EQ(r.featureLevel, 3u);
  EXPECT_TRUE(r.relaxFloat32ToFloat16);
  ASSERT_EQ(r.operands.size(), m.operands.size());
  for (size_t i = 0; i < m.operands.size(); ++i) {
    EXPECT_EQ(r.operands[i].type, m.operands[i].type);
    EXPECT_EQ(r.operands[i].dims, m.operands[i].dims);
    EXPECT_EQ(r.operands[i].lifetime, m.operands[i].lifetime);
    EXPECT_EQ(r.operands[i].valueOffset, m.operands[i].valueOffset);
    EXPECT_EQ(r.operands[i].valueLength, m.operands[i].valueLength);
  }
  ASSERT_EQ(r.operations.size(), 1u);
  EXPECT_EQ(r.operations[0].opcode, ANEURALNETWORKS_ADD);
  EXPECT_EQ(r.operations[0].inputs, m.operations[0].inputs);
  EXPECT_EQ(r.operations[0].outputs, m.operations[0].outputs);
  EXPECT_EQ(r.inputs, m.inputs);
  EXPECT_EQ(r.outputs, m.outputs);
  EXPECT_EQ(r.data, m.data);
  // Writing what was read gives the same bytes.
  EXPECT_EQ(blob::write(r), bytes);
}

TEST(BlobFormat, LayoutIsAligned) {
  std::vector<uint8_t> bytes = blob::write(test_models::addBiasReluModel());
  uint64_t dataOffset;
  std::memcpy(&dataOffset, bytes.data() + 40, 8);
  EXPECT_EQ(dataOffset % blob::kDataAlignment, 0u);
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 8), "NNAPIMLB");
}

TEST(BlobFormat, EveryTruncationIsRejected) {
  std::vector<uint8_t> bytes = blob::write(test_models::addBiasReluModel());
  for (size_t len = 0; len < bytes.size(); ++len) {
    blob::Model r;
    std::string error;
    EXPECT_FALSE(blob::read(bytes.data(), len, r, error)) << len;
    EXPECT_FALSE(error.empty());
  }
}

TEST(BlobFormat, EveryCorruptedByteIsRejected) {
  std::vector<uint8_t> bytes = blob::write(test_models::addBiasReluModel());
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::vector<uint8_t> bad = bytes;
    bad[i] ^= 0x5A;
    blob::Model r;
    std::string error;
    EXPECT_FALSE(blob::read(bad.data(), bad.size(), r, error)) << i;
  }
}

TEST(BlobFormat, MessagesNameTheProblem) {
  std::vector<uint8_t> bytes = blob::write(test_models::addBiasReluModel());
  blob::Model r;
  std::string error;
  EXPECT_FALSE(blob::read(bytes.data(), 10, r, error));
  EXPECT_NE(error.find("truncated"), std::string::npos) << error;

  std::vector<uint8_t> bad = bytes;
  bad[0] = 'X';
  EXPECT_FALSE(blob::read(bad.data(), bad.size(), r, error));
  EXPECT_NE(error.find("bad magic"), std::string::npos) << error;

  bad = bytes;
  bad[8] = 6; // version
  blob::sealChecksum(bad.data(), bad.size());
  EXPECT_FALSE(blob::read(bad.data(), bad.size(), r, error));
  EXPECT_NE(error.find("unsupported blob format version 6 (this runtime reads "
                       "versions 1 to 5)"),
            std::string::npos)
      << error;

  bad = bytes;
  bad.back() ^= 1;
  EXPECT_FALSE(blob::read(bad.data(), bad.size(), r, error));
  EXPECT_NE(error.find("checksum"), std::string::npos) << error;

  EXPECT_FALSE(blob::read(nullptr, 0, r, error));
}

// Version 2 added operands without a value; version 1 blobs still read, and
// one that claims such an operand is refused.
TEST(BlobFormat, OperandsWithoutValueNeedVersion2) {
  blob::Model model = test_models::addBiasReluModel();
  uint32_t omitted = model.addNoValue(ANEURALNETWORKS_TENSOR_FLOAT32);
  std::vector<uint8_t> bytes = blob::write(model);
  blob::Model r;
  std::string error;
  ASSERT_TRUE(blob::read(bytes.data(), bytes.size(), r, error)) << error;
  EXPECT_EQ(r.operands[omitted].lifetime, blob::Lifetime::NoValue);
  EXPECT_NE(blob::dump(r).find("no value"), std::string::npos);

  bytes[8] = 1; // a version 1 blob cannot have one
  blob::sealChecksum(bytes.data(), bytes.size());
  EXPECT_FALSE(blob::read(bytes.data(), bytes.size(), r, error));
  EXPECT_NE(error.find("invalid lifetime 4 (no value) in a version 1 blob"),
            std::string::npos)
      << error;

  std::vector<uint8_t> old = blob::write(test_models::addBiasReluModel());
  old[8] = 1; // without one it reads
  blob::sealChecksum(old.data(), old.size());
  EXPECT_TRUE(blob::read(old.data(), old.size(), r, error)) << error;
}

TEST(BlobFormat, DumpListsOperationsAndOperands) {
  std::string text = blob::dump(test_models::addBiasReluModel());
  EXPECT_NE(text.find("%3 = ADD(%0, %1, %2)"), std::string::npos) << text;
  EXPECT_NE(text.find("%2 INT32 = 1"), std::string::npos) << text;
}

TEST(BlobFormat, Crc32KnownValue) {
  // The standard check value of CRC-32/ISO-HDLC.
  const char *text = "123456789";
  EXPECT_EQ(blob::crc32(reinterpret_cast<const uint8_t *>(text), 9),
            0xCBF43926u);
}

} // namespace
