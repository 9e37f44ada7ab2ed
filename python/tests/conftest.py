"""Shared fixtures of the nnapi_mlir tests.

The package under test is whatever `import nnapi_mlir` finds (the build tree
through ctest, an installed prefix in scripts/test_install.sh). When
NNAPI_MLIR_EXPECT_PREFIX is set, the tests refuse to run against a package
outside it, so an install test cannot silently test the build tree.
"""
import os
import pathlib

import pytest

import nnapi_mlir

SOURCE_DIR = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = SOURCE_DIR / "examples"


def pytest_report_header(config):
    return "nnapi_mlir from %s" % os.path.dirname(nnapi_mlir.__file__)


def pytest_sessionstart(session):
    prefix = os.environ.get("NNAPI_MLIR_EXPECT_PREFIX")
    if prefix:
        found = os.path.realpath(nnapi_mlir.__file__)
        if not found.startswith(os.path.realpath(prefix) + os.sep):
            raise pytest.UsageError("nnapi_mlir was imported from %s, not "
                                    "from the prefix %s" % (found, prefix))


@pytest.fixture(autouse=True)
def _auto_mode():
    """Every test starts (and leaves the process) in NNAPI mode."""
    nnapi_mlir.set_host_only(False)
    yield
    nnapi_mlir.set_host_only(False)


@pytest.fixture(scope="session")
def cnn_so(tmp_path_factory):
    """examples/onnx/cnn.onnx compiled once for the generic device."""
    out = tmp_path_factory.mktemp("cnn") / "cnn.so"
    summary = nnapi_mlir.compile(
        EXAMPLES / "onnx" / "cnn.onnx", out,
        device_profile=SOURCE_DIR / "profiles" / "generic-fl7.json")
    return out, summary
