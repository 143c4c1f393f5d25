from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "smashup.play"
    label = "play"
    verbose_name = "Live play"
