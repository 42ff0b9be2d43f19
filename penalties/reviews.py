"""The head judge's second look at a penalty already recorded: overturning it on appeal
(``penalty_overturn``) and confirming or changing a judge's proposed Disqualification
(``penalty_review``), with what each undoes or applies for the team.

Kept apart from ``penalties.services`` (proposing and issuing) because these start from a stored
penalty, not from an infraction, and only the head judge makes them. They write the match result
the same way an issue does, so they share that module's helpers for it
(``match_penalty_outcome``, ``apply_match_outcome``, ``outcome_decision``, ``write_outcome``) and
its audit view (``penalty_audit_view``); a Disqualification changed into another penalty is issued
through ``penalty_issue``.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.errors import ConflictError, DomainError
from common.translatable import as_data
from penalties.domain import Penalty as PenaltyKind
from penalties.domain import PenaltyEffects, PenaltyRuleError, TeamEffect, overturn
from penalties.models import HeadJudgeReview, Penalty
from penalties.services import (
    apply_match_outcome,
    match_penalty_outcome,
    outcome_decision,
    penalty_audit_view,
    penalty_issue,
    write_outcome,
)
from tournaments.enums import ResultKind
from tournaments.models import Match, Round
from tournaments.rules import can_overturn_penalty, can_review_disqualification
from tournaments.services.audit import audit_log
from tournaments.services.locks import lock_tournament
from tournaments.services.participation import team_disqualify, team_reinstate


@transaction.atomic
def penalty_overturn(*, penalty: Penalty, actor, reason: str) -> Penalty:
    """The head judge overturns ``penalty`` on appeal; what it changed is restored, the record stays.

    The match result is recomputed from the match's other penalties: if one of them still decides
    the match it stands, otherwise the result reported before the penalties comes back. Match
    points and Slow Play turns come back on their own (the selectors skip overturned penalties).
    Anyone but the head judge gets 403, before any other answer (an already overturned penalty
    is 409 only to the head judge).

    A Disqualification is overturned only while no round has been paired since it: the team is
    reinstated (``team_reinstate``: not disqualified, its drop before the DQ, if any, back), so it
    is back in the standings at the place its results give it, and the current match the DQ lost
    gets the result the remaining penalties give it (the reported one, or pending). Once a later
    round was paired without the team, it missed that round: the answer is 409, because putting
    it back is a re-entry, which the head judge decides under MTR 2.10, not an undo. A Tardiness
    "drop unless they report" was never applied automatically, so there is nothing to reinstate.
    """
    lock_tournament(penalty.tournament_id)
    match = (
        Match.objects.select_for_update().filter(pk=penalty.match_id).first()
        if penalty.match_id is not None
        else None
    )
    penalty = (
        Penalty.objects.select_for_update(of=("self",))
        .select_related("tournament", "player", "team")
        .get(pk=penalty.pk)
    )
    if not can_overturn_penalty(actor, penalty.tournament):
        raise PenaltyRuleError(_("Only the head judge may overturn a penalty"), status_code=403)
    if penalty.overturned:
        raise ConflictError(_("Penalty %(pk)s is already overturned") % {"pk": penalty.pk})
    if not penalty.in_force:
        raise ConflictError(
            _("Penalty %(pk)s is a proposal that is not in force: confirm or change it instead")
            % {"pk": penalty.pk},
            errors=[{"field": "penalty", "message": _("not in force (proposed or replaced)")}],
        )
    plan = overturn(_stored_effects(penalty), reason=reason, by_head_judge=True)
    disqualification = penalty.team_effect == TeamEffect.DISQUALIFY_TEAM
    if disqualification:
        _check_reinstatable(penalty)
    before = match_penalty_outcome(match)
    penalty.overturned = True
    penalty.overturned_by = actor
    penalty.overturned_at = timezone.now()
    penalty.overturn_reason = plan.reason
    penalty.save(update_fields=["overturned", "overturned_by", "overturned_at", "overturn_reason"])
    why = f"penalty {penalty.pk} overturned: {plan.reason}"
    if disqualification:
        if penalty.team.disqualified:
            team_reinstate(team=penalty.team, actor=actor, reason=why)
        for lost in _matches_lost_by_disqualification(penalty, match):
            _restore_after_disqualification(match=lost, team_id=penalty.team_id, actor=actor, reason=why)
    elif plan.recompute_match_result and match is not None:
        apply_match_outcome(match=match, before=before, actor=actor, reason=why)
    audit_log(
        tournament=penalty.tournament,
        actor=actor,
        action="penalty_overturn",
        obj=penalty,
        before={"overturned": False, **penalty_audit_view(penalty)},
        after={"overturned": True, "restored": as_data(plan.explanation)},
        reason=plan.reason,
    )
    return penalty


def _check_reinstatable(penalty: Penalty) -> None:
    """409 if a round was paired after the Disqualification: the team missed it (see overturn)."""
    later = list(
        Round.objects.filter(tournament_id=penalty.tournament_id, created_at__gt=penalty.created_at)
        .order_by("number")
        .values_list("number", flat=True)
    )
    if later:
        rounds = ", ".join(str(number) for number in later)
        raise ConflictError(
            ngettext(
                "This Disqualification cannot be overturned here: round %(rounds)s was paired after it, "
                "without %(team)s, so the team missed that match and an overturn cannot give it back. "
                "The head judge may let the team re-enter the event (MTR 2.10); the missed round stays "
                "lost.",
                "This Disqualification cannot be overturned here: rounds %(rounds)s were paired after it, "
                "without %(team)s, so the team missed those matches and an overturn cannot give them "
                "back. The head judge may let the team re-enter the event (MTR 2.10); the missed rounds "
                "stay lost.",
                len(later),
            )
            % {"rounds": rounds, "team": penalty.team.name},
            errors=[
                {
                    "field": "penalty",
                    "message": _("round %(later)s was paired after the disqualification")
                    % {"later": later[0]},
                }
            ],
        )


def _matches_lost_by_disqualification(penalty: Penalty, match: Match | None) -> list[Match]:
    """The penalty's match and the team's match in the latest round (the one ``team_disqualify``
    sets against the team), without byes; no round has been paired since the DQ."""
    latest = Match.objects.filter(round__tournament_id=penalty.tournament_id, team_b__isnull=False).filter(
        Q(team_a_id=penalty.team_id) | Q(team_b_id=penalty.team_id)
    )
    current = latest.order_by("-round__number").first()
    found = {m.pk: m for m in (match, current) if m is not None and not m.is_bye}
    return list(found.values())


def _restore_after_disqualification(*, match: Match, team_id: int, actor, reason: str) -> None:
    """A match lost by penalty against the reinstated team gets what its standing penalties give:
    still lost if one of them decides it, else the result reported before (or pending). A double
    loss keeps only the other team's Match Loss."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    if match.result_kind == ResultKind.DOUBLE_LOSS:
        current: tuple[int | str | None, bool] = (None, True)
    elif match.result_kind == ResultKind.MATCH_LOSS:
        loser = match.team_a_id if match.team_a_wins < match.team_b_wins else match.team_b_id
        if loser != team_id:
            return
        current = (loser, False)
    else:
        return
    after = match_penalty_outcome(match)
    if after is None or outcome_decision(after) == current:
        return
    write_outcome(match=match, outcome=after, actor=actor, reason=reason)


