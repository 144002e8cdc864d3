"""The installed package and its native extension are usable (build infrastructure checks)."""

import os
import subprocess
import sys
from pathlib import Path

import pyfileindex
from conftest import PROJECT_ROOT


def test_imports_from_an_unrelated_directory(tmp_path: Path) -> None:
    probe = "import pyfileindex; print(pyfileindex.croaring_version(), pyfileindex.__file__)"
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    version, location = result.stdout.split()
    assert version == "5.2.2"
    assert PROJECT_ROOT / "pyfileindex" not in Path(location).resolve().parents


def test_tests_use_the_installed_package_not_the_source_tree() -> None:
    # The source tree has no compiled extension; importing it would test nothing native.
    location = Path(pyfileindex.__file__).resolve()
    assert PROJECT_ROOT / "pyfileindex" not in location.parents


def test_croaring_version_is_the_vendored_one() -> None:
    assert pyfileindex.croaring_version() == "5.2.2"


def test_library_version_matches_package_metadata() -> None:
    from importlib.metadata import version

    assert pyfileindex.library_version() == version("pyfileindex")
    assert pyfileindex.__version__ == version("pyfileindex")


def test_console_script_entry_point_is_installed() -> None:
    from importlib.metadata import entry_points

    eps = entry_points()
    # Python 3.9 returns a dict of groups; 3.10+ has .select().
    group = eps.select(group="console_scripts") if hasattr(eps, "select") else eps["console_scripts"]
    scripts = {ep.name: ep.value for ep in group}
    assert scripts.get("pyfileindex") == "pyfileindex.cli:main"


def test_shared_dir_is_beside_the_project(shared_dir: Path, golden_dir: Path) -> None:
    assert shared_dir == (PROJECT_ROOT / ".." / "shared").resolve()
    assert golden_dir.parent == shared_dir


def test_simd_level_follows_the_cpu_under_the_environment_cap(tmp_path: Path) -> None:
    levels = ["scalar", "avx2", "avx512", "avx512-icelake"]
    assert pyfileindex.simd_level() in levels
    probe = "import pyfileindex; print(pyfileindex.simd_level())"

    def level_under(cap: str) -> str:
        env = dict(os.environ, PYFILEINDEX_SIMD=cap)
        return subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env,
                              capture_output=True, text=True, check=True).stdout.strip()

    native = levels.index(pyfileindex.simd_level()) if "PYFILEINDEX_SIMD" not in os.environ \
        else levels.index(level_under("avx512-icelake"))
    for cap in levels:  # a cap lowers the level to itself, and never raises it
        assert level_under(cap) == levels[min(levels.index(cap), native)]
    assert level_under("no-such-level") == levels[native]  # a typo caps nothing
