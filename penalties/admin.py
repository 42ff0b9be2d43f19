from django.contrib import admin

from penalties.models import Penalty


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin):
    """Read-only: a penalty changes only through the services (issue, overturn), which apply the team
    consequences and write the audit entry; an edit here would leave results and the log behind."""

    list_display = (
        "created_at",
        "tournament",
        "round",
        "player",
        "team",
        "infraction",
        "penalty",
        "deviated",
        "overturned",
    )
    list_filter = ("tournament", "infraction", "penalty", "deviated", "overturned")
    search_fields = ("player__name", "team__name", "description")
    list_select_related = ("tournament", "round", "player", "team")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