def _stored_effects(penalty: Penalty) -> PenaltyEffects:
    return PenaltyEffects(
        team_effect=TeamEffect(penalty.team_effect),
        match_point_adjustment=penalty.match_point_adjustment,
        extra_turns=penalty.extra_turns,
        drops_team=penalty.drops_team,
        applies_to_next_match=penalty.applies_to_next_match,
    )


@transaction.atomic
def penalty_review(
    *, penalty: Penalty, actor, decision: str, reason: str, new_penalty: str | None = None
) -> Penalty:
    """The head judge decides a judge's proposed Disqualification (MTR 1.5, IPG 4).

    ``decision`` "confirm": the Disqualification takes effect now, as if the head judge had issued
    it (the team's unfinished match is lost, the team is dropped). "change": the proposal is set
    aside and ``new_penalty`` (e.g. a Match Loss) is issued in its place for the same infraction,
    as the head judge's deviation with ``reason``; the new penalty is returned. Either way the
    proposal row stays, marked, with who decided, when and why (audited). 403 for anyone but the
    head judge, 409 for a penalty not awaiting a decision, 400 for a missing reason or penalty.
    """
    lock_tournament(penalty.tournament_id)
    penalty = (
        Penalty.objects.select_for_update(of=("self",))
        .select_related("tournament", "player", "team", "round")
        .get(pk=penalty.pk)
    )
    if not can_review_disqualification(actor, penalty.tournament):
        raise PenaltyRuleError(
            _("Only the head judge may confirm or change a proposed Disqualification"), status_code=403
        )
    if not penalty.awaiting_head_judge:
        raise ConflictError(
            _("Penalty %(pk)s is not a proposal awaiting the head judge") % {"pk": penalty.pk},
            errors=[{"field": "penalty", "message": _("not awaiting the head judge")}],
        )
    reason = reason.strip()
    problems = []
    if not reason:
        problems.append({"field": "reason", "message": _("say why")})
    if decision not in ("confirm", "change"):
        problems.append({"field": "decision", "message": _("confirm or change")})
    elif decision == "change" and new_penalty in (None, "", PenaltyKind.DISQUALIFICATION.value):
        problems.append({"field": "penalty", "message": _("the penalty that replaces the Disqualification")})
    if problems:
        raise DomainError(
            _("The proposal was not decided: %(problems)s")
            % {"problems": "; ".join(p["message"] for p in problems)},
            errors=problems,
        )
    penalty.reviewed_by = actor
    penalty.reviewed_at = timezone.now()
    penalty.review_reason = reason
    before = {"review": penalty.review, **penalty_audit_view(penalty)}
    if decision == "confirm":
        penalty.review = HeadJudgeReview.CONFIRMED
        penalty.save(update_fields=["review", "reviewed_by", "reviewed_at", "review_reason"])
        team_disqualify(
            team=penalty.team,
            actor=actor,
            reason=f"penalty {penalty.pk}: {penalty.infraction} to {penalty.player.name}, "
            f"confirmed by the head judge: {reason}",
        )
        result = penalty
    else:
        penalty.review = HeadJudgeReview.CHANGED
        penalty.save(update_fields=["review", "reviewed_by", "reviewed_at", "review_reason"])
        result = penalty_issue(
            tournament=penalty.tournament,
            actor=actor,
            player=penalty.player,
            round_row=penalty.round,
            infraction=penalty.infraction,
            description=penalty.description,
            penalty=new_penalty,
            deviation_reason=f"replaces proposed Disqualification {penalty.pk}: {reason}",
            context=penalty.context,
            day=penalty.day,
        )
        penalty.replaced_by = result
        penalty.save(update_fields=["replaced_by"])
    audit_log(
        tournament=penalty.tournament,
        actor=actor,
        action=f"penalty_disqualification_{decision}",
        obj=penalty,
        before=before,
        after={"review": penalty.review, "penalty": result.penalty, "replaced_by": penalty.replaced_by_id},
        reason=reason,
    )
    return result
