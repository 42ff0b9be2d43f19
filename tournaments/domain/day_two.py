"""A cut to day 2: after a set Swiss round, only the teams at or above a record play on.

Large events play Swiss over two days. After round ``after_round`` the teams with at least
``min_match_points`` advance; the others are eliminated, not dropped: their standings rows stay
(marked "did not advance"), they are never paired again, and they may play side events. The round
chart stays the MTR's: ``swiss_rounds`` counts both days.

Tiebreakers of eliminated teams follow the MTR by default (their opponents' later rounds count);
``DayTwoTiebreakers.FROZEN`` keeps them as they stood after the cut, as some large events publish
(docs/decisions.md "A cut to day 2").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tournaments.domain.choices import Choices, gettext_noop


class DayTwoTiebreakers(Choices):
    """How the standings count an eliminated team's tiebreakers."""

    MTR = "mtr", gettext_noop("As the MTR: all their opponents' rounds count")
    FROZEN = "frozen", gettext_noop("Frozen at the cut")


@dataclass(frozen=True, slots=True)
class DayTwo:
    """The cut: after round ``after_round``, teams with ``min_match_points`` or more play on."""

    after_round: int
    min_match_points: int
    tiebreakers: DayTwoTiebreakers = DayTwoTiebreakers.MTR

    @classmethod
    def from_setting(
        cls, raw: Mapping[str, Any] | None, tiebreakers: str = DayTwoTiebreakers.MTR
    ) -> DayTwo | None:
        """The stored setting (``{"after_round", "min_match_points"}`` or ``None``), checked
        before it was stored (:func:`day_two_problems`)."""
        if not raw:
            return None
        return cls(int(raw["after_round"]), int(raw["min_match_points"]), DayTwoTiebreakers(tiebreakers))

    @property
    def frozen(self) -> bool:
        return self.tiebreakers is DayTwoTiebreakers.FROZEN

    def applies_to(self, round_number: int) -> bool:
        """Whether ``round_number`` is a day-2 round (paired among the advancing teams only)."""
        return round_number > self.after_round


def day_two_problems(
    raw: Any, swiss_rounds: int | None, translate: Callable[[str], str] = lambda message: message
) -> list[str]:
    """What is wrong with a ``day_two`` value, for the settings' 400 (field ``day_two``)."""
    _ = translate
    if raw is None:
        return []
    if not isinstance(raw, Mapping) or set(raw) != {"after_round", "min_match_points"}:
        return [_('give {"after_round": R, "min_match_points": P}, or null for no cut')]
    problems = []
    after, points = raw["after_round"], raw["min_match_points"]
    if not isinstance(after, int) or isinstance(after, bool) or after < 1:
        problems.append(_("after_round must be a round number, 1 or more"))
    elif swiss_rounds is not None and after >= swiss_rounds:
        problems.append(
            _("after_round must be before the last Swiss round (%(rounds)s)") % {"rounds": swiss_rounds}
        )
    if not isinstance(points, int) or isinstance(points, bool) or points < 1:
        problems.append(_("min_match_points must be 1 or more match points"))
    elif isinstance(after, int) and not isinstance(after, bool) and after >= 1 and points > 3 * after:
        problems.append(
            _("min_match_points %(points)s is more than %(max)s, a perfect record after round %(after)s")
            % {"points": points, "max": 3 * after, "after": after}
        )
    return problems
