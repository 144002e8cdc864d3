"""The PEP 517 build backend of pyfileindex: scikit-build-core, with CRoaring vendored first.

CRoaring is not committed; cmake/fetch_croaring.py takes it from the pinned pyroaring sdist
with pip. Doing that here, before scikit-build-core starts, gives every front end the same
result: `pip install .`, `pip wheel .` and `python -m build` from a checkout, and a plain
build from an sdist, which already carries the files and so needs no network at all.

Two things only a backend hook can do:
- an isolated build environment has no pip, so a checkout without CRoaring asks for pip as
  one more build requirement (an sdist, complete already, does not);
- the sdist is written after CRoaring is in place, so it carries it, and the license files
  the metadata names (CRoaring's among them) exist when scikit-build-core looks for them,
  which is before CMake would have run the fetch itself.
"""

from __future__ import annotations

import fetch_croaring
from scikit_build_core import build as _scikit_build

def _croaring_vendored() -> bool:
    return fetch_croaring.is_complete(fetch_croaring.DEFAULT_DEST)


def _with_pip_if_fetching(requires: list[str]) -> list[str]:
    return list(requires) if _croaring_vendored() else [*requires, "pip"]


def _vendor_croaring() -> None:
    try:
        fetch_croaring.fetch(fetch_croaring.DEFAULT_DEST)
    except (fetch_croaring.FetchError, OSError) as err:
        raise RuntimeError(
            f"could not vendor CRoaring {fetch_croaring.CROARING_VERSION} into "
            f"{fetch_croaring.DEFAULT_DEST}: {err}. A checkout needs pip and the Python package "
            "index to fetch it; an sdist of pyfileindex carries it already."
        ) from err


def get_requires_for_build_sdist(config_settings=None):
    return _with_pip_if_fetching(_scikit_build.get_requires_for_build_sdist(config_settings))


def get_requires_for_build_wheel(config_settings=None):
    return _with_pip_if_fetching(_scikit_build.get_requires_for_build_wheel(config_settings))


def get_requires_for_build_editable(config_settings=None):
    return _with_pip_if_fetching(_scikit_build.get_requires_for_build_editable(config_settings))


# The metadata names CRoaring's license file, so it is vendored before metadata too.
def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    _vendor_croaring()
    return _scikit_build.prepare_metadata_for_build_wheel(metadata_directory, config_settings)


def prepare_metadata_for_build_editable(metadata_directory, config_settings=None):
    _vendor_croaring()
    return _scikit_build.prepare_metadata_for_build_editable(metadata_directory, config_settings)


def build_sdist(sdist_directory, config_settings=None):
    _vendor_croaring()
    return _scikit_build.build_sdist(sdist_directory, config_settings)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    _vendor_croaring()
    return _scikit_build.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    _vendor_croaring()
    return _scikit_build.build_editable(wheel_directory, config_settings, metadata_directory)
