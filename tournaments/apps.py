from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self):
        # Results of tables played in the app: play tells us when a game finishes (play never
        # imports tournaments).
        from smashup.play.signals import game_finished

        from . import judging_admin  # noqa: F401 - the admin of judge calls and penalties
        from .in_app import game_finished as record_result

        game_finished.connect(record_result, dispatch_uid="tournaments.in_app.game_finished")
        from . import notice_admin  # noqa: F401 - the admin of push subscriptions and notice e-mails
