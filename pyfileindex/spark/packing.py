"""Pack the virtual environment the executors run (venv-pack), for `spark.archives`.

The archive holds this interpreter's environment with pyfileindex installed from its
wheel (the native core travels inside it), pypaimon, pyarrow and numpy. pyspark itself is
left out: Spark puts its own pyspark.zip and py4j on the executors' Python path. Packed
environments made by `python -m venv` link to the base interpreter, which must exist at
the same path on every worker (the same OS image); see docs/SPARK.md.
"""

import os
import sys
from typing import Iterable, Optional

# Large packages executors never import.
DEFAULT_EXCLUDES = (
    "lib/python*/site-packages/pyspark/*",
    "lib/python*/site-packages/Cython/*",
    "lib/python*/site-packages/pip/*",
    "lib/python*/site-packages/hypothesis/*",
)


def _is_current(output: str, prefix: str) -> bool:
    """An archive newer than the environment's site-packages directory (which changes
    whenever a package is installed or removed) is reused."""
    if not os.path.exists(output):
        return False
    import glob
    sites = glob.glob(os.path.join(prefix, "lib", "python*", "site-packages"))
    newest = max((os.path.getmtime(s) for s in sites), default=float("inf"))
    return os.path.getmtime(output) > newest


def pack_environment(output: str, prefix: Optional[str] = None,
                     excludes: Iterable[str] = DEFAULT_EXCLUDES, force: bool = False) -> str:
    """Write the environment at `prefix` (default: this interpreter's venv) to `output`
    (.tar.gz or .tgz) and return its absolute path.

    Only gzipped tars keep the interpreter symlink and file permissions when Spark unpacks
    them (it extracts them with the system tar; plain .tar goes through a Java extractor
    that refuses links leaving the archive and drops permissions)."""
    if not str(output).endswith((".tar.gz", ".tgz")):
        raise ValueError(f"{output}: the packed environment must be a .tar.gz or .tgz file")
    try:
        import venv_pack
    except ImportError as exc:
        raise RuntimeError("packing an environment for Spark needs venv-pack "
                           "(pip install 'pyfileindex[spark]')") from exc
    prefix = os.path.abspath(prefix or sys.prefix)
    output = os.path.abspath(output)
    if prefix == getattr(sys, "base_prefix", prefix) and not os.path.exists(
            os.path.join(prefix, "pyvenv.cfg")):
        raise RuntimeError(f"{prefix} is not a virtual environment; create one with "
                           "python -m venv and install pyfileindex[spark] into it")
    if not force and _is_current(output, prefix):
        return output
    os.makedirs(os.path.dirname(output) or ".", exist_ok=True)
    filters = [("exclude", pattern) for pattern in excludes]
    venv_pack.pack(prefix=prefix, output=output, force=True, filters=filters,
                   compress_level=1, verbose=False)
    return output
