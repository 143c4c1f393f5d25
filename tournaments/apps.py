from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self):
        # Results of tables played in the app: play tells us when a game finishes (play never
        # imports tournaments).
        from smashup.play.signals import game_finished, game_notes

        from . import judging_admin  # noqa: F401 - the admin of judge calls and penalties
        from .in_app import game_finished as record_result
        from .in_app import game_notes as table_notes

        game_finished.connect(record_result, dispatch_uid="tournaments.in_app.game_finished")
        # What a game page says of its tournament table: the clock, a result typed in.
        game_notes.connect(table_notes, dispatch_uid="tournaments.in_app.game_notes")
        from . import notice_admin  # noqa: F401 - the admin of push subscriptions and notice e-mails
