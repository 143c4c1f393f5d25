from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from smashup.core import accounts
from smashup.core import views as core_views

urlpatterns = [
    path("", core_views.home, name="home"),
    path("healthz", core_views.healthz, name="healthz"),
    # Browsers ask for /favicon.ico whatever the page says: send them to the drawn icon (no 404).
    path("favicon.ico", core_views.favicon, name="favicon"),
    path("accounts/login/", core_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/password-reset/", auth_views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "accounts/password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("play/", include("smashup.play.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("admin/", admin.site.urls),
]
