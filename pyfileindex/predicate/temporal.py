"""Temporal literals: numpy.datetime64 timestamps carrying epoch nanoseconds, and the text
forms of DATE, TIME and TIMESTAMP literals."""

import datetime
import re

import numpy as np

from pyfileindex import _native
from pyfileindex._native import FileIndexError

from .errors import PredicateError


NANOS_PER_SECOND = 10 ** 9
NANOS_PER_DAY = 86_400 * NANOS_PER_SECOND
EPOCH_ORDINAL = datetime.date(1970, 1, 1).toordinal()
# int64 nanoseconds; -2**63 is numpy's NaT, so it is not a valid instant.
_MIN_NANOS = -(2 ** 63) + 1
_MAX_NANOS = 2 ** 63 - 1


def timestamp_from_nanos(nanos: int) -> np.datetime64:
    """A datetime64 for epoch nanoseconds: unit "ns", or "us" outside the ns range."""
    if _MIN_NANOS <= nanos <= _MAX_NANOS:
        return np.datetime64(nanos, "ns")
    if nanos % 1000 == 0:
        return np.datetime64(nanos // 1000, "us")
    raise PredicateError(
        f"timestamp {format_nanos(nanos)} has sub-microsecond digits but lies outside the "
        "range representable at nanosecond precision (1677-09-21 .. 2262-04-11)")


def timestamp_nanos(value: np.datetime64) -> int:
    """Epoch nanoseconds of a datetime64 of any unit (exact, or PredicateError)."""
    try:
        return _native.datetime64_nanos(value)
    except FileIndexError as exc:
        raise PredicateError(str(exc)) from None


def nanos_of_datetime(value: datetime.datetime) -> int:
    if value.tzinfo is not None:  # an instant: store it as UTC wall-clock time
        offset = value.utcoffset()
        value = value.replace(tzinfo=None) - offset
    days = value.toordinal() - EPOCH_ORDINAL
    seconds = value.hour * 3600 + value.minute * 60 + value.second
    # pandas.Timestamp is a datetime with a `nanosecond` attribute: keep it.
    nanos = value.microsecond * 1000 + int(getattr(value, "nanosecond", 0) or 0)
    return days * NANOS_PER_DAY + seconds * NANOS_PER_SECOND + nanos


def format_nanos(nanos: int) -> str:
    days, rest = divmod(nanos, NANOS_PER_DAY)
    ordinal = days + EPOCH_ORDINAL
    if not 1 <= ordinal <= datetime.date.max.toordinal():
        return f"{nanos} ns since 1970-01-01"
    date = datetime.date.fromordinal(ordinal)
    seconds, fraction = divmod(rest, NANOS_PER_SECOND)
    hours, seconds = divmod(seconds, 3600)
    minutes, seconds = divmod(seconds, 60)
    text = f"{date.isoformat()} {hours:02d}:{minutes:02d}:{seconds:02d}"
    if fraction:
        text += "." + f"{fraction:09d}".rstrip("0")
    return text


_DATE_TEXT = re.compile(r"(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})")
_TIME_TEXT = re.compile(
    r"(?P<hour>\d{1,2}):(?P<minute>\d{2})(?::(?P<second>\d{2})(?:\.(?P<fraction>\d{1,9}))?)?")
_TIMESTAMP_TEXT = re.compile(
    r"\s*" + _DATE_TEXT.pattern + r"(?:[ T]" + _TIME_TEXT.pattern + r")?"
    r"\s*(?P<zone>Z|[+-]\d{2}(?::?\d{2})?)?\s*", re.IGNORECASE)


def parse_date(text: str) -> datetime.date:
    """'YYYY-MM-DD' -> datetime.date."""
    match = re.fullmatch(r"\s*" + _DATE_TEXT.pattern + r"\s*", text)
    if match is None:
        raise PredicateError(f"invalid DATE {text!r}: expected 'YYYY-MM-DD'")
    try:
        return datetime.date(int(match["year"]), int(match["month"]), int(match["day"]))
    except ValueError as exc:
        raise PredicateError(f"invalid DATE {text!r}: {exc}") from None


def parse_time(text: str) -> datetime.time:
    """'HH:MM[:SS[.fraction]]' -> datetime.time (digits below microseconds must be 0)."""
    match = re.fullmatch(r"\s*" + _TIME_TEXT.pattern + r"\s*", text)
    if match is None:
        raise PredicateError(f"invalid TIME {text!r}: expected 'HH:MM:SS[.fraction]'")
    fraction = (match["fraction"] or "").ljust(9, "0")
    if fraction[6:] != "000":
        raise PredicateError(f"invalid TIME {text!r}: at most microsecond precision is supported")
    try:
        return datetime.time(int(match["hour"]), int(match["minute"]), int(match["second"] or 0),
                             int(fraction[:6]))
    except ValueError as exc:
        raise PredicateError(f"invalid TIME {text!r}: {exc}") from None


def parse_timestamp(text: str) -> np.datetime64:
    """'YYYY-MM-DD[ HH:MM[:SS[.fffffffff]]][Z|+HH:MM]' -> datetime64 with nanosecond precision.

    A zone suffix turns the text into a UTC instant; without it the wall-clock
    time is taken as is (Paimon TIMESTAMP values carry no zone).
    """
    match = _TIMESTAMP_TEXT.fullmatch(text)
    if match is None:
        raise PredicateError(
            f"invalid TIMESTAMP {text!r}: expected 'YYYY-MM-DD HH:MM:SS[.fraction]'")
    try:
        date = datetime.date(int(match["year"]), int(match["month"]), int(match["day"]))
        time = datetime.time(int(match["hour"] or 0), int(match["minute"] or 0),
                             int(match["second"] or 0))
    except ValueError as exc:
        raise PredicateError(f"invalid TIMESTAMP {text!r}: {exc}") from None
    fraction = int((match["fraction"] or "").ljust(9, "0"))
    seconds = time.hour * 3600 + time.minute * 60 + time.second
    nanos = ((date.toordinal() - EPOCH_ORDINAL) * NANOS_PER_DAY
             + seconds * NANOS_PER_SECOND + fraction)
    zone = match["zone"]
    if zone and zone.upper() != "Z":
        digits = zone[1:].replace(":", "")
        offset_minutes = int(digits[:2]) * 60 + int(digits[2:] or 0)
        sign = -1 if zone[0] == "-" else 1
        nanos -= sign * offset_minutes * 60 * NANOS_PER_SECOND
    return timestamp_from_nanos(nanos)
