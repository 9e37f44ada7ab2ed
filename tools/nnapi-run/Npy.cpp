//===- Npy.cpp - Minimal .npy reader/writer for float tensors -------------===//

#include "Npy.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace nnapi_mlir {

namespace {
size_t dtypeSize(const std::string &d) {
  if (d == "f4" || d == "i4" || d == "u4")
    return 4;
  if (d == "f2" || d == "i2" || d == "u2")
    return 2;
  if (d == "f8" || d == "i8" || d == "u8")
    return 8;
  if (d == "i1" || d == "b1" || d == "u1")
    return 1;
  return 0;
}

// Finds the value text after 'key': in a Python dict literal.
bool findValue(const std::string &header, const std::string &key,
               std::string &value) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos)
    return false;
  size_t colon = header.find(':', k);
  if (colon == std::string::npos)
    return false;
  value = header.substr(colon + 1);
  size_t start = value.find_first_not_of(' ');
  value = start == std::string::npos ? "" : value.substr(start);
  return true;
}
} // namespace

bool readBinaryFile(const std::string &path, std::vector<uint8_t> &bytes,
                    std::string &error) {
  // A directory opens as a stream whose reads throw: refuse it first.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    error = "cannot open '" + path + "': " +
            (std::filesystem::exists(path, ec) ? "not a regular file"
                                               : "no such file");
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open '" + path + "'";
    return false;
  }
  bytes.assign(std::istreambuf_iterator<char>(in),
               std::istreambuf_iterator<char>());
  return true;
}

bool readNpy(const std::string &path, NpyArray &array, std::string &error) {
  std::vector<uint8_t> bytes;
  if (!readBinaryFile(path, bytes, error))
    return false;
  if (!parseNpy(bytes, array, error)) {
    error = "'" + path + "' is not a supported .npy file: " + error;
    return false;
  }
  return true;
}

bool parseNpy(const std::vector<uint8_t> &bytes, NpyArray &array,
              std::string &error) {
  auto bad = [&](const std::string &why) {
    error = why;
    return false;
  };
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0)
    return bad("bad magic");
  uint8_t major = bytes[6];
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = bytes[8] | (bytes[9] << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return bad("truncated header");
    headerLen = bytes[8] | (bytes[9] << 8) | (bytes[10] << 16) |
                (size_t(bytes[11]) << 24);
    headerStart = 12;
  } else {
    return bad("unknown version " + std::to_string(major));
  }
  if (headerStart + headerLen > bytes.size())
    return bad("truncated header");
  std::string header(bytes.begin() + headerStart,
                     bytes.begin() + headerStart + headerLen);
  std::string descr, order, shape;
  if (!findValue(header, "descr", descr) ||
      !findValue(header, "fortran_order", order) ||
      !findValue(header, "shape", shape))
    return bad("header lacks descr, fortran_order or shape");
  if (order.rfind("False", 0) != 0)
    return bad("Fortran-order arrays are not supported");
  if (descr.size() < 4 || descr[0] != '\'' ||
      (descr[1] != '<' && descr[1] != '|'))
    return bad("only little-endian arrays are supported");
  array.dtype = descr.substr(2, descr.find('\'', 2) - 2);
  size_t elem = dtypeSize(array.dtype);
  if (!elem)
    return bad("unsupported dtype '" + array.dtype + "'");
  array.shape.clear();
  size_t open = shape.find('('), close = shape.find(')');
  if (open == std::string::npos || close == std::string::npos)
    return bad("malformed shape");
  std::string dims = shape.substr(open + 1, close - open - 1);
  size_t count = 1, pos = 0;
  while (pos < dims.size()) {
    size_t comma = dims.find(',', pos);
    std::string item = dims.substr(
        pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (item.find_first_not_of(' ') != std::string::npos) {
      char *end = nullptr;
      errno = 0;
      long long v = std::strtoll(item.c_str(), &end, 10);
      if (end == item.c_str() || errno != 0 ||
          item.find_first_not_of(' ', size_t(end - item.c_str())) !=
              std::string::npos)
        return bad("malformed dimension '" + item + "'");
      if (v < 0)
        return bad("negative dimension");
      // Bounded by the file: the data must hold count * elem bytes.
      if (v != 0 && count > (bytes.size() + 1) / size_t(v))
        count = bytes.size() + 1;
      else
        count *= size_t(v);
      array.shape.push_back(v);
    }
    if (comma == std::string::npos)
      break;
    pos = comma + 1;
  }
  size_t dataStart = headerStart + headerLen;
  if (count > bytes.size() || bytes.size() - dataStart != count * elem)
    return bad("data has " + std::to_string(bytes.size() - dataStart) +
               " bytes, the shape needs " +
               (count > bytes.size() ? std::string("more")
                                     : std::to_string(count * elem)));
  array.data.assign(bytes.begin() + dataStart, bytes.end());
  return true;
}

bool writeNpy(const std::string &path, const NpyArray &array,
              std::string &error) {
  std::string header =
      "{'descr': '<" + array.dtype + "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < array.shape.size(); ++i)
    header += std::to_string(array.shape[i]) + ", ";
  if (array.shape.size() > 1)
    header.erase(header.size() - 1); // "(1, 2)" rather than "(1, 2, )"
  if (array.shape.size() > 1)
    header.back() = ')';
  else
    header += ")";
  header += ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    error = "cannot write '" + path + "'";
    return false;
  }
  out.write("\x93NUMPY\x01\x00", 8);
  uint16_t len = static_cast<uint16_t>(header.size());
  out.put(char(len & 0xFF));
  out.put(char(len >> 8));
  out << header;
  out.write(reinterpret_cast<const char *>(array.data.data()),
            array.data.size());
  if (!out) {
    error = "failed writing '" + path + "'";
    return false;
  }
  return true;
}

} // namespace nnapi_mlir
