# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "NNAPI_MLIR"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.nnapi_obj_root, "test")

llvm_config.with_system_environment(["HOME", "TMPDIR", "PATH",
                                    "NNAPI_MLIR_HOST_KERNELS"])
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.nnapi_tools_dir, append_path=True)
# Fallback warnings would only clutter the FileCheck'd output.
config.environment["NNAPI_MLIR_QUIET"] = "1"

config.substitutions.append(("%numpy_python", config.python3))
# Builds hand-made (forged) model libraries for the loaders' error tests.
config.substitutions.append(("%cc", config.c_compiler))
# ONNX's own test models (Debian's libonnx-testdata, which setup installs).
config.substitutions.append(("%onnx_testdata", "/usr/share/libonnx-testdata/data"))
config.substitutions.append(("%examples", os.path.join(config.nnapi_src_root, "examples")))
config.substitutions.append(("%src_root", config.nnapi_src_root))
# MLIR's TableGen files (OpBase.td...), for tests that run mlir-tblgen.
config.substitutions.append(
    ("%mlir_include", os.path.join(os.path.dirname(config.llvm_tools_dir), "include")))
# The TFLite schema as Python modules (flatc --python at build time), for
# test/Frontend/TFLite/Inputs/tflite_builder.py.
config.environment["NNAPI_TFLITE_SCHEMA_PY"] = os.path.join(
    config.nnapi_obj_root, "tflite-schema-python")
tools = ["nnapi-opt", "nnapi-translate", "nnapi-compile", "nnapi-run", "nnapi-ops-doc", "nnapi-profile-device", "stream-vad", "FileCheck", "not", "count", "llvm-readelf", "mlir-tblgen"]
llvm_config.add_tool_substitutions(tools, [config.nnapi_tools_dir, config.llvm_tools_dir])

# Headless Chromium renders the HTML partition report (scripts/setup.sh
# installs Debian's chromium).
import shutil
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if chromium:
    config.available_features.add("chromium")
    config.substitutions.append(("%chromium", chromium))

# AArch64: the cross-built runtime side (scripts/build-aarch64.sh) under
# qemu-aarch64, with the cross compiler's C library and Debian's arm64
# XNNPACK unpacked beside the build. scripts/test.sh sets
# NNAPI_MLIR_REQUIRE_AARCH64=1 after building it, so that CI cannot skip it.
qemu = shutil.which("qemu-aarch64")
a64 = config.nnapi_aarch64_dir
a64_run = os.path.join(a64, "bin", "nnapi-run")
require = os.environ.get("NNAPI_MLIR_REQUIRE_AARCH64") == "1"
if qemu:
    config.available_features.add("qemu-aarch64")
elif require:
    lit_config.fatal("NNAPI_MLIR_REQUIRE_AARCH64=1 but qemu-aarch64 is not "
                     "on PATH (apt-get install qemu-user)")
if os.path.exists(a64_run):
    config.available_features.add("aarch64-runtime")
elif require:
    lit_config.fatal("NNAPI_MLIR_REQUIRE_AARCH64=1 but %s is missing "
                     "(scripts/build-aarch64.sh builds it)" % a64_run)
if qemu:
    libs = os.path.join(a64, "sysroot", "usr", "lib", "aarch64-linux-gnu")
    config.substitutions.append(
        ("%run_aarch64", "%s -L /usr/aarch64-linux-gnu -E LD_LIBRARY_PATH=%s %s"
         % (qemu, libs, a64_run)))
