"""A team's check-in code: what the desk types, or a USB scanner types from the QR code on the
player's phone, to check the team in.

The code is the team's id written in the join codes' alphabet (letters and digits nobody misreads),
at least four of them, then one check character chosen so that the weighted sum of every
character is a multiple of the alphabet's size; the weights are coprime to it and neighbours' weights
differ by 1 or 2, so a mistyped character or two swapped neighbours give an invalid code instead of
another team's. Derived, never stored: no column to fill, no collision to retry.
"""

from __future__ import annotations

from common.translatable import N_
from tournaments.domain.team_forming import JOIN_CODE_ALPHABET, normalise_join_code

ALPHABET = JOIN_CODE_ALPHABET
BASE = len(ALPHABET)
MIN_DIGITS = 4
#: Enough for any team id a database holds here (25^7 > 2^32); a longer code is mistyped.
MAX_DIGITS = 7


def _weights(length: int) -> list[int]:
    """1, 2, 3, 4, 6, 7, ...: no multiple of 5, so each weight is coprime to 25 and neighbours differ by 1 or 2."""
    weights: list[int] = []
    value = 0
    while len(weights) < length:
        value += 1
        if value % 5:
            weights.append(value)
    return weights


def _weighted_sum(code: str) -> int:
    return sum(weight * ALPHABET.index(char) for weight, char in zip(_weights(len(code)), code, strict=True))


def _check_character(body: str) -> str:
    """The character that makes the whole code's weighted sum a multiple of the alphabet's size."""
    weight = _weights(len(body) + 1)[-1]
    inverse = pow(weight, -1, BASE)
    return ALPHABET[(-_weighted_sum(body) * inverse) % BASE]


def check_in_code(team_id: int) -> str:
    """The team's code, e.g. ``AAACV`` for team 1."""
    if team_id < 0:
        raise ValueError("a team id is not negative")
    digits: list[str] = []
    value = team_id
    while value or len(digits) < MIN_DIGITS:
        value, digit = divmod(value, BASE)
        digits.append(ALPHABET[digit])
    body = "".join(reversed(digits))
    return body + _check_character(body)


def team_id_from_code(raw: str) -> tuple[int | None, N_ | None]:
    """The team id a typed or scanned code names, or the refusal (an ``N_`` message) saying why not."""
    code = normalise_join_code(raw)
    problem = N_(
        "a check-in code is %(length)s letters and digits, like %(example)s",
        length=MIN_DIGITS + 1,
        example=check_in_code(1),
    )
    if not MIN_DIGITS < len(code) <= MAX_DIGITS + 1 or any(char not in ALPHABET for char in code):
        return None, problem
    body = code[:-1]
    if _weighted_sum(code) % BASE:
        return None, N_("%(code)s is not a check-in code: a character is mistyped", code=code)
    value = 0
    for char in body:
        value = value * BASE + ALPHABET.index(char)
    return value, None
