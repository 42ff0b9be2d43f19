from django.apps import AppConfig


class DecklistsConfig(AppConfig):
    name = "decklists"

    def ready(self) -> None:
        from decklists.selectors import teams_without_lists
        from tournaments.hooks import register_teams_without_lists

        register_teams_without_lists(teams_without_lists)
