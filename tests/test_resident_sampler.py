"""benchmarks/resident_sampler.py: the benchmark's peak memory sees what lived only briefly.

The kernel's high-water mark misses a few hundred KiB touched and handed back between two
shrinks of the resident set; the sampler must not, and must not count more than was there.
"""

import mmap
import platform
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(platform.system() != "Linux",
                                reason="reads /proc/self/statm (Linux)")

BENCHMARKS = str(Path(__file__).resolve().parents[1] / "benchmarks")
sys.path.append(BENCHMARKS)

from resident_sampler import PAGE_BYTES, ResidentSampler  # noqa: E402

PAGES = 48  # 192 KiB: within the kernel mark's error, far above the sampler's


def touch_briefly(pages: int) -> None:
    """Makes `pages` fresh pages resident for 20 ms (the GIL released), then unmaps them."""
    block = mmap.mmap(-1, pages * PAGE_BYTES)
    for page in range(pages):
        block[page * PAGE_BYTES] = 1
    time.sleep(0.02)
    block.close()


def test_sees_pages_that_were_resident_only_briefly():
    with ResidentSampler() as sampler:
        touch_briefly(PAGES)
        after = sampler.mark()
    assert after < PAGES * PAGE_BYTES // 2  # handed back: gone from the resident set
    # All of them, and not much besides: the interpreter's own pages of a sleep and a loop.
    assert PAGES * PAGE_BYTES <= sampler.peak_bytes() <= (PAGES + 16) * PAGE_BYTES


def test_mark_reads_the_resident_set_exactly_now():
    with ResidentSampler() as sampler:
        block = mmap.mmap(-1, PAGES * PAGE_BYTES)
        before = sampler.mark()
        for page in range(PAGES):
            block[page * PAGE_BYTES] = 1
        grown = sampler.mark() - before
        block.close()
    assert PAGES * PAGE_BYTES <= grown <= (PAGES + 1) * PAGE_BYTES  # a stray page at most


def test_restores_the_interpreter_switch_interval():
    interval = sys.getswitchinterval()
    with ResidentSampler():
        assert sys.getswitchinterval() < interval
    assert sys.getswitchinterval() == interval
