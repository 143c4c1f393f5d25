from django.urls import path

from . import views

app_name = "tournaments"

urlpatterns = [
    path("", views.event_list, name="list"),
    path("new/", views.event_new, name="new"),
    path("p/<str:token>/", views.private_link, name="private"),
    path("<int:pk>/", views.event_page, name="event"),
    path("<int:pk>/signup/", views.signup, name="signup"),
    path("<int:pk>/standings/", views.standings_page, name="standings"),
    path("<int:pk>/rules/", views.rules_page, name="rules"),
    path("<int:pk>/round/<int:number>/", views.round_page, name="round"),
    path("<int:pk>/round/<int:number>/print/", views.round_print, name="round_print"),
    path("<int:pk>/live.json", views.live_state, name="live"),
    path("<int:pk>/projector/", views.projector, name="projector"),
    path("<int:pk>/me/", views.me_page, name="me"),
    path("<int:pk>/me/drop/", views.drop_me, name="drop_me"),
    path("<int:pk>/tables/<int:table_pk>/report/", views.report, name="report"),
    path("<int:pk>/tables/<int:table_pk>/confirm/", views.confirm, name="confirm"),
    path("<int:pk>/tables/<int:table_pk>/dispute/", views.dispute, name="dispute"),
    path("<int:pk>/tables/<int:table_pk>/draft/", views.draft_page, name="draft"),
    path("<int:pk>/tables/<int:table_pk>/draft/pick/", views.draft_pick, name="draft_pick"),
    path("<int:pk>/export/<str:kind>.csv", views.export, name="export"),
    path("<int:pk>/export.json", views.export_json, name="export_json"),
    path("<int:pk>/api/", views.api_docs, name="api"),
    path("<int:pk>/api/standings.json", views.api_standings, name="api_standings"),
    path("<int:pk>/api/pairings.json", views.api_pairings, name="api_pairings"),
    # Organizers only.
    path("<int:pk>/manage/", views.manage, name="manage"),
    path("<int:pk>/edit/", views.event_edit, name="edit"),
    path("<int:pk>/audit/", views.audit_page, name="audit"),
    path("<int:pk>/organizers/add/", views.co_organizer_add, name="co_add"),
    path("<int:pk>/organizers/<int:user_id>/remove/", views.co_organizer_remove, name="co_remove"),
    path("<int:pk>/entrants/add/", views.entrant_add, name="entrant_add"),
    path("<int:pk>/entrants/<int:entrant_pk>/<str:action>/", views.entrant_action, name="entrant_action"),
    path("<int:pk>/rounds/new/", views.round_new, name="round_new"),
    path("<int:pk>/rounds/undo/", views.round_undo, name="round_undo"),
    path("<int:pk>/rounds/top-cut/", views.top_cut, name="top_cut"),
    path("<int:pk>/rounds/final/", views.final, name="final"),
    path("<int:pk>/rounds/<int:number>/swap/", views.swap, name="swap"),
    path("<int:pk>/tables/<int:table_pk>/result/", views.result, name="result"),
    path("<int:pk>/tables/<int:table_pk>/in-app/", views.table_in_app, name="table_in_app"),
    path("<int:pk>/rounds/in-app/", views.round_in_app, name="round_in_app"),
    path("<int:pk>/clock/<str:action>/", views.clock_action, name="clock"),
    path("<int:pk>/finish/", views.finish, name="finish"),
]
