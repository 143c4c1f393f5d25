from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from smashup.core import views as core_views

urlpatterns = [
    path("", core_views.home, name="home"),
    path("healthz", core_views.healthz, name="healthz"),
    path("accounts/login/", core_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("play/", include("smashup.play.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("admin/", admin.site.urls),
]
