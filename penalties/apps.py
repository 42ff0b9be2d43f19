from django.apps import AppConfig


class PenaltiesConfig(AppConfig):
    name = "penalties"

    def ready(self) -> None:
        from penalties.selectors import match_point_adjustments
        from tournaments.hooks import register_match_point_adjustments

        register_match_point_adjustments(match_point_adjustments)
