from django.apps import AppConfig


class PenaltiesConfig(AppConfig):
    name = "penalties"
