from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "smashup.core"
    label = "core"
    verbose_name = "Smash Up site"

    def ready(self):
        # Load the Celery app so shared tasks bind to it in every Django process.
        from smashup import celery  # noqa: F401
