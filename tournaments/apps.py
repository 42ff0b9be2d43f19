from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        # The event generation's receivers: every write that changes a public page moves it.
        from tournaments import live  # noqa: F401
