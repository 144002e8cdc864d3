#!/usr/bin/env python3
"""Vendor the CRoaring amalgamation (roaring.c / roaring.h) into cpp/third_party/croaring/.

CRoaring is not committed to this repository. Its single-file amalgamation ships inside the
pyroaring sdist on PyPI, so we take it from there with pip (the only network access this
project allows) and pin it by the sdist's sha256. CMake runs this at configure time when
the files are missing; it is also safe to run by hand. Standard library only.

Usage: python3 cmake/fetch_croaring.py [--dest DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

PACKAGE = "pyroaring"
PACKAGE_VERSION = "1.2.0"
SDIST_NAME = f"{PACKAGE}-{PACKAGE_VERSION}.tar.gz"
SDIST_SHA256 = "e33bf8fc8d8aad7373f62147cb5dbfaf0fdcf19af8069d034cd8ef4fb41a78af"
CROARING_VERSION = "5.2.2"
MEMBERS = {  # name inside the sdist -> name in the destination
    f"{PACKAGE}-{PACKAGE_VERSION}/pyroaring/roaring.c": "roaring.c",
    f"{PACKAGE}-{PACKAGE_VERSION}/pyroaring/roaring.h": "roaring.h",
}
VERSION_LINE = f'#define ROARING_VERSION "{CROARING_VERSION}"'
OUTPUT_FILES = ("roaring.c", "roaring.h", "LICENSE")

DEFAULT_DEST = Path(__file__).resolve().parent.parent / "cpp" / "third_party" / "croaring"


class FetchError(Exception):
    pass


def log(msg: str) -> None:
    print(f"fetch_croaring: {msg}", flush=True)


def is_complete(dest: Path) -> bool:
    """True when dest already holds all files and the header is the pinned version."""
    if not all((dest / name).is_file() for name in OUTPUT_FILES):
        return False
    return VERSION_LINE in (dest / "roaring.h").read_text(encoding="utf-8", errors="replace")


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def download_sdist(workdir: Path) -> Path:
    # --no-binary for this one package only: ":all:" would also force pip to build the
    # sdist's own build requirements (Cython) from source, which takes minutes.
    cmd = [
        sys.executable, "-m", "pip", "download",
        "--no-deps", "--no-binary", PACKAGE, "--disable-pip-version-check",
        f"{PACKAGE}=={PACKAGE_VERSION}", "-d", str(workdir),
    ]
    log("running: " + " ".join(cmd))
    # Run from a build backend (cmake/build_backend.py), this process carries the hook
    # runner's variables naming *our* backend and backend path; the pip below prepares the
    # pyroaring sdist's metadata through its own hooks, which would inherit them.
    env = {name: value for name, value in os.environ.items()
           if not name.startswith(("_PYPROJECT_HOOKS_", "PEP517_"))}
    env["PIP_NO_INPUT"] = "1"
    result = subprocess.run(cmd, env=env)
    if result.returncode != 0:
        raise FetchError(f"pip download failed with exit code {result.returncode}")
    sdist = workdir / SDIST_NAME
    if not sdist.is_file():
        found = ", ".join(p.name for p in workdir.iterdir()) or "nothing"
        raise FetchError(f"pip did not produce {SDIST_NAME} (got: {found})")
    actual = sha256_of(sdist)
    if actual != SDIST_SHA256:
        raise FetchError(f"{SDIST_NAME} sha256 mismatch: expected {SDIST_SHA256}, got {actual}")
    return sdist


def extract_members(sdist: Path, outdir: Path) -> None:
    with tarfile.open(sdist, "r:gz") as tar:
        for member_name, out_name in MEMBERS.items():
            try:
                member = tar.getmember(member_name)
            except KeyError:
                raise FetchError(f"{member_name} not found in {SDIST_NAME}") from None
            if not member.isfile():
                raise FetchError(f"{member_name} in {SDIST_NAME} is not a regular file")
            source = tar.extractfile(member)
            assert source is not None  # regular files always have a stream
            with source, (outdir / out_name).open("wb") as target:
                shutil.copyfileobj(source, target)


def license_notice(roaring_c: Path) -> str:
    """The dual Apache-2.0/MIT notice: the comment blocks before the first #include."""
    text = roaring_c.read_text(encoding="utf-8")
    head = text.split("#include", 1)[0]
    blocks = re.findall(r"/\*(.*?)\*/", head, flags=re.S)
    if not blocks or not any("Apache" in b for b in blocks) or not any("MIT" in b for b in blocks):
        raise FetchError("could not find the CRoaring license notice at the top of roaring.c")
    paragraphs = []
    for block in blocks:
        lines = [re.sub(r"^\s*\* ?", "", line).rstrip() for line in block.strip("\n").splitlines()]
        paragraphs.append("\n".join(lines).strip("\n"))
    return "\n\n".join(paragraphs) + "\n"


def write_license(outdir: Path) -> None:
    provenance = (
        f"CRoaring {CROARING_VERSION} amalgamation (roaring.c, roaring.h), extracted unmodified "
        f"from the {PACKAGE} {PACKAGE_VERSION} source distribution {SDIST_NAME} "
        f"(sha256 {SDIST_SHA256}) by cmake/fetch_croaring.py.\n"
    )
    notice = license_notice(outdir / "roaring.c")
    (outdir / "LICENSE").write_text(provenance + "\n" + notice, encoding="utf-8")


def check_version(outdir: Path) -> None:
    header = (outdir / "roaring.h").read_text(encoding="utf-8", errors="replace")
    if VERSION_LINE not in header:
        raise FetchError(f"roaring.h does not contain '{VERSION_LINE}'")


def publish(staging: Path, dest: Path) -> None:
    """Move the finished staging dir into place with one rename, so a reader never sees a
    half-written croaring/ directory."""
    if dest.exists():
        shutil.rmtree(dest)  # incomplete or wrong version: is_complete() said so
    try:
        os.rename(staging, dest)
    except OSError:
        if is_complete(dest):  # a concurrent run won the race; its result is as good
            shutil.rmtree(staging, ignore_errors=True)
            return
        raise


def fetch(dest: Path) -> None:
    if is_complete(dest):
        log(f"CRoaring {CROARING_VERSION} already present in {dest}")
        return
    dest.parent.mkdir(parents=True, exist_ok=True)
    # Staging lives beside dest so the final rename stays on one filesystem.
    staging = Path(tempfile.mkdtemp(prefix=".croaring-staging-", dir=dest.parent))
    staging.chmod(0o755)  # mkdtemp makes it private; the published dir should not be
    try:
        with tempfile.TemporaryDirectory(prefix="croaring-download-") as workdir:
            sdist = download_sdist(Path(workdir))
            extract_members(sdist, staging)
        check_version(staging)
        write_license(staging)
        publish(staging, dest)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    log(f"CRoaring {CROARING_VERSION} written to {dest}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dest", type=Path, default=DEFAULT_DEST,
                        help="output directory (default: cpp/third_party/croaring)")
    args = parser.parse_args(argv)
    try:
        fetch(args.dest.resolve())
    except (FetchError, OSError, tarfile.TarError) as err:
        print(f"fetch_croaring: error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
