"""Runs a pack on both sides and judges every byte and every answer.

For a pack: (1) pyfileindex's container bytes == Java's (or both refuse to write); (2) per
question, Java's answer on our bytes == Java 2.0's modelled answer (this checks the oracle),
and our answer on Java's bytes == Java's answer == brute force - except where Java is
knowingly wrong (its modelled answer drops true matches: TIMESTAMP keys coarser than the
values or literals, apache/paimon#9140) or throws: there ours must keep every true match and
stay within what the index keys allow (oracle.bound_*), and the cases are counted. TopN: ours
== the brute-force TopN of the sorted values (strict, or WITH TIES: every row tied with the
limit-th), and == Java where Java is right (not #9140, not the tied NULLs of #9280).
Negated predicates: Java's tree is modelled as the harness builds and negates it
(negation.java_form); where it holds a NotBetween (REMAIN in 2.0, docs/DIFFERENCES.md) ours is
judged against its `< a OR > b` answer instead, and Java's may only be looser than that.

Nothing is asserted here: problems are collected as Mismatch records in Stats, so one run
reports all of them; the tests assert that none were found.
"""

from __future__ import annotations

import collections
import time
import traceback
from dataclasses import dataclass, field
from typing import Callable, Counter, Iterable, List, Optional

import pyfileindex as pfi

from differential import oracle
from differential.cases import (
    Pack,
    bound_answer,
    java_answer,
    java_tree,
    leaves,
    lossy,
    ours_model,
    to_java,
    to_ours,
    truth,
)
from differential.index_kinds import KINDS
from differential.negation import contains_not_between, has_not

MAX_RECORDED = 60


@dataclass
class Mismatch:
    what: str  # bytes, write, answer, model, topn, crash
    pack: str
    detail: str

    def __str__(self):
        return f"[{self.what}] {self.pack}\n{self.detail}"


@dataclass
class Stats:
    cases: Counter = field(default_factory=collections.Counter)  # (kind, family) -> count
    packs: int = 0
    predicates: int = 0
    top_n: int = 0
    both_refused: int = 0
    java_throws: int = 0  # questions Java 2.0 cannot answer (it throws)
    java_wrong: Counter = field(default_factory=collections.Counter)  # why -> count
    ours_differs_where_java_wrong: int = 0
    lossy_checked: int = 0
    ours_more_precise: int = 0
    negated: int = 0  # predicates with a NOT
    java_not_between_looser: int = 0  # ... where Java's NotBetween keeps more (DIFFERENCES.md)
    seconds: Counter = field(default_factory=collections.Counter)
    mismatches: List[Mismatch] = field(default_factory=list)
    mismatch_count: int = 0

    def record(self, what: str, pack: Pack, detail: str) -> None:
        self.mismatch_count += 1
        if len(self.mismatches) < MAX_RECORDED:
            self.mismatches.append(Mismatch(what, pack.label, detail))

    def summary(self) -> str:
        lines = [f"{self.packs} packs, {sum(self.cases.values())} column cases, "
                 f"{self.predicates} predicates, {self.top_n} TopN requests, "
                 f"{self.both_refused} cases both sides refused, {self.java_throws} questions "
                 "Java throws on",
                 f"Java knowingly wrong (ours checked for soundness instead): "
                 f"{dict(self.java_wrong)}; ours differs there: "
                 f"{self.ours_differs_where_java_wrong}",
                 f"lossy timestamp keys: {self.lossy_checked} answers checked for soundness, "
                 f"ours more precise than Java in {self.ours_more_precise}",
                 f"negated predicates: {self.negated}, Java's NOT BETWEEN looser than ours in "
                 f"{self.java_not_between_looser}",
                 "time: " + ", ".join(f"{k} {v:.1f}s" for k, v in sorted(self.seconds.items())),
                 f"mismatches: {self.mismatch_count}"]
        by_kind = collections.defaultdict(dict)
        for (kind, family), n in sorted(self.cases.items()):
            by_kind[kind][family] = n
        for kind, families in by_kind.items():
            lines.append(f"  {kind}: " + ", ".join(f"{f}={n}" for f, n in families.items()))
        return "\n".join(lines)

    def report(self, limit: int = 15) -> str:
        shown = "\n\n".join(str(m) for m in self.mismatches[:limit])
        return f"{self.summary()}\n\n{shown}"


