"""Reading a ``twohg-event`` document back into the database as a new event.

Rows are inserted in the file's order, so they get ids in the same relative order as
in the source database (the pairing engine breaks some ties by id). ``auto_now_add`` columns
ignore given values on insert, so the file's timestamps are written back with ``bulk_update``
right after each ``bulk_create``.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models
from django.utils import timezone

from decklists.models import DeckCheck, DeckCheckFinding
from event_io.reading import (
    FORMAT,
    TEAM_REF_IN_LINE,
    VERSION,
    EventFileError,
    Node,
    check_storable,
    player_key,
)
from penalties.models import Penalty
from tournaments.domain.day_two import day_two_problems
from tournaments.domain.event import MAX_AWARDED_BYES
from tournaments.domain.settings import time_zone_problem
from tournaments.enums import EntrySource, ResultKind, StaffRole, TeamSide
from tournaments.models import (
    Disqualification,
    DraftPod,
    KeepApart,
    Match,
    Player,
    ResultReport,
    Round,
    RoundPause,
    Staff,
    Team,
    TimeExtension,
    Tournament,
)

TOURNAMENT_CHOICES = (
    "format",
    "rel",
    "percentage_floor",
    "penalty_policy",
    "udc_mode",
    "late_entry_missed_rounds",
    "playoff_play_draw",
    "status",
)
TOURNAMENT_FLAGS = ("late_entry_open", "decklists_published")
#: The model each kind of object in the file is stored as, for the range of its integer columns.
FILE_COLUMNS: dict[str, type[models.Model]] = {
    "tournament": Tournament,
    "teams[]": Team,
    "teams[].players[]": Player,
    "rounds[]": Round,
    "rounds[].matches[]": Match,
    "rounds[].matches[].extensions[]": TimeExtension,
    "penalties[]": Penalty,
    "deck_checks[]": DeckCheck,
    "deck_checks[].findings[]": DeckCheckFinding,
    "pods[]": DraftPod,
}
#: Booster Draft settings and check-in; absent in files written before them: off.
TOURNAMENT_DRAFT_FLAGS = ("booster_draft_playoff", "cross_pod_pairing", "check_in_required")
#: Settings absent in files written before them, whose default is on.
TOURNAMENT_LATER_FLAGS_ON = ("player_reporting",)


def insert(model: type[models.Model], rows: list[tuple[models.Model, dict[str, Any]]]) -> list:
    """Insert ``rows`` (instance, columns to force) in order; forced columns are written after the
    insert, because ``auto_now``/``auto_now_add`` replace any value given to the insert itself."""
    created = model.objects.bulk_create([row for row, _ in rows])
    forced: set[str] = set()
    for row, values in rows:
        for field, value in values.items():
            setattr(row, field, value)
        forced.update(values)
    if forced and created:
        model.objects.bulk_update(created, sorted(forced))
    return created


LEGACY_REASON = "recorded before result reports were kept"


class Importer:
    """The rows created so far, by file key, so later parts of the file can refer to them.

    ``refs`` maps an audit ``object_type`` and a key (as JSON text) to the new row's id.
    """

    #: An event of the same name and date is refused (a second import of one file, by mistake).
    refuse_same_name = True

    def __init__(self, root: Node, *, keep_pk: int | None = None):
        self.root = root
        self.keep_pk = keep_pk
        self.users: dict[str, Any] = {}
        self.users_created: list[str] = []
        self.teams: dict[str, Team] = {}
        self.team_list: list[Team] = []
        self.players: dict[str, Player] = {}
        self.rounds: dict[int, Round] = {}
        self.matches: dict[str, Match] = {}
        self.extensions: dict[str, list[TimeExtension]] = {}
        self.refs: dict[str, dict[str, int]] = {}
        self.tournament: Tournament | None = None

    def remember(self, kind: str, key: Any, pk: int) -> None:
        self.refs.setdefault(kind, {})[json.dumps(key)] = pk

    def user(self, node: Node, key: str, *, null: bool = True):
        username = node.get(key, str, null=null)
        if username is None:
            return None
        if username not in self.users:
            raise EventFileError(node.at(key), f"{username!r} is not in the file's users")
        return self.users[username]

    def lookup(self, mapping: dict, key: Any, path: str, what: str, *, null: bool = True):
        if key is None and null:
            return None
        try:
            return mapping[json.dumps(key) if isinstance(key, list) else key]
        except (KeyError, TypeError):
            raise EventFileError(path, f"no {what} {key!r} in the file") from None

    def team(self, node: Node, key: str, *, null: bool = False) -> Team | None:
        return self.lookup(self.teams, node.get(key, str, null=null), node.at(key), "team")

    def player(self, node: Node, key: str) -> Player:
        return self.lookup(self.players, node.get(key, str), node.at(key), "player", null=False)

    def round(self, node: Node, key: str) -> Round:
        return self.lookup(self.rounds, node.get(key, int), node.at(key), "round", null=False)

    def match(self, node: Node, key: str, *, null: bool = False) -> Match | None:
        return self.lookup(self.matches, node.get(key, list, null=null), node.at(key), "match", null=null)

    def load_users(self) -> None:
        """Link each username to the existing account, or create one with an unusable password."""
        user_model = get_user_model()
        for node in self.root.nodes("users"):
            username = node.get("username", str)
            if not username or username in self.users:
                raise EventFileError(node.at("username"), f"empty or listed twice: {username!r}")
            user = user_model.objects.filter(username=username).first()
            if user is None:
                user = user_model.objects.create_user(username, email=node.get("email", str), password=None)
                self.users_created.append(username)
            self.users[username] = user

    def player_account(self, node: Node):
        """The account linked to a player (``None`` for a walk-in without one)."""
        return self.user(node, "user")

    def load_tournament(self, rename: str | None) -> Tournament:
        node = self.root.node("tournament")
        values: dict[str, Any] = {field: node.choice(field, Tournament) for field in TOURNAMENT_CHOICES}
        values.update({field: node.get(field, bool) for field in TOURNAMENT_FLAGS})
        values.update(
            {field: node.get(field, bool) for field in TOURNAMENT_DRAFT_FLAGS if field in node.value}
        )
        # Language and time zone: absent in files written before them (English, the site's zone).
        if "language" in node.value:
            values["language"] = node.choice("language", Tournament)
        if "time_zone" in node.value:
            values["time_zone"] = node.get("time_zone", str)
            if problem := time_zone_problem(values["time_zone"]):
                raise EventFileError(node.at("time_zone"), problem)
        values.update(
            {field: node.get(field, bool) for field in TOURNAMENT_LATER_FLAGS_ON if field in node.value}
        )
        for field in ("team_size", "games_per_match", "round_minutes"):
            values[field] = node.natural(field)
        for field in ("swiss_rounds", "top_cut"):
            values[field] = node.natural(field, null=True)
        # The cut to day 2: absent in files written before it (no cut).
        if "day_two_tiebreakers" in node.value:
            values["day_two_tiebreakers"] = node.choice("day_two_tiebreakers", Tournament)
        if "day_two" in node.value:
            values["day_two"] = node.get("day_two", dict, null=True)
            if problems := day_two_problems(values["day_two"], values["swiss_rounds"]):
                raise EventFileError(node.at("day_two"), problems[0])
        name = rename or node.get("name", str)
        date = node.date("date")
        if not name.strip():
            raise EventFileError(node.at("name"), "empty")
        if self.refuse_same_name and Tournament.objects.filter(name=name, date=date).exists():
            raise EventFileError(
                node.at("name"),
                f"an event named {name!r} on {date or 'no date'} exists already; import it under another name",
            )
        tournament = Tournament(
            **values,
            pk=self.keep_pk,
            name=name,
            date=date,
            venue=node.get("venue", str),
            tiebreakers=node.get("tiebreakers", list),
            seed=node.get("seed", int),
            decklist_deadline=node.moment("decklist_deadline", null=True),
            created_by=self.user(node, "created_by", null=False),
        )
        insert(Tournament, [(tournament, {"created_at": node.moment("created_at")})])
        self.tournament = tournament
        self.remember("tournament", None, tournament.pk)
        return tournament

    def load_staff(self) -> None:
        rows = []
        for node in self.root.nodes("staff"):
            rows.append(
                (
                    Staff(
                        tournament=self.tournament,
                        user=self.user(node, "user", null=False),
                        role=node.choice("role", Staff),
                    ),
                    {},
                )
            )
        for staff in insert(Staff, rows):
            self.remember("staff", staff.user.username, staff.pk)

    def load_teams(self) -> None:
        """Teams, then their players in one insert (after the teams have ids)."""
        team_rows, player_rows = [], []
        team_nodes = self.root.nodes("teams")
        for node in team_nodes:
            name = node.get("name", str)
            if not name or name in self.teams:
                raise EventFileError(node.at("name"), f"empty or listed twice: {name!r}")
            team = Team(
                tournament=self.tournament,
                name=name,
                registered_after_round=node.natural("registered_after_round"),
                dropped_after_round=node.natural("dropped_after_round", null=True),
                drop_reason=node.get("drop_reason", str),
                disqualified=node.get("disqualified", bool),
                fixed_table=node.natural("fixed_table", null=True),
                awarded_byes=self._awarded_byes(node),
            )
            self.teams[name] = team
            checked_in = node.moment("checked_in_at", null=True) if "checked_in_at" in node.value else None
            team_rows.append((team, {"created_at": node.moment("created_at"), "checked_in_at": checked_in}))
        self.team_list = insert(Team, team_rows)
        Disqualification.objects.bulk_create(
            self._disqualification(team, node)
            for team, node in zip(self.team_list, team_nodes, strict=True)
            if team.disqualified
        )
        for team, node in zip(self.team_list, team_nodes, strict=True):
            self.remember("team", team.name, team.pk)
            for player_node in node.nodes("players"):
                wizards_id = player_node.get("wizards_id", str)
                key = player_key(wizards_id, player_node.get("user", str, null=True))
                if not key or key in self.players:
                    raise EventFileError(
                        player_node.at("wizards_id"), f"empty or listed twice: {wizards_id!r}"
                    )
                player = Player(
                    tournament=self.tournament,
                    team=team,
                    name=player_node.get("name", str),
                    name_reading=player_node.get("name_reading", str)
                    if "name_reading" in player_node.value
                    else "",
                    wizards_id=wizards_id,
                    legacy_dci=player_node.get("legacy_dci", str),
                    user=self.player_account(player_node),
                    position=player_node.natural("position"),
                )
                self.players[key] = player
                player_rows.append((player, {}))
        for player in insert(Player, player_rows):
            self.remember(
                "player",
                player_key(player.wizards_id, player.user.username if player.user else None),
                player.pk,
            )

    @staticmethod
    def _disqualification(team: Team, node: Node) -> Disqualification:
        """A disqualified team's record; files written before it existed give no drop before."""
        record = node.node("disqualification", null=True) if "disqualification" in node.value else None
        if record is None:
            return Disqualification(team=team)
        return Disqualification(
            team=team,
            dropped_after_round_before=record.natural("dropped_after_round_before", null=True),
            drop_reason_before=record.get("drop_reason_before", str),
        )

    @staticmethod
    def _awarded_byes(node: Node) -> int:
        """0 to 3; files written before awarded byes existed have none."""
        if "awarded_byes" not in node.value:
            return 0
        value = node.natural("awarded_byes")
        if value is None or value > MAX_AWARDED_BYES:
            raise EventFileError(node.at("awarded_byes"), f"0 to {MAX_AWARDED_BYES} rounds, got {value}")
        return value

    def load_keep_apart(self) -> None:
        rows = [
            (
                KeepApart(
                    tournament=self.tournament,
                    team_a=self.team(node, "team_a"),
                    team_b=self.team(node, "team_b"),
                    reason=node.get("reason", str),
                ),
                {},
            )
            for node in self.root.nodes("keep_apart")
        ]
        insert(KeepApart, rows)

    def load_pods(self) -> None:
        rows = []
        for node in self.root.nodes("pods") if "pods" in self.root.value else []:
            teams = node.get("teams", list)
            team_ids = [
                self.lookup(self.teams, name, f"{node.at('teams')}[{i}]", "team", null=False).pk
                for i, name in enumerate(teams)
            ]
            pod = DraftPod(
                tournament=self.tournament,
                draft=node.natural("draft"),
                number=node.natural("number"),
                team_ids=team_ids,
                seated_after_round=node.natural("seated_after_round"),
            )
            rows.append((pod, {"created_at": node.moment("created_at")}))
        insert(DraftPod, rows)

    def player_ids(self, wizards_ids: Any, path: str) -> list[int]:
        if not isinstance(wizards_ids, list):
            raise EventFileError(path, "expected a list of Wizards ids")
        return [
            self.lookup(self.players, wizards_id, f"{path}[{index}]", "player", null=False).pk
            for index, wizards_id in enumerate(wizards_ids)
        ]

    def team_ids(self, names: Any, path: str) -> Any:
        if isinstance(names, list):
            return [self.team_ids(name, f"{path}[{index}]") for index, name in enumerate(names)]
        return None if names is None else self.lookup(self.teams, names, path, "team").pk

    def message_teams(self, message: Any, path: str) -> Any:
        """An explanation message with the file's ``#n`` team references (values named ``team…``)
        turned back into ids."""
        if not isinstance(message, dict) or not isinstance(message.get("values"), dict):
            return message
        values = {}
        for key, value in message["values"].items():
            if key.startswith("team") and isinstance(value, str) and value.startswith("#"):
                index = int(value[1:]) if value[1:].isdecimal() else 0
                if not 1 <= index <= len(self.team_list):
                    raise EventFileError(path, f"team {value} is not in the file's teams")
                values[key] = self.team_list[index - 1].pk
            else:
                values[key] = self.message_teams(value, path)
        return {"msgid": message.get("msgid", ""), "values": values}

    def explanation(self, node: Node) -> dict[str, Any]:
        """The pairing explanation with the file's team references turned back into ids."""
        result = dict(node.get("explanation", dict))
        path = node.at("explanation")
        if "lines" in result:

            def team_id(found) -> str:
                index = int(found.group(2))
                if not 1 <= index <= len(self.team_list):
                    raise EventFileError(f"{path}.lines", f"team #{index} is not in the file's teams")
                return f"{found.group(1)} {self.team_list[index - 1].pk}"

            result["lines"] = [TEAM_REF_IN_LINE.sub(team_id, str(line)) for line in result["lines"]]
        if isinstance(result.get("messages"), list):
            result["messages"] = [
                self.message_teams(message, f"{path}.messages") for message in result["messages"]
            ]
        for field in ("bye_team", "rematches", "unmet_keep_apart"):
            if field in result:
                result[field] = self.team_ids(result[field], f"{path}.{field}")
        return result

    def load_rounds(self) -> None:
        """Rounds, their pauses, matches and time extensions; match keys are ``[round, team_a]``."""
        round_rows = []
        round_nodes = self.root.nodes("rounds")
        for node in round_nodes:
            number = node.natural("number")
            if number in self.rounds:
                raise EventFileError(node.at("number"), f"round {number} is listed twice")
            self.rounds[number] = Round(
                tournament=self.tournament,
                number=number,
                kind=node.choice("kind", Round),
                seed=node.get("seed", int),
                explanation=self.explanation(node),
                manual_reason=node.get("manual_reason", str),
                length_minutes=node.natural("length_minutes", null=True),
                started_at=node.moment("started_at", null=True),
                time_up_recorded_at=node.moment("time_up_recorded_at", null=True),
                published_at=node.moment("published_at", null=True),
                finished_at=node.moment("finished_at", null=True),
            )
            round_rows.append((self.rounds[number], {"created_at": node.moment("created_at")}))
        insert(Round, round_rows)
        pauses, matches = [], []
        for node in round_nodes:
            round_row = self.rounds[node.value["number"]]
            self.remember("round", round_row.number, round_row.pk)
            for pause in node.nodes("pauses"):
                row = RoundPause(
                    round=round_row,
                    paused_at=pause.moment("paused_at"),
                    resumed_at=pause.moment("resumed_at", null=True),
                )
                pauses.append((row, {}))
            matches.extend(self.match_row(round_row, match) for match in node.nodes("matches"))
        insert(RoundPause, pauses)
        insert(Match, [(match, {}) for match, _ in matches])
        self.load_extensions(matches)

    def match_row(self, round_row: Round, node: Node) -> tuple[Match, Node]:
        team_a = self.team(node, "team_a")
        key = json.dumps([round_row.number, team_a.name])
        if key in self.matches:
            raise EventFileError(
                node.at("team_a"), f"{team_a.name!r} plays twice in round {round_row.number}"
            )
        seats = node.get("seats", dict)
        team_b = self.team(node, "team_b", null=True)
        if team_b is team_a:
            raise EventFileError(node.at("team_b"), f"a team cannot play itself ({team_a.name!r})")
        match = Match(
            round=round_row,
            table=node.natural("table", null=True),
            team_a=team_a,
            team_b=team_b,
            bracket_slot=node.natural("bracket_slot", null=True),
            pod=node.natural("pod", null=True) if "pod" in node.value else None,
            result_kind=node.choice("result_kind", Match),
            team_a_wins=node.natural("team_a_wins"),
            team_b_wins=node.natural("team_b_wins"),
            draws=node.natural("draws"),
            reported_by=self.user(node, "reported_by"),
            reported_at=node.moment("reported_at", null=True),
            confirmed=node.get("confirmed", bool),
            reported_side=node.choice("reported_side", Match),
            disputed=node.get("disputed", bool),
            version=node.natural("version"),
            seats={side: self.player_ids(ids, f"{node.at('seats')}.{side}") for side, ids in seats.items()},
            extra_turns_since=node.moment("extra_turns_since", null=True),
            time_called_at=node.moment("time_called_at", null=True),
            active_team=node.choice("active_team", Match),
            turns_completed=node.natural("turns_completed"),
        )
        self.matches[key] = match
        return match, node

    def load_extensions(self, matches: list[tuple[Match, Node]]) -> None:
        """Time extensions, then each match's result from before a penalty (it names other matches)."""
        rows, keys = [], []
        for match, node in matches:
            key = [match.round.number, match.team_a.name]
            self.remember("match", key, match.pk)
            self.extensions[json.dumps(key)] = []
            for index, extension in enumerate(node.nodes("extensions")):
                row = TimeExtension(
                    match=match,
                    minutes=extension.natural("minutes"),
                    reason=extension.get("reason", str),
                    granted_by=self.user(extension, "granted_by", null=False),
                )
                self.extensions[json.dumps(key)].append(row)
                rows.append((row, {"created_at": extension.moment("created_at")}))
                keys.append([*key, index])
        for row, key in zip(insert(TimeExtension, rows), keys, strict=True):
            self.remember("timeextension", key, row.pk)
        self.load_reports(matches)

    def load_reports(self, matches: list[tuple[Match, Node]]) -> None:
        """Each match's result reports, from which its result is derived (files written before the
        reports were kept carry none: their stored result gets the rows that give it)."""
        rows = []
        for match, node in matches:
            if "reports" not in node.value:
                rows += [(row, {}) for row in legacy_reports(match)]
                continue
            for report in node.nodes("reports"):
                row = ResultReport(
                    match=match,
                    source=report.choice("source", ResultReport),
                    side=report.choice("side", ResultReport),
                    team_a_wins=report.natural("team_a_wins"),
                    team_b_wins=report.natural("team_b_wins"),
                    draws=report.natural("draws"),
                    author=self.user(report, "author"),
                    match_version=report.natural("match_version"),
                    reason=report.get("reason", str),
                    created_at=report.moment("created_at"),
                )
                rows.append((row, {}))
        insert(ResultReport, rows)


