"""The build backend and the source distribution: what `pip install .`, `pip wheel .` and
`python -m build` rely on (the wheel built from the sdist is checked by `./dev wheel`)."""

import importlib
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from conftest import PROJECT_ROOT

CROARING_FILES = ("roaring.c", "roaring.h", "LICENSE")


@pytest.fixture()
def backend(monkeypatch):
    monkeypatch.syspath_prepend(str(PROJECT_ROOT / "cmake"))
    return importlib.import_module("build_backend")


def test_backend_asks_for_pip_only_when_croaring_must_be_fetched(backend, monkeypatch, tmp_path):
    import fetch_croaring

    # This checkout has CRoaring vendored (the dev setup built from it): nothing more needed.
    assert fetch_croaring.is_complete(fetch_croaring.DEFAULT_DEST)
    for hook in (backend.get_requires_for_build_wheel, backend.get_requires_for_build_sdist,
                 backend.get_requires_for_build_editable):
        assert "pip" not in hook()
    # A fresh checkout: an isolated build environment has no pip to fetch CRoaring with.
    monkeypatch.setattr(fetch_croaring, "DEFAULT_DEST", tmp_path / "croaring")
    for hook in (backend.get_requires_for_build_wheel, backend.get_requires_for_build_sdist,
                 backend.get_requires_for_build_editable):
        assert hook()[-1] == "pip"


def test_backend_names_croaring_when_it_cannot_be_fetched(backend, monkeypatch, tmp_path):
    import fetch_croaring

    def refuse(dest):
        raise fetch_croaring.FetchError("pip download failed with exit code 1")

    monkeypatch.setattr(fetch_croaring, "fetch", refuse)
    with pytest.raises(RuntimeError, match=r"could not vendor CRoaring 5\.2\.2 .*pip download"):
        backend.build_wheel(str(tmp_path))


@pytest.fixture(scope="module")
def sdist(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("sdist")
    subprocess.run([sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir",
                    str(out)], cwd=PROJECT_ROOT, check=True, capture_output=True, text=True)
    (archive,) = out.glob("pyfileindex-*.tar.gz")
    return archive


def test_sdist_carries_croaring_the_backend_and_the_licenses(sdist):
    with tarfile.open(sdist) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
        root = tar.getnames()[0].split("/", 1)[0]
        vendored = PROJECT_ROOT / "cpp" / "third_party" / "croaring"
        for name in CROARING_FILES:
            member = tar.extractfile(f"{root}/cpp/third_party/croaring/{name}")
            assert member is not None and member.read() == (vendored / name).read_bytes(), name
        pkg_info = tar.extractfile(f"{root}/PKG-INFO").read().decode()
    for needed in ("pyproject.toml", "CMakeLists.txt", "LICENSE", "cmake/build_backend.py",
                   "cmake/fetch_croaring.py", "pyfileindex/_native.pyx", "cpp/src/build_info.cc"):
        assert needed in names, needed
    assert not any(name.startswith((".venv/", "build/", "dist/", ".ci/")) for name in names)
    assert "License-Expression: Apache-2.0" in pkg_info
    assert "License-File: cpp/third_party/croaring/LICENSE" in pkg_info
    assert "Classifier: Programming Language :: C++" in pkg_info
