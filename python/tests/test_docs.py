"""The Python examples in docs/embedding.md and README.md run as written.

Each ```python block runs in a fresh directory that sees the repository's
examples/ and profiles/ (the paths the examples use)."""
import os
import re

import pytest

from conftest import SOURCE_DIR

DOCS = [SOURCE_DIR / "docs" / "embedding.md", SOURCE_DIR / "README.md"]


def python_blocks():
    for doc in DOCS:
        text = doc.read_text()
        for i, block in enumerate(re.findall(r"```python\n(.*?)```", text,
                                             re.S)):
            yield pytest.param(block, id="%s-%d" % (doc.name, i))


def test_docs_have_examples():
    assert len(list(python_blocks())) >= 2


@pytest.mark.parametrize("code", python_blocks())
def test_example_runs(code, tmp_path, monkeypatch, capsys):
    for name in ("examples", "profiles"):
        os.symlink(SOURCE_DIR / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "<doc example>", "exec"), {"__name__": "__doc__"})
    assert capsys.readouterr().out  # the examples print what they show