def describe_bytes_difference(ours: Optional[bytes], theirs: Optional[bytes]) -> str:
    if ours is None or theirs is None:
        return f"ours {'None' if ours is None else len(ours)} B, Java " \
               f"{'None' if theirs is None else len(theirs)} B"
    first = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b),
                 min(len(ours), len(theirs)))
    lo = max(0, first - 8)
    return (f"ours {len(ours)} B, Java {len(theirs)} B, first difference at offset {first}:\n"
            f"  ours [{lo}:] {ours[lo:first + 16].hex(' ')}\n"
            f"  Java [{lo}:] {theirs[lo:first + 16].hex(' ')}")


@dataclass
class JavaSide:
    """Everything Java says about a pack: its bytes, and its answers on our bytes."""

    bytes: Optional[bytes] = None
    error: Optional[str] = None
    answers: Optional[list] = None  # raw answer dicts, one per predicate
    top_n: Optional[list] = None  # raw TopN answers, one per request
    seconds: Counter = field(default_factory=collections.Counter)


class PackRunner:
    """Checks packs: our writer and Java's, then each side's reader on the other's bytes."""

    def __init__(self, harness, stats: Stats, localize: bool = True):
        self.harness = harness
        self.stats = stats
        self.localize = localize

    # -- the two sides

    def _ours_write(self, pack: Pack):
        began = time.perf_counter()
        try:
            return pfi.build_index(pack.arrow_table(), pack.fields, pack.options()), None
        except (pfi.FileIndexError, ValueError, TypeError, OverflowError) as e:
            return None, f"{type(e).__name__}: {e}"
        finally:
            self.stats.seconds["ours write"] += time.perf_counter() - began

    def _java_write(self, pack: Pack):
        from java_harness import JavaRequestError

        try:
            return self.harness.write(pack.fields, pack.java_columns(), pack.options()), None
        except JavaRequestError as e:
            return None, str(e)

    def java_side(self, pack: Pack, ours: Optional[bytes]) -> JavaSide:
        """Java's bytes; Java's answers and TopN on our bytes (when we wrote some)."""
        side = JavaSide()
        began = time.perf_counter()
        side.bytes, side.error = self._java_write(pack)
        side.seconds["java write"] += time.perf_counter() - began
        if ours is None or pack.expect_error:
            return side
        began = time.perf_counter()
        if pack.predicates:
            side.answers = self.harness.read(ours, pack.fields,
                                             [to_java(p) for p in pack.predicates])
        middle = time.perf_counter()
        side.top_n = [self.harness.topn(
            ours, pack.fields, r.column, limit=r.limit, descending=r.descending,
            nulls_first=r.nulls_first,
            selection=None if r.selection is None else sorted(r.selection),
            with_ties=r.with_ties)
            for r in pack.top_n]
        side.seconds["java read"] += middle - began
        side.seconds["java topn"] += time.perf_counter() - middle
        return side

    # -- one pack

    def run(self, pack: Pack) -> bool:
        """Checks the pack; True when it was fully compared (bytes and answers)."""
        ours, ours_error = self._ours_write(pack)
        try:
            side = self.java_side(pack, ours)
        except Exception:  # noqa: BLE001 - a crash is a finding, keep going
            self.stats.packs += 1
            self.stats.record("crash", pack, traceback.format_exc(limit=6) + pack.describe())
            return False
        return self.finish(pack, ours, ours_error, side)

    def run_stream(self, packs: Iterable[Pack], done: Callable[[], bool] = lambda: False) -> int:
        """Runs packs until they run out or done() holds; returns how many ran.

        Sequential on purpose: overlapping the JVM with our side in a thread was measured
        (2 cores) and gained nothing - both sides are CPU-bound."""
        count = 0
        for pack in packs:
            if done():
                break
            self.run(pack)
            count += 1
        return count

    def finish(self, pack: Pack, ours, ours_error, side: JavaSide) -> bool:
        stats = self.stats
        stats.packs += 1
        stats.seconds.update(side.seconds)
        try:
            return self._compare(pack, ours, ours_error, side)
        except Exception:  # noqa: BLE001 - a crash is a finding, keep going
            stats.record("crash", pack, traceback.format_exc(limit=6) + pack.describe())
            return False

    def _compare(self, pack: Pack, ours, ours_error, side: JavaSide) -> bool:
        stats = self.stats
        theirs, java_error = side.bytes, side.error
        if java_error or ours_error:
            if java_error and ours_error and pack.expect_error:
                stats.both_refused += 1
                return True
            what = "write" if not (java_error and ours_error) else "both-refused"
            stats.record(what, pack, f"ours error: {ours_error}\nJava error: {java_error}\n"
                         + pack.describe())
            return False
        if pack.expect_error:
            stats.record("write", pack, "both sides wrote bytes, an error was expected\n"
                         + pack.describe())
            return False
        if ours != theirs:
            detail = describe_bytes_difference(ours, theirs)
            if self.localize and len(pack.columns) > 1:
                detail += "\n" + self._localize(pack)
            stats.record("bytes", pack, detail + "\n" + pack.describe())
        if ours is None:
            return True
        self._answers(pack, side.answers, theirs)
        self._top_n(pack, side.top_n, theirs)
        for column in pack.columns:
            for kind in column.indexes:
                stats.cases[(kind, column.family)] += 1
        return True

    def _localize(self, pack: Pack) -> str:
        alone = []
        for column in pack.columns:
            single = Pack(pack.label + f" column {column.name!r}", pack.rows, [column],
                          batch_sizes=pack.batch_sizes)
            ours, _ = self._ours_write(single)
            theirs, _ = self._java_write(single)
            if ours != theirs:
                alone.append(f"{column.name!r} alone: "
                             + describe_bytes_difference(ours, theirs).splitlines()[0])
        if not alone:
            return "every column alone gives equal bytes: the container (column order) differs"
        return "\n".join(alone)

    # -- predicates

    def _answers(self, pack: Pack, java_raw: Optional[list], java_bytes: bytes) -> None:
        stats = self.stats
        if not pack.predicates:
            return
        began = time.perf_counter()
        reader = pfi.IndexReader(java_bytes, pack.fields)
        ours_answers = []
        for predicate in pack.predicates:
            try:
                ours_answers.append(oracle.from_ours(reader.evaluate(to_ours(predicate, pack))))
            except pfi.FileIndexError as e:
                ours_answers.append(("ERROR", f"{type(e).__name__}: {e}"))
        end = time.perf_counter()
        stats.seconds["ours read"] += end - began
        for predicate, raw, ours in zip(pack.predicates, java_raw, ours_answers):
            stats.predicates += 1
            self._judge(pack, predicate, oracle.from_java(raw), ours)
        stats.seconds["oracle"] += time.perf_counter() - end

    def _judge(self, pack: Pack, predicate, java: oracle.Answer, ours: oracle.Answer) -> None:
        stats = self.stats
        model = java_answer(predicate, pack)
        true_rows = truth(predicate, pack)

        def problem(what: str, text: str) -> None:
            stats.record(what, pack, (
                f"{text}\n  predicate: {predicate}\n  ours: {oracle.describe(ours)}\n"
                f"  Java: {oracle.describe(java)}\n  Java 2.0 model: {oracle.describe(model)}\n"
                f"  truth: {oracle.describe(oracle.rows(true_rows))}\n"
                + "\n".join("  " + pack.column(c).summary(40) for c in sorted(
                    predicate.columns()))))

        if not oracle.same(java, model):
            problem("model", "Java's answer differs from the modelled Java 2.0 answer")
        reference, reference_model = java, model  # what ours is judged against
        if has_not(predicate):
            stats.negated += 1
            expected = ours_model(predicate, pack)
            if not oracle.same(expected, model):
                self._judge_not_between(pack, predicate, model, expected, problem)
                reference, reference_model = expected, expected
        if oracle.is_error(reference_model):  # Java throws: ours may refuse, or answer soundly
            if not (oracle.is_error(ours) or oracle.sound(ours, true_rows)):
                problem("answer", "Java throws; ours answers and drops true matches")
            stats.java_throws += 1
            return
        # A tree can come out sound although a leaf drops true matches (an AND with a leaf
        # that leaves nothing to drop); ours answers that leaf rightly, so judge by leaves too.
        java_sound = (oracle.sound(reference_model, true_rows)
                      and not self._wrong_leaves(predicate, pack))
        if java_sound and not lossy(predicate, pack):
            if ours != reference:
                problem("answer", "ours differs from Java" if reference is java else
                        "ours differs from the `< a OR > b` answer of its NOT BETWEEN")
            elif not oracle.at_least_as_precise(ours, java, pack.rows):
                problem("answer", "ours selects rows that Java's answer drops")
            return
        if not java_sound:
            stats.java_wrong[self._why_java_wrong(predicate, pack)] += 1
            if ours != reference:
                stats.ours_differs_where_java_wrong += 1
        else:
            stats.lossy_checked += 1
            if ours != reference:
                stats.ours_more_precise += 1
        bound = bound_answer(predicate, pack)
        if not oracle.sound(bound, true_rows):
            problem("model", "the oracle's bound drops true matches (oracle bug)")
        if not oracle.sound(ours, true_rows):
            problem("answer", "ours drops rows that match (Java "
                    + ("is known to be wrong here" if not java_sound else "keeps them") + ")")
        elif not oracle.at_least_as_precise(ours, bound, pack.rows):
            problem("answer", "ours selects rows that the index keys rule out: "
                    f"{oracle.describe(bound)} would do")

    def _judge_not_between(self, pack: Pack, predicate, model, expected, problem) -> None:
        """Where Java's tree and ours answer differently. The one difference allowed: a negated
        BETWEEN (also a `>= a AND <= b` that Java's PredicateBuilder.and merges into one) is a
        NotBetween leaf in Java, which 2.0's indexes answer REMAIN, and `< a OR > b` in ours
        (DIFFERENCES.md). There Java may be looser than ours, never stricter; ours is then
        judged against the `< a OR > b` answer."""
        if not contains_not_between(java_tree(predicate, pack)):
            problem("model", "the tree ours answers and Java's differ without a NotBetween "
                    f"(ours modelled: {oracle.describe(expected)})")
            return
        if not oracle.at_least_as_precise(expected, model, pack.rows):
            problem("model", "Java's NotBetween answer is stricter than `< a OR > b` "
                    f"(ours modelled: {oracle.describe(expected)})")
            return
        self.stats.java_not_between_looser += 1

    @staticmethod
    def _wrong_leaves(predicate, pack: Pack) -> list:
        """Leaves whose modelled Java answer (not an error) drops rows that match."""
        return [leaf for leaf in leaves(predicate)
                if not oracle.is_error(answer := java_answer(leaf, pack))
                and not oracle.sound(answer, truth(leaf, pack))]

    @staticmethod
    def _why_java_wrong(predicate, pack: Pack) -> str:
        for leaf in leaves(predicate):
            column = pack.column(leaf.column)
            if lossy(leaf, pack):
                return f"{'/'.join(column.indexes)} {column.ctype.root}" \
                       f"({column.ctype.precision}) key precision"
        for leaf in leaves(predicate):
            column = pack.column(leaf.column)
            if "range-bitmap" in column.indexes and not column.data.index_groups:
                return "range-bitmap all-NULL column (apache/paimon#9140)"
        return "other"

    # -- TopN

    def _top_n(self, pack: Pack, java_raw: Optional[list], java_bytes: bytes) -> None:
        stats = self.stats
        if not pack.top_n:
            return
        reader = pfi.IndexReader(java_bytes, pack.fields)
        for request, raw in zip(pack.top_n, java_raw):
            stats.top_n += 1
            column = pack.column(request.column)
            selection = None if request.selection is None else sorted(request.selection)
            java = oracle.from_java(raw)
            began = time.perf_counter()
            try:
                ours = oracle.from_ours(reader.top_n(
                    request.column, request.limit, descending=request.descending,
                    nulls_first=request.nulls_first, selection=selection,
                    with_ties=request.with_ties))
            except pfi.FileIndexError as e:
                ours = ("ERROR", f"{type(e).__name__}: {e}")
            stats.seconds["ours topn"] += time.perf_counter() - began
            has_range_bitmap = any(KINDS[k].top_n for k in column.indexes)
            args = (column.data, has_range_bitmap, request.limit, request.descending,
                    request.nulls_first, request.selection, request.with_ties)
            model = oracle.java_topn(*args)
            exact = oracle.topn_exact(*args)

            def problem(text: str, what: str = "topn") -> None:
                stats.record(what, pack, (
                    f"{text}\n  {request}\n  ours: {oracle.describe(ours)}\n"
                    f"  Java: {oracle.describe(java)}\n  Java 2.0 model: "
                    f"{oracle.describe(model)}\n  brute force: {oracle.describe(exact)}\n  "
                    + column.summary(40)))

            if java != model:
                problem("Java's TopN differs from the modelled Java 2.0 answer", "model")
            if not oracle.topn_sound(exact, column.data, request.limit, request.descending,
                                     request.nulls_first, request.selection,
                                     request.with_ties):
                problem("the brute-force TopN is not a valid TopN (oracle bug)", "model")
            if model != exact:
                stats.java_wrong["range-bitmap TopN on an all-NULL column (#9140)"
                                 if not column.data.index_groups else
                                 "range-bitmap TopN WITH TIES cuts tied NULLs (#9280)"] += 1
                if ours != java:
                    stats.ours_differs_where_java_wrong += 1
            if ours != exact:
                problem("ours differs from the brute-force TopN"
                        + (" (Java 2.0 is known to be wrong here)" if model != exact else ""))


def run_packs(harness, packs, stats: Optional[Stats] = None) -> Stats:
    stats = stats or Stats()
    PackRunner(harness, stats).run_stream(packs)
    return stats
