from django.apps import AppConfig


class ClockConfig(AppConfig):
    """The round clock: start/pause/resume, extensions, time called and the end-of-round turns.

    It stores its facts on the tournaments app's rows (rounds, pauses, extensions, matches) and
    depends on tournaments and penalties one way; nothing there imports the clock.
    """

    name = "clock"
