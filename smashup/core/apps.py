import gc

from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "smashup.core"
    label = "core"
    verbose_name = "Smash Up site"

    def ready(self):
        import smashup.cards  # noqa: F401  (the card registry, built once a process)

        # Load the Celery app so shared tasks bind to it in every Django process.
        from smashup import celery  # noqa: F401
        from smashup.core import checks  # noqa: F401  (registers the site's system checks)

        # What start-up made (Django, the libraries, every app's models, the card registry:
        # about 100,000 objects) lives as long as the process. Frozen, Python's cycle collector
        # stops walking it at each full collection: games ran about 10% slower in a Django process
        # than in a bare one before this (bench_engine), in the server and workers as in the bench.
        # Objects made later are collected as before.
        gc.freeze()
