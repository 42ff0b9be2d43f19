"""Team-name moderation (MTR 8.1: officials may refuse offensive or obscene team names).

A short, conservative word list matched on whole words after folding case, accents and
common letter substitutions, so "Sh1t Happens" is caught but "Scunthorpe Giants" is not.
"""

from __future__ import annotations

import re
import unicodedata

from common.translatable import N_

MAX_TEAM_NAME_LENGTH = 100

BLOCKED_WORDS = frozenset(
    {
        "asshole",
        "bastard",
        "bitch",
        "bollocks",
        "cock",
        "cunt",
        "dick",
        "faggot",
        "fag",
        "fuck",
        "fucker",
        "fucking",
        "motherfucker",
        "nazi",
        "nigger",
        "nigga",
        "retard",
        "retarded",
        "shit",
        "slut",
        "twat",
        "whore",
        "wanker",
        "rape",
        "rapist",
        "kike",
        "spic",
        "chink",
        "tranny",
        "dyke",
        "hitler",
    }
)
_SUBSTITUTIONS = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "i"}
)


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).translate(_SUBSTITUTIONS)


def team_name_problem(name: str) -> str | None:
    """Why a team name is refused, or None when it is acceptable."""
    stripped = " ".join(name.split())
    if not stripped:
        return N_("the team name is empty")
    if len(stripped) > MAX_TEAM_NAME_LENGTH:
        return N_("the team name is longer than %(limit)s characters", limit=MAX_TEAM_NAME_LENGTH)
    words = re.findall(r"[a-z]+", _fold(stripped))
    joined = "".join(words)
    for word in words:
        if word in BLOCKED_WORDS:
            return N_("the team name contains a word on the event's offensive-word list")
    if any(len(bad) >= 5 and bad in joined for bad in BLOCKED_WORDS):
        return N_("the team name contains a word on the event's offensive-word list")
    return None
