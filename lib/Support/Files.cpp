//===- Files.cpp - Reading and writing files that others may control ------===//

#include "nnapi-mlir/Support/Files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace nnapi_mlir {

namespace {

/// Closes a descriptor when it goes out of scope.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0)
      ::close(fd);
  }
};

template <typename Buffer>
ReadStatus readInto(const std::string &path, const ReadOptions &options,
                    Buffer &out, std::string &error) {
  out.clear();
  // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused
  // below as not a regular file); it changes nothing for regular files.
  int flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK;
  if (!options.followSymlinks)
    flags |= O_NOFOLLOW;
  Descriptor file{::open(path.c_str(), flags)};
  if (file.fd < 0) {
    int err = errno;
    if (err == ENOENT)
      return ReadStatus::Missing;
    error = err == ELOOP && !options.followSymlinks
                ? "is a symbolic link"
                : std::string("cannot be opened: ") + std::strerror(err);
    return ReadStatus::Refused;
  }
  struct stat st;
  if (::fstat(file.fd, &st) != 0) {
    error = std::string("cannot be examined: ") + std::strerror(errno);
    return ReadStatus::Refused;
  }
  if (!S_ISREG(st.st_mode)) {
    error = S_ISDIR(st.st_mode) ? "is a directory" : "is not a regular file";
    return ReadStatus::Refused;
  }
  if (uint64_t(st.st_size) > options.maxBytes) {
    error = "has " + std::to_string(uint64_t(st.st_size)) +
            " bytes, more than the " + std::to_string(options.maxBytes) +
            " allowed";
    return ReadStatus::Refused;
  }
  try {
    out.resize(size_t(st.st_size));
  } catch (...) {
    error = "is too large to read into memory";
    return ReadStatus::Refused;
  }
  // The file may shrink or grow while it is read: read what fstat promised,
  // and refuse it if it then turns out longer.
  size_t done = 0;
  while (done < out.size()) {
    ssize_t n = ::read(file.fd, &out[done], out.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      error = std::string("cannot be read: ") + std::strerror(errno);
      out.clear();
      return ReadStatus::Refused;
    }
    if (n == 0)
      break;
    done += size_t(n);
  }
  out.resize(done);
  char extra;
  ssize_t more;
  do
    more = ::read(file.fd, &extra, 1);
  while (more < 0 && errno == EINTR);
  if (more > 0) {
    error = "changed size while it was read";
    out.clear();
    return ReadStatus::Refused;
  }
  return ReadStatus::Ok;
}

} // namespace

ReadStatus readFile(const std::string &path, const ReadOptions &options,
                    std::vector<uint8_t> &bytes, std::string &error) {
  return readInto(path, options, bytes, error);
}

ReadStatus readFile(const std::string &path, const ReadOptions &options,
                    std::string &text, std::string &error) {
  return readInto(path, options, text, error);
}

bool writeFileAtomically(const std::string &path, const void *data,
                         size_t size, std::string &error) {
  std::string temporary;
  int fd = -1;
  try {
    std::random_device random;
    for (int attempt = 0; attempt < 8 && fd < 0; ++attempt) {
      char suffix[32];
      std::snprintf(suffix, sizeof suffix, ".tmp-%08x%08x", random(),
                    random());
      temporary = path + suffix;
      fd = ::open(temporary.c_str(),
                  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
      if (fd < 0 && errno != EEXIST)
        break;
    }
  } catch (...) {
    error = "no source of random names";
    return false;
  }
  if (fd < 0) {
    error = "cannot create '" + temporary + "': " + std::strerror(errno);
    return false;
  }
  Descriptor file{fd};
  const auto *bytes = static_cast<const uint8_t *>(data);
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::write(fd, bytes + done, size - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      error = "cannot write '" + temporary + "': " + std::strerror(errno);
      ::unlink(temporary.c_str());
      return false;
    }
    done += size_t(n);
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    error = "cannot rename '" + temporary + "' to '" + path +
            "': " + std::strerror(errno);
    ::unlink(temporary.c_str());
    return false;
  }
  return true;
}

} // namespace nnapi_mlir
