"""Which columns each sidecar indexes, remembered per process.

A query on a column no sidecar indexes would otherwise open every sidecar of the table
to read its header and find nothing to ask: on an object store, two requests per data
file for no pruning. Once a header has been read, its column names are kept here, keyed
by the sidecar's path, and a later query on none of them leaves that sidecar unread.

Only that negative use is made of what is remembered, so a stale entry can never cost an
answer its soundness: a sidecar replaced under the same name (Paimon names sidecars after
their data file, and a rewrite picks a new name) could at worst be left unread and its
file read whole (REMAIN), never skipped. A query on a column a sidecar is remembered to
hold reads its header again, as before, and refreshes the entry.
"""

import threading
from collections import OrderedDict
from typing import Collection, FrozenSet

MAX_SIDECARS = 65_536  # a few MB of names at most; the least recently used go first

_lock = threading.Lock()
_columns: "OrderedDict[str, FrozenSet[str]]" = OrderedDict()


def remember(path: str, columns: Collection[str]) -> None:
    """Record that the sidecar at `path` indexes exactly `columns` (file-side names)."""
    held = frozenset(columns)
    with _lock:
        _columns[path] = held
        _columns.move_to_end(path)
        while len(_columns) > MAX_SIDECARS:
            _columns.popitem(last=False)


def indexes_none_of(path: str, columns: Collection[str]) -> bool:
    """True when the sidecar at `path` is known to index none of `columns`: reading it
    could answer nothing about them."""
    with _lock:
        held = _columns.get(path)
        if held is None:
            return False
        _columns.move_to_end(path)
    return held.isdisjoint(columns)


def forget_all() -> None:
    """Drop every remembered sidecar (for tests, or after replacing sidecars in place)."""
    with _lock:
        _columns.clear()
