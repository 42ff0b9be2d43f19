"""The playoff cut: the top N of the final Swiss standings into the engine's bracket (MTR 10.4)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from common.errors import ConflictError
from common.i18n import error_text
from common.translatable import N_
from tournaments.domain import PlayoffError, first_playoff_round
from tournaments.domain.pods import draft_playoff_first_round, draft_playoff_seats
from tournaments.enums import TournamentStatus
from tournaments.models import Round, Tournament
from tournaments.selectors import chart_size_for, round_seed
from tournaments.services.audit import audit_log
from tournaments.services.locks import lock_tournament
from tournaments.services.rounds import (
    fix_event_structure,
    require_round_complete,
    store_playoff_round,
)
from tournaments.standings import standings_for


@transaction.atomic
def cut_build(*, tournament: Tournament, actor) -> Round:
    """Seed the top ``tournament.top_cut`` teams still in the event into the first playoff round
    (Top 8: 1v8, 4v5, 2v7, 3v6; Top 4: 1v4, 2v3) and move the event to TOP_CUT. With a Booster
    Draft playoff the Top 8 draft at random seats (from the round's seed) and play seat 1v5, 3v7,
    2v6, 4v8, so the semifinals join 1/5 with 3/7 and 2/6 with 4/8 (rules §2.3).

    Needs every Swiss round paired with confirmed results. A team that dropped or was
    disqualified before the cut is skipped and the next team moves in; later rounds are paired by
    ``round_pair`` from the bracket winners.
    """
    tournament = lock_tournament(tournament)
    if tournament.status in (TournamentStatus.TOP_CUT, TournamentStatus.FINISHED):
        raise ConflictError(_("the playoff bracket is already built"))
    previous = Round.objects.filter(tournament=tournament).newest()
    if previous is None:
        fix_event_structure(tournament, chart_size_for(tournament))
    else:
        require_round_complete(previous)
    paired = previous.number if previous is not None else 0
    if tournament.swiss_rounds is None or paired < tournament.swiss_rounds:
        raise ConflictError(
            _("%(paired)s of %(swiss_rounds)s Swiss rounds played; the cut comes after the last one")
            % {"paired": paired, "swiss_rounds": tournament.swiss_rounds}
        )
    if not tournament.top_cut:
        raise ConflictError(_("this event has no playoff cut"))
    standings = [line for line in standings_for(tournament) if not line.dropped and not line.eliminated]
    seeded = [line.team_id for line in standings[: tournament.top_cut]]
    draft_playoff = tournament.booster_draft_playoff and tournament.top_cut == 8
    try:
        if draft_playoff:
            seats = draft_playoff_seats(seeded, seed=round_seed(tournament, paired + 1))
            bracket = draft_playoff_first_round(seats)
        else:
            bracket = first_playoff_round(seeded, tournament.top_cut)
    except PlayoffError as exc:
        raise ConflictError(error_text(exc)) from exc
    if draft_playoff:
        lines = [
            N_("Top 8 Booster Draft playoff: the Top 8 draft at random seats, then seat 1v5, 2v6, 3v7, 4v8.")
        ]
        lines += [
            N_("Draft seat %(seat)s: team %(team)s.", seat=seat, team=team)
            for seat, team in enumerate(seats, start=1)
        ]
        lines += [
            N_(
                "Seat %(seat_a)s (team %(team_a)s) v seat %(seat_b)s (team %(team_b)s).",
                seat_a=m.seed_a,
                team_a=m.team_a,
                seat_b=m.seed_b,
                team_b=m.team_b,
            )
            for m in bracket
        ]
    else:
        lines = [
            N_(
                "Top %(cut)s: seed %(seed_a)s (team %(team_a)s) v seed %(seed_b)s (team %(team_b)s).",
                cut=tournament.top_cut,
                seed_a=m.seed_a,
                team_a=m.team_a,
                seed_b=m.seed_b,
                team_b=m.team_b,
            )
            if m.team_b is not None
            else N_(
                "Top %(cut)s: seed %(seed_a)s (team %(team_a)s) v seed %(seed_b)s (empty: a bye).",
                cut=tournament.top_cut,
                seed_a=m.seed_a,
                team_a=m.team_a,
                seed_b=m.seed_b,
            )
            for m in bracket
        ]
    new_round = store_playoff_round(tournament=tournament, number=paired + 1, bracket=bracket, lines=lines)
    tournament.status = TournamentStatus.TOP_CUT
    tournament.save(update_fields=["status"])
    audit_log(
        tournament=tournament,
        actor=actor,
        action="cut_build",
        obj=new_round,
        after={"top_cut": tournament.top_cut, "seeds": seeded, "round": new_round.number},
    )
    return new_round
