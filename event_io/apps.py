from django.apps import AppConfig


class EventIoConfig(AppConfig):
    """Export and import of a whole event (``export_event`` / ``import_event``).

    It reads and writes every other app's rows, so it sits on top of them all and nothing imports it.
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "event_io"
    verbose_name = "Event export and import"
