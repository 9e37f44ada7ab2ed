//===- Cache.cpp - The host NNAPI device's compilation cache --------------===//

#include "Cache.h"

#include "nnapi-mlir/Support/Files.h"

#include <cstring>
#include <vector>

namespace nnapi_mlir::host {

namespace {
constexpr char kMagic[4] = {'N', 'N', 'H', 'C'};
constexpr uint32_t kVersion = 1;
/// An entry is a few hundred bytes (its device name is at most a few
/// hundred); anything much larger is not one.
constexpr uint64_t kMaxEntryBytes = 64 * 1024;

template <typename T> void put(std::vector<uint8_t> &out, T value) {
  for (size_t i = 0; i < sizeof(T); ++i)
    out.push_back(uint8_t(uint64_t(value) >> (8 * i)));
}

/// Reads little-endian values from a byte range, failing past its end.
struct Reader {
  const uint8_t *p, *end;
  bool ok = true;
  template <typename T> T get() {
    T value = 0;
    if (size_t(end - p) < sizeof(T)) {
      ok = false;
      return value;
    }
    for (size_t i = 0; i < sizeof(T); ++i)
      value |= T(uint64_t(p[i]) << (8 * i));
    p += sizeof(T);
    return value;
  }
  bool bytes(void *out, size_t n) {
    if (size_t(end - p) < n)
      return ok = false;
    std::memcpy(out, p, n);
    p += n;
    return true;
  }
};
} // namespace

Sha256::Digest fingerprintModel(const HostModel &model,
                                const std::string &device,
                                const std::string &version) {
  Sha256 h;
  h.update(device).update(version);
  uint64_t counts[] = {model.operands.size(), model.operations.size(),
                       model.inputs.size(), model.outputs.size(),
                       uint64_t(model.relaxed)};
  h.update(counts, sizeof counts);
  for (const Operand &op : model.operands) {
    int32_t header[] = {op.type, int32_t(op.kind), int32_t(op.dims.size()),
                        op.zeroPoint};
    h.update(header, sizeof header);
    h.update(&op.scale, sizeof op.scale);
    for (auto d : op.dims) {
      uint64_t dim = uint64_t(d);
      h.update(&dim, sizeof dim);
    }
    if (op.kind == Kind::Constant)
      h.update(op.value, operandBytes(op));
    if (op.kind == Kind::Model) {
      // A referenced model (IF, WHILE) is part of what is compiled.
      Sha256::Digest inner = fingerprintModel(*op.model, device, version);
      h.update(inner.data(), inner.size());
    }
  }
  for (const Operation &op : model.operations) {
    uint32_t header[] = {uint32_t(op.opcode), uint32_t(op.inputs.size()),
                         uint32_t(op.outputs.size())};
    h.update(header, sizeof header);
    h.update(op.inputs.data(), op.inputs.size() * sizeof(uint32_t));
    h.update(op.outputs.data(), op.outputs.size() * sizeof(uint32_t));
  }
  h.update(model.inputs.data(), model.inputs.size() * sizeof(uint32_t));
  h.update(model.outputs.data(), model.outputs.size() * sizeof(uint32_t));
  return h.finish();
}

std::string cacheFilePath(const std::string &dir, const CacheToken &token) {
  Sha256::Digest digest;
  std::copy(token.begin(), token.end(), digest.begin());
  return dir + "/" + Sha256::hex(digest) + ".nnapi-host-cache";
}

CacheLookup readCacheEntry(const std::string &path, const CacheEntry &expected,
                           CacheEntry &found, std::string &why) {
  // Anyone who may write the directory may have put anything here: a link
  // to another file, a directory, a FIFO, /dev/zero (docs/reliability.md).
  std::vector<uint8_t> bytes;
  ReadOptions options;
  options.maxBytes = kMaxEntryBytes;
  options.followSymlinks = false;
  std::string error;
  switch (readFile(path, options, bytes, error)) {
  case ReadStatus::Missing:
    return CacheLookup::Missing;
  case ReadStatus::Refused:
    why = "the entry " + error;
    return CacheLookup::Rejected;
  case ReadStatus::Ok:
    break;
  }
  if (bytes.size() < sizeof kMagic + 32 ||
      std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
    why = "not a cache entry, or truncated";
    return CacheLookup::Rejected;
  }
  size_t body = bytes.size() - 32;
  Sha256::Digest stored, actual = Sha256().update(bytes.data(), body).finish();
  std::memcpy(stored.data(), bytes.data() + body, 32);
  if (stored != actual) {
    why = "checksum mismatch (truncated or corrupted)";
    return CacheLookup::Rejected;
  }
  Reader r{bytes.data() + sizeof kMagic, bytes.data() + body};
  uint32_t version = r.get<uint32_t>();
  r.bytes(found.token.data(), 32);
  r.bytes(found.fingerprint.data(), 32);
  found.steps = r.get<uint32_t>();
  found.xnnpackSteps = r.get<uint32_t>();
  found.arenaBytes = r.get<uint64_t>();
  uint32_t nameLength = r.get<uint32_t>();
  if (r.ok && nameLength == size_t(r.end - r.p))
    found.device.assign(reinterpret_cast<const char *>(r.p), nameLength);
  else
    r.ok = false;
  if (!r.ok || version != kVersion) {
    why = "malformed or of another version";
    return CacheLookup::Rejected;
  }
  if (found.token != expected.token || found.device != expected.device ||
      found.fingerprint != expected.fingerprint) {
    why = "made for another model or device";
    return CacheLookup::Rejected;
  }
  if (found.steps != expected.steps ||
      found.xnnpackSteps != expected.xnnpackSteps ||
      found.arenaBytes != expected.arenaBytes) {
    why = "the compiled plan differs";
    return CacheLookup::Rejected;
  }
  return CacheLookup::Found;
}

bool writeCacheEntry(const std::string &path, const CacheEntry &entry) {
  std::vector<uint8_t> bytes(kMagic, kMagic + sizeof kMagic);
  put(bytes, kVersion);
  bytes.insert(bytes.end(), entry.token.begin(), entry.token.end());
  bytes.insert(bytes.end(), entry.fingerprint.begin(),
               entry.fingerprint.end());
  put(bytes, entry.steps);
  put(bytes, entry.xnnpackSteps);
  put(bytes, entry.arenaBytes);
  put(bytes, uint32_t(entry.device.size()));
  bytes.insert(bytes.end(), entry.device.begin(), entry.device.end());
  Sha256::Digest digest = Sha256().update(bytes.data(), bytes.size()).finish();
  bytes.insert(bytes.end(), digest.begin(), digest.end());

  std::string error;
  return writeFileAtomically(path, bytes.data(), bytes.size(), error);
}

} // namespace nnapi_mlir::host
