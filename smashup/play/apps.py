from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "smashup.play"
    label = "play"
    verbose_name = "Live play"

    def ready(self):
        # Register the tasks: the modules below them schedule them by name (`commits.PLAY_BOT`,
        # `timers.TURN_TIMEOUT`), so that nothing they import imports the tasks module back.
        from . import tasks  # noqa: F401
