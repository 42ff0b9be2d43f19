from django.apps import AppConfig


class DocumentsConfig(AppConfig):
    name = "documents"

    def ready(self) -> None:
        from documents import (
            receivers,  # noqa: F401  (connects the receivers)
            tasks,  # noqa: F401  (registers the render task ``services`` sends by name)
        )
