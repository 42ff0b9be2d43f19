from django.apps import AppConfig


class FloorConfig(AppConfig):
    name = "floor"
    verbose_name = "Judges on the floor"

    def ready(self) -> None:
        from floor import receivers  # noqa: F401  (connects the receivers)
