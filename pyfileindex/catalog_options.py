"""Catalog / file-system options from a file, for the command line.

The format: one `KEY=VALUE` per line; blank lines and lines starting with `#` are
ignored; spaces around the key and the value are dropped (a value keeps inner spaces
and any further `=`). A file keeps credentials off the command line (where other users
of the machine see them in the process list); errors name the file and the line
number, never a line's text, since that may be a secret.
"""

from typing import Dict, Iterable, Tuple


class OptionsFileError(ValueError):
    """An options file that cannot be read or has a malformed line."""


def parse_options_text(text: str, source: str) -> Dict[str, str]:
    """{key: value} of the lines of `text` (`source` names it in errors)."""
    options: Dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        key, sep, value = stripped.partition("=")
        if not sep or not key.strip():
            raise OptionsFileError(f"{source} line {number}: expected KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


def read_options_file(path: str) -> Dict[str, str]:
    """The options of the file at `path`."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except UnicodeDecodeError:
        raise OptionsFileError(f"catalog options file {path}: not UTF-8 text") from None
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise OptionsFileError(f"catalog options file {path}: {reason}") from None
    return parse_options_text(text, f"catalog options file {path}")


def merged_options(files: Iterable[str], pairs: Iterable[Tuple[str, str]]) -> Dict[str, str]:
    """Options of the files in order, then the KEY=VALUE pairs: later ones win, so a
    flag overrides a file."""
    options: Dict[str, str] = {}
    for path in files:
        options.update(read_options_file(path))
    options.update(dict(pairs))
    return options

