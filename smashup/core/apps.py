import gc

from django.apps import AppConfig

# The cycle collector's first generation is walked after this many more container objects are
# alive than at its last walk (Python's default: 700). The engine makes and keeps a few thousand
# small ones a game (its state, option rows, cached plays), so at 700 the collector walked every
# few choices and found nothing to free: 5,000 made random games 1.09x faster per CPU-second in
# bench_engine (3 interleaved rounds of 700, 2,000, 5,000, 10,000 and 20,000; 20,000 was slower
# again). Cycles are still collected, later.
YOUNG_GENERATION_THRESHOLD = 5000


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
        gc.set_threshold(YOUNG_GENERATION_THRESHOLD, *gc.get_threshold()[1:])
