from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from smashup.core import accounts
from smashup.core import views as core_views

urlpatterns = [
    path("", core_views.home, name="home"),
    path("healthz", core_views.healthz, name="healthz"),
    path("help/", core_views.help_page, name="help"),
    # Browsers ask for /favicon.ico whatever the page says: send them to the drawn icon (no 404).
    path("favicon.ico", core_views.favicon, name="favicon"),
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/login/link/<uidb64>/<token>/", accounts.login_link, name="login_link"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/signup/sent/", accounts.signup_sent, name="signup_sent"),
    path("accounts/signup/confirm/<str:token>/", accounts.signup_confirm, name="signup_confirm"),
    path("accounts/password-reset/", accounts.PasswordResetView.as_view(), name="password_reset"),
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
