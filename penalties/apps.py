from django.apps import AppConfig


class PenaltiesConfig(AppConfig):
    name = "penalties"

    def ready(self) -> None:
        from penalties.selectors import match_point_adjustments, penalty_name
        from tournaments.hooks import register_audit_value_label, register_match_point_adjustments

        register_match_point_adjustments(match_point_adjustments)
        for key in ("penalty", "proposed_penalty"):
            register_audit_value_label(key, penalty_name)
