from django.apps import AppConfig


class DecklistsConfig(AppConfig):
    name = "decklists"