class MirrorImporter(Importer):
    """Reads a pushed event file as a mirror owned by ``owner``, under the id of the copy it replaces.

    The file's accounts are the laptop's, not this server's: a username here may belong to someone
    else. So no account is linked or created: every account the file names stands for the owner
    (the event's creator, judges, authors of reports), the owner is the only staff (organizer), and
    players keep no account. The audit trail stays with the event of record and is not loaded.
    Another event with the same name and date is no reason to refuse a copy.
    """

    refuse_same_name = False

    def __init__(self, root: Node, *, owner: Any, keep_pk: int | None = None):
        super().__init__(root, keep_pk=keep_pk)
        self.owner = owner

    def load_users(self) -> None:
        for node in self.root.nodes("users"):
            username = node.get("username", str)
            if not username or username in self.users:
                raise EventFileError(node.at("username"), f"empty or listed twice: {username!r}")
            self.users[username] = self.owner

    def load_staff(self) -> None:
        self.root.nodes("staff")  # still checked to be a list, as an import checks it
        insert(Staff, [(Staff(tournament=self.tournament, user=self.owner, role=StaffRole.ORGANIZER), {})])

    def player_account(self, node: Node):
        self.user(node, "user")  # still checked against the file's users
        return None


def legacy_reports(match: Match) -> list[ResultReport]:
    """The report rows that give a match's stored result, for a file from before reports were kept:
    a staff entry, or the players' reports (both teams' when confirmed), or the penalty."""
    if match.team_b_id is None or match.result_kind == ResultKind.PENDING:
        return []
    common = {"match": match, "match_version": max(match.version - 1, 0), "reason": LEGACY_REASON}
    common["created_at"] = match.reported_at or timezone.now()
    counts = {"team_a_wins": match.team_a_wins, "team_b_wins": match.team_b_wins, "draws": match.draws}
    if match.result_kind in (ResultKind.MATCH_LOSS, ResultKind.DOUBLE_LOSS):
        loser = "" if match.result_kind == ResultKind.DOUBLE_LOSS else "A" if match.team_a_wins == 0 else "B"
        return [ResultReport(source=EntrySource.PENALTY, side=loser, author=match.reported_by, **common)]
    if not match.reported_side:
        return [ResultReport(source=EntrySource.STAFF, author=match.reported_by, **counts, **common)]
    rows = []
    if match.confirmed:
        other = TeamSide(match.reported_side).other
        rows.append(ResultReport(source=EntrySource.PLAYER, side=other, **counts, **common))
    side = match.reported_side
    rows.append(
        ResultReport(source=EntrySource.PLAYER, side=side, author=match.reported_by, **counts, **common)
    )
    return rows


def check_format(root: Node) -> None:
    """Refuse files of another kind or version before reading anything else."""
    if root.raw("format") != FORMAT:
        raise EventFileError("format", f"expected {FORMAT!r}, got {root.value['format']!r}")
    version = root.raw("version")
    if version != VERSION:
        raise EventFileError(
            "version", f"this toolkit reads version {VERSION}, the file is version {version!r}"
        )


def load_event_rows(importer: Importer, rename: str | None) -> Tournament:
    """The event's own rows: users, the tournament, staff, teams, players, keep-apart pairs, rounds."""
    check_format(importer.root)
    check_storable(importer.root.value, columns=FILE_COLUMNS)
    importer.load_users()
    tournament = importer.load_tournament(rename)
    importer.load_staff()
    importer.load_teams()
    importer.load_keep_apart()
    importer.load_pods()
    importer.load_rounds()
    return tournament
