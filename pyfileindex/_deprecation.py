"""Old public names kept working for a while, with a DeprecationWarning naming the new one."""

import warnings
from typing import Any, Callable, Dict, Tuple


def deprecated_names(module: str, renamed: Dict[str, Tuple[str, Any]]) -> Callable[[str], Any]:
    """A module-level ``__getattr__`` resolving each old name in `renamed`
    ({old name: (what to use instead, the object)}) with a warning; other names raise
    AttributeError as usual."""

    def __getattr__(name: str) -> Any:
        if name in renamed:
            instead, value = renamed[name]
            warnings.warn(f"{module}.{name} is deprecated; use {instead}", DeprecationWarning,
                          stacklevel=2)
            return value
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__
