"""pyfileindex.spark.worker_memory: executor tasks keep freed heap for their next file.

Run in a child process each, since the setting is process-wide.
"""

import platform
import subprocess
import sys
import textwrap

import pytest

# Three 8 MiB blocks freed together leave more free heap at the top than glibc's default
# trim threshold (twice its adapted mmap threshold), so by default every round hands them
# back and faults them in again; with freed heap kept, later rounds fault nothing.
PROBE = textwrap.dedent("""
    import resource
    from pyfileindex.spark.worker_memory import keep_freed_heap

    def minor_faults():
        return resource.getrusage(resource.RUSAGE_SELF).ru_minflt

    def churn():
        before = minor_faults()
        for _ in range(10):
            blocks = [bytearray(8 << 20) for _ in range(3)]
            del blocks
        return minor_faults() - before

    churn()  # glibc adapts its thresholds to the block size
    default = churn()
    applied = keep_freed_heap()
    churn()
    kept = churn()
    print(applied, keep_freed_heap(), default, kept)
""")


def run_probe(cwd):
    # Not from the project root: `-c` would import the source tree, which has no extension.
    out = subprocess.run([sys.executable, "-c", PROBE], check=True, capture_output=True,
                         text=True, cwd=cwd).stdout.split()
    return out[0] == "True", out[1] == "True", int(out[2]), int(out[3])


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="the setting is glibc's")
def test_freed_heap_is_kept_for_the_next_allocations(tmp_path):
    applied, again, default, kept = run_probe(tmp_path)
    assert applied and again
    # 10 rounds of 24 MiB: ~61k page faults by default (at least a third of them counted
    # here, however the kernel batches), next to none once freed heap is kept.
    assert default > 20000
    assert kept * 20 < default

