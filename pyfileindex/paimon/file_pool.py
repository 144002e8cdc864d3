"""Per-file work of a plan, a count or a read, on a thread pool when there are several files.

The native reader and pyarrow release the GIL, so the files' index reads and data reads
overlap on the pool's threads."""

from concurrent.futures import ThreadPoolExecutor
from typing import Callable, List, Sequence, TypeVar

Item = TypeVar("Item")
Answer = TypeVar("Answer")


def map_files(function: Callable[[Item], Answer], items: Sequence[Item],
              max_workers: int) -> List[Answer]:
    """[function(item) for item in items], in order, on up to `max_workers` threads."""
    if len(items) <= 1 or max_workers <= 1:
        return [function(item) for item in items]
    with ThreadPoolExecutor(max_workers=min(max_workers, len(items))) as pool:
        return list(pool.map(function, items))
