from django.contrib import admin

from tournaments.models import AuditEntry, Match, Player, Round, Staff, Team, Tournament


class StaffInline(admin.TabularInline):
    model = Staff
    extra = 0


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ("name", "wizards_id", "user", "position")


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "date", "format", "rel", "team_size", "status")
    list_filter = ("status", "format", "rel")
    search_fields = ("name", "venue")
    inlines = [StaffInline]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ("name", "tournament", "dropped_after_round", "disqualified")
    list_filter = ("tournament",)
    search_fields = ("name", "players__name", "players__wizards_id")
    inlines = [PlayerInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "kind", "phase", "started_at")
    list_filter = ("tournament",)


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = (
        "round",
        "table",
        "team_a",
        "team_b",
        "result_kind",
        "team_a_wins",
        "team_b_wins",
        "draws",
    )
    list_select_related = ("round__tournament", "team_a", "team_b")


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    """Read-only: the audit log is evidence, so support staff may read it but never change it."""

    list_display = ("created_at", "tournament", "actor", "action", "object_type", "object_id", "reason")
    list_filter = ("action", "tournament")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
