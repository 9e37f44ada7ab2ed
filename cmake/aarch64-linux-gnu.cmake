# CMake toolchain file: the runtime side (runtime, host NNAPI device, nnapi-run)
# for 64-bit Arm Linux with Debian's cross compiler (g++-aarch64-linux-gnu).
# scripts/build-aarch64.sh uses it; by hand:
#   cmake -S . -B build-aarch64 -G Ninja \
#     -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
#     -DNNAPI_MLIR_BUILD_COMPILER=OFF [-DNNAPI_AARCH64_SYSROOT=DIR]
#
# NNAPI_AARCH64_SYSROOT is a directory holding Debian's arm64 XNNPACK,
# pthreadpool and cpuinfo packages unpacked (usr/include, usr/lib/<arch>);
# without it the host device builds with its reference kernels only. The C
# library and libstdc++ come from the cross compiler's own sysroot
# (/usr/aarch64-linux-gnu). docs/android.md says why the packages are unpacked
# rather than installed with dpkg's multiarch.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# Try-compile projects see the sysroot too.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES NNAPI_AARCH64_SYSROOT)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
if(NNAPI_AARCH64_SYSROOT)
  list(APPEND CMAKE_FIND_ROOT_PATH "${NNAPI_AARCH64_SYSROOT}")
  # The unpacked libraries need each other at link time.
  set(_nnapi_libdir "${NNAPI_AARCH64_SYSROOT}/usr/lib/aarch64-linux-gnu")
  string(APPEND CMAKE_EXE_LINKER_FLAGS_INIT " -Wl,-rpath-link,${_nnapi_libdir}")
  string(APPEND CMAKE_SHARED_LINKER_FLAGS_INIT " -Wl,-rpath-link,${_nnapi_libdir}")
  string(APPEND CMAKE_MODULE_LINKER_FLAGS_INIT " -Wl,-rpath-link,${_nnapi_libdir}")
endif()
# Programs run on the build machine; headers and libraries come from the
# target's directories only (never the build machine's x86-64 ones).
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Run cross-built programs (try_run, tests) under qemu when it is there.
find_program(NNAPI_QEMU_AARCH64 qemu-aarch64)
if(NNAPI_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR
      "${NNAPI_QEMU_AARCH64};-L;/usr/aarch64-linux-gnu")
endif()
