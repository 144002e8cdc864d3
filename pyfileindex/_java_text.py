"""java.lang.String rules that decide what a Paimon option's text means (String.trim,
String.split(","), Character.isWhitespace), so an option reads here as it does in Java."""

from typing import List

# String.trim drops the characters <= ' ', and nothing above (not U+00A0, not U+3000).
_TRIMMED = "".join(map(chr, range(0x21)))

# Character.isWhitespace: space separators except the no-break ones (U+00A0, U+2007, U+202F),
# U+2028/U+2029, and U+0009..U+000D, U+001C..U+001F.
_WHITESPACE = frozenset("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \u1680\u2000\u2001\u2002\u2003\u2004"
                        "\u2005\u2006\u2008\u2009\u200a\u2028\u2029\u205f\u3000")


def trim(text: str) -> str:
    return text.strip(_TRIMMED)


def is_blank(text: str) -> bool:
    """StringUtils.isNullOrWhitespaceOnly: empty, or whitespace only."""
    return set(text) <= _WHITESPACE


def split(text: str, separator: str) -> List[str]:
    """String.split(separator) for a separator with no regex meaning: trailing empty pieces
    are dropped, unless the text has no separator at all (then it is the one piece)."""
    if separator not in text:
        return [text]
    pieces = text.split(separator)
    while pieces and pieces[-1] == "":
        pieces.pop()
    return pieces
