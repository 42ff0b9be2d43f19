"""Every current infraction with its default penalty at each REL.

Sources: IPG eff. 2024-09-23 §§2–4 and Appendix A for Competitive/Professional (the same defaults:
the REL changes expectations, not the tables), and the JAR (Judging at Regular REL) for Regular,
as summarised in docs/rules.md#penalties-by-rel and docs/rules.md#upgrades.

Regular REL has no Warnings: the JAR fixes and educates. It gives a Game Loss only when a player
keeps repeating a mistake or an unwanted behaviour after being told the next one means a Game Loss
("General Unwanted Behaviors"; "If a player continues to repeat a mistake despite multiple
reminders..."), and a Disqualification for its "Serious Problems": aggressive, violent, harassing or
abusive behaviour; knowingly breaking rules for advantage; theft. Those conditions depend on the
situation, so they live in :func:`penalties.domain.upgrades.regular`; the catalogue holds
the unconditional default (``regular_penalty``) and the handling text a judge reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from common.translatable import N_
from penalties.domain.enums import InfractionCategory, Penalty, Rel
from penalties.domain.errors import PenaltyRuleError

GPE = InfractionCategory.GPE
TE = InfractionCategory.TE
USC = InfractionCategory.USC


@dataclass(frozen=True, slots=True)
class Infraction:
    """One IPG infraction.

    ``competitive_penalty`` is the IPG default (Professional is the same). ``regular_penalty`` is
    what the JAR gives without further circumstances: nothing, or a Disqualification for the
    infractions that are always a "Serious Problem".

    ``upgrade_at_warning`` is the repeat rule: the n-th Warning-level offence of this infraction
    (counted per player) becomes a Game Loss. GPE: 3rd in the same category, except FtMGS, which is
    never upgraded [IPG 2 intro]; TE: 2nd in the same category [IPG 3 intro]; USC-Minor: any later
    USC-Minor [IPG 4.1]. ``count_resets_daily``: the IPG resets GPE and TE counts between days of a
    multi-day event [IPG 2, 3 intros]; it says nothing of the kind for USC-Minor, so that count
    runs over the whole event.
    """

    code: str
    category: InfractionCategory
    name: str
    ipg_section: str
    competitive_penalty: Penalty
    regular_penalty: Penalty
    regular_handling: str
    upgrade_at_warning: int | None
    count_resets_daily: bool
    modifiers: str = ""

    def default_penalty(self, rel: Rel) -> Penalty:
        """The table default at ``rel``, before any circumstance, upgrade or 2HG policy."""
        if rel is Rel.REGULAR:
            return self.regular_penalty
        return self.competitive_penalty


_NONE = Penalty.NO_PENALTY
_W = Penalty.WARNING
_GL = Penalty.GAME_LOSS
_ML = Penalty.MATCH_LOSS
_DQ = Penalty.DISQUALIFICATION

_INFRACTIONS: tuple[Infraction, ...] = (
    Infraction(
        code="GPE-MT",
        category=GPE,
        name="Missed Trigger",
        ipg_section="2.1",
        competitive_penalty=_NONE,
        regular_penalty=_NONE,
        regular_handling=N_(
            "a 'may' trigger counts as declined; otherwise put it on the stack unless too disruptive"
        ),
        modifiers="Warning if the trigger is usually detrimental to its controller",
        upgrade_at_warning=3,
        count_resets_daily=True,
    ),
    Infraction(
        code="GPE-LEC",
        category=GPE,
        name="Looking at Extra Cards",
        ipg_section="2.2",
        competitive_penalty=_W,
        regular_penalty=_NONE,
        regular_handling=N_("shuffle the seen card into the unknown part of the library"),
        upgrade_at_warning=3,
        count_resets_daily=True,
    ),
    Infraction(
        code="GPE-HCE",
        category=GPE,
        name="Hidden Card Error",
        ipg_section="2.3",
        competitive_penalty=_W,
        regular_penalty=_NONE,
        regular_handling=N_("extra cards drawn: random cards from hand go on top of the library, no shuffle"),
        modifiers="Game Loss for an illegal face-down (morph/disguise) permanent",
        upgrade_at_warning=3,
        count_resets_daily=True,
    ),
    Infraction(
        code="GPE-MPE",
        category=GPE,
        name="Mulligan Procedure Error",
        ipg_section="2.4",
        competitive_penalty=_W,
        regular_penalty=_NONE,
        regular_handling=N_("extra opening cards are shuffled back"),
        modifiers="remedy: an extra mulligan",
        upgrade_at_warning=3,
        count_resets_daily=True,
    ),
    Infraction(
        code="GPE-GRV",
        category=GPE,
        name="Game Rule Violation",
        ipg_section="2.5",
        competitive_penalty=_W,
        regular_penalty=_NONE,
        regular_handling=N_("fix what is illegal; back up only if easy"),
        modifiers="the other players get FtMGS (in 2HG: teammate and both opponents), or GRV if co-responsible",
        upgrade_at_warning=3,
        count_resets_daily=True,
    ),
    Infraction(
        code="GPE-FTMGS",
        category=GPE,
        name="Failure to Maintain Game State",
        ipg_section="2.6",
        competitive_penalty=_W,
        regular_penalty=_NONE,
        regular_handling=N_("no penalty"),
        modifiers="never upgraded",
        upgrade_at_warning=None,
        count_resets_daily=True,
    ),
    Infraction(
        code="TE-T",
        category=TE,
        name="Tardiness",
        ipg_section="3.1",
        competitive_penalty=_GL,
        regular_penalty=_NONE,
        regular_handling=N_(
            "unwanted behaviour, educate; more than 10 minutes late forfeits the match and the team is dropped at the end of the round if still absent"
        ),
        modifiers="seated within 1 minute: Warning; not seated 10 minutes in: Match Loss and drop unless they report",
        upgrade_at_warning=2,
        count_resets_daily=True,
    ),
    Infraction(
        code="TE-OA",
        category=TE,
        name="Outside Assistance",
        ipg_section="3.2",
        competitive_penalty=_ML,
        regular_penalty=_NONE,
        regular_handling=N_("unwanted behaviour: educate; Game Loss if it continues"),
        modifiers="Game Loss if the information was available between games",
        upgrade_at_warning=None,
        count_resets_daily=True,
    ),
    Infraction(
        code="TE-SP",
        category=TE,
        name="Slow Play",
        ipg_section="3.3",
        competitive_penalty=_W,
        regular_penalty=_NONE,
        regular_handling=N_("unwanted behaviour: educate; Game Loss if it continues"),
        modifiers="two extra turns at the end of the round; deliberate slowness is USC-S",
        upgrade_at_warning=2,
        count_resets_daily=True,
    ),
    Infraction(
        code="TE-DLP",
        category=TE,
        name="Decklist Problem",
        ipg_section="3.4",
        competitive_penalty=_GL,
        regular_penalty=_NONE,
        regular_handling=N_("fix the list if the head judge required lists; no penalty"),
        modifiers="head judge may waive for an obvious, unambiguous entry",
        upgrade_at_warning=None,
        count_resets_daily=True,
    ),
    Infraction(
        code="TE-DP",
        category=TE,
        name="Deck Problem",
        ipg_section="3.5",
        competitive_penalty=_W,
        regular_penalty=_NONE,
        regular_handling=N_(
            "fix the deck (remove wrong cards, restore missing ones, add basics if short, shuffle in)"
        ),
        modifiers="Game Loss for the four upgrade conditions of IPG 3.5",
        upgrade_at_warning=2,
        count_resets_daily=True,
    ),
    Infraction(
        code="TE-LPV",
        category=TE,
        name="Limited Procedure Violation",
        ipg_section="3.6",
        competitive_penalty=_W,
        regular_penalty=_NONE,
        regular_handling=N_("educate"),
        modifiers="the event may announce extra penalties",
        upgrade_at_warning=2,
        count_resets_daily=True,
    ),
    Infraction(
        code="TE-CPV",
        category=TE,
        name="Communication Policy Violation",
        ipg_section="3.7",
        competitive_penalty=_W,
        regular_penalty=_NONE,
        regular_handling=N_("educate"),
        upgrade_at_warning=2,
        count_resets_daily=True,
    ),
    Infraction(
        code="TE-MC",
        category=TE,
        name="Marked Cards",
        ipg_section="3.8",
        competitive_penalty=_W,
        regular_penalty=_NONE,
        regular_handling=N_("educate; replace the marked cards or sleeves"),
        modifiers="Game Loss if no replacements (basics added) or if the pattern gives substantial advantage",
        upgrade_at_warning=2,
        count_resets_daily=True,
    ),
    Infraction(
        code="TE-IS",
        category=TE,
        name="Insufficient Shuffling",
        ipg_section="3.9",
        competitive_penalty=_W,
        regular_penalty=_NONE,
        regular_handling=N_("unwanted behaviour: educate; Game Loss if it continues"),
        upgrade_at_warning=2,
        count_resets_daily=True,
    ),
    Infraction(
        code="USC-MINOR",
        category=USC,
        name="Unsporting Conduct — Minor",
        ipg_section="4.1",
        competitive_penalty=_W,
        regular_penalty=_NONE,
        regular_handling=N_("educate; Game Loss if uncorrected"),
        modifiers="any later USC-Minor, even a different offence: Game Loss",
        upgrade_at_warning=2,
        count_resets_daily=False,
    ),
    Infraction(
        code="USC-MAJOR",
        category=USC,
        name="Unsporting Conduct — Major",
        ipg_section="4.2",
        competitive_penalty=_ML,
        regular_penalty=_DQ,
        regular_handling=N_("harassment is a Serious Problem"),
        modifiers="Disqualification if malicious, without remorse, or repeated",
        upgrade_at_warning=None,
        count_resets_daily=False,
    ),
    Infraction(
        code="USC-IDW",
        category=USC,
        name="Improperly Determining a Winner",
        ipg_section="4.3",
        competitive_penalty=_ML,
        regular_penalty=_NONE,
        regular_handling=N_(
            "unwanted behaviour: educate; Game Loss if it continues; knowingly: Serious Problem"
        ),
        modifiers="Cheating if the player knew it was illegal",
        upgrade_at_warning=None,
        count_resets_daily=False,
    ),
    Infraction(
        code="USC-BW",
        category=USC,
        name="Bribery and Wagering",
        ipg_section="4.4",
        competitive_penalty=_ML,
        regular_penalty=_NONE,
        regular_handling=N_(
            "unwanted behaviour: educate; Game Loss if it continues; knowingly: Serious Problem"
        ),
        modifiers="Cheating if the player knew it was illegal",
        upgrade_at_warning=None,
        count_resets_daily=False,
    ),
    Infraction(
        code="USC-AB",
        category=USC,
        name="Aggressive Behavior",
        ipg_section="4.5",
        competitive_penalty=_DQ,
        regular_penalty=_DQ,
        regular_handling=N_("aggressive behaviour is a Serious Problem"),
        modifiers="removed from the venue",
        upgrade_at_warning=None,
        count_resets_daily=False,
    ),
    Infraction(
        code="USC-TTM",
        category=USC,
        name="Theft of Tournament Material",
        ipg_section="4.6",
        competitive_penalty=_DQ,
        regular_penalty=_DQ,
        regular_handling=N_("theft is a Serious Problem"),
        modifiers="removed from the venue",
        upgrade_at_warning=None,
        count_resets_daily=False,
    ),
    Infraction(
        code="USC-S",
        category=USC,
        name="Stalling",
        ipg_section="4.7",
        competitive_penalty=_DQ,
        regular_penalty=_DQ,
        regular_handling=N_("knowingly breaking the rules is a Serious Problem"),
        upgrade_at_warning=None,
        count_resets_daily=False,
    ),
    Infraction(
        code="USC-C",
        category=USC,
        name="Cheating",
        ipg_section="4.8",
        competitive_penalty=_DQ,
        regular_penalty=_DQ,
        regular_handling=N_("cheating is a Serious Problem"),
        upgrade_at_warning=None,
        count_resets_daily=False,
    ),
)

CATALOGUE: dict[str, Infraction] = {infraction.code: infraction for infraction in _INFRACTIONS}
"""Infractions by code, in IPG order."""


def get_infraction(code: str) -> Infraction:
    """The infraction for ``code``; a :class:`PenaltyRuleError` names the unknown code."""
    try:
        return CATALOGUE[code]
    except KeyError:
        raise PenaltyRuleError(
            N_(
                "Unknown infraction code %(code)r; known codes: %(known)s",
                code=code,
                known=", ".join(CATALOGUE),
            ),
            errors=[
                {"field": "infraction_code", "message": N_("unknown infraction code %(code)r", code=code)}
            ],
        ) from None
