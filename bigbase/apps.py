from django.apps import AppConfig


class BigBaseConfig(AppConfig):
    name = "bigbase"
    verbose_name = "Big Base"
