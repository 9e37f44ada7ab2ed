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
config.substitutions.append(("%examples", os.path.join(config.nnapi_src_root, "examples")))
tools = ["nnapi-opt", "nnapi-translate", "nnapi-compile", "nnapi-run", "nnapi-ops-doc", "FileCheck", "not", "count"]
llvm_config.add_tool_substitutions(tools, [config.nnapi_tools_dir, config.llvm_tools_dir])

# Headless Chromium renders the HTML partition report (scripts/setup.sh
# installs Debian's chromium).
import shutil
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if chromium:
    config.available_features.add("chromium")
    config.substitutions.append(("%chromium", chromium))
