"""Wall-clock timing for pyfileindex calls, shaped like the Java harness's in-JVM timing.

Both sides make untimed warm-up calls (at least `warmup` calls and `warmup_s` seconds: the
JVM needs time for its JIT), then time each call on its own (perf_counter_ns here,
System.nanoTime in the JVM) until at least `repeat` calls and `budget_s` seconds have passed
(or `max_runs` calls), and report the median. The median of single calls, not a mean of a
loop, so one slow call (a page fault, a GC) does not move it.
"""

from __future__ import annotations

import dataclasses
import statistics
import sys
import time
from typing import Callable, Dict, List


@dataclasses.dataclass
class Timing:
    times_ns: List[int]

    @property
    def median_ns(self) -> int:
        return int(statistics.median(self.times_ns))

    @property
    def min_ns(self) -> int:
        return min(self.times_ns)

    def as_dict(self) -> Dict[str, int]:
        return {"median_ns": self.median_ns, "min_ns": self.min_ns, "runs": len(self.times_ns)}


@dataclasses.dataclass(frozen=True)
class Budget:
    """How long to measure one operation (the same fields go to the Java side)."""

    warmup: int = 3
    warmup_s: float = 0.0
    repeat: int = 5
    budget_s: float = 1.0
    max_runs: int = 1000

    def java(self) -> Dict[str, int]:
        return {"warmup": self.warmup, "warmup_ms": int(self.warmup_s * 1000),
                "repeat": self.repeat,
                "budget_ms": int(self.budget_s * 1000), "max_runs": self.max_runs}


def measure(call: Callable[[], object], budget: Budget) -> Timing:
    clock = time.perf_counter_ns
    warm_until = clock() + int(budget.warmup_s * 1e9)
    done = 0
    while done < budget.warmup or clock() < warm_until:
        call()
        done += 1
    times: List[int] = []
    began = clock()
    deadline = began + int(budget.budget_s * 1e9)
    while True:
        start = clock()
        call()
        end = clock()
        times.append(end - start)
        if len(times) >= budget.max_runs:
            break
        if len(times) >= budget.repeat and end >= deadline:
            break
    return Timing(times)


def load_average() -> str:
    """The 1, 5 and 15-minute load averages, recorded beside every measurement."""
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def progress(text: str) -> None:
    """Progress lines go to stderr: stdout carries the result table."""
    print(text, file=sys.stderr, flush=True)


def median_seconds(action: Callable[[], object], repeat: int):
    """(median wall seconds of `repeat` timed calls after one warm-up call, the last call's
    result): for the whole-table routes, each call far longer than the clock's resolution."""
    action()
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def interleaved_medians(actions: Dict[str, Callable[[], object]], repeat: int,
                        seen: Callable[[str, object], None] = lambda name, result: None
                        ) -> Dict[str, float]:
    """Median wall seconds of each action over `repeat` rounds, after one warm-up round.
    Each round calls every action once, starting one further along each time, so a drift
    of the machine (cache, clock, another process) falls on every action alike rather than
    on whichever ran last. `seen(name, result)` gets every result, which is then dropped:
    no more than one result is held at a time."""
    names = list(actions)
    for name in names:
        seen(name, actions[name]())
    times: Dict[str, List[float]] = {name: [] for name in names}
    for round_ in range(repeat):
        for name in names[round_ % len(names):] + names[:round_ % len(names)]:
            start = time.perf_counter()
            result = actions[name]()
            times[name].append(time.perf_counter() - start)
            seen(name, result)
            del result
    return {name: statistics.median(spent) for name, spent in times.items()}

