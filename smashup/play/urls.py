from django.urls import path

from . import views

app_name = "play"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("join/", views.join, name="join"),
    path("t/<str:public_id>/", views.table, name="table"),
    path("t/<str:public_id>/seats/", views.table_seats, name="table_seats"),
    path("t/<str:public_id>/sit/<int:index>/", views.sit, name="sit"),
    path("t/<str:public_id>/start/", views.start, name="start"),
    path("t/<str:public_id>/draft/", views.draft_pick, name="draft_pick"),
    path("t/<str:public_id>/factions/", views.pick_factions, name="pick_factions"),
    path("s/<str:token>/", views.seat_link, name="seat_link"),
    path("r/<str:token>/", views.resume, name="resume"),
    path("g/<str:public_id>/", views.game, name="game"),
    path("g/<str:public_id>/choice/", views.choice, name="choice"),
    path("g/<str:public_id>/undo/", views.undo, name="undo"),
    path("g/<str:public_id>/replay/", views.replay, name="replay"),
    path("g/<str:public_id>/display/", views.display, name="display"),
    path("g/<str:public_id>/hotseat/", views.hotseat, name="hotseat"),
]
