from django.contrib.auth import views as auth_views
from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from smashup.core import limits
from smashup.core.health import health_report
from smashup.core.help import help_context


@require_safe
def home(request):
    """What works, "Play against bots" first (one tap to a game), and this visitor's games."""
    from smashup.play import mygames
    from smashup.play.tables import factions_available

    context = {"my_games": mygames.for_request(request), "faction_count": len(factions_available())}
    return render(request, "home.html", context)


@require_safe
def help_page(request):
    """The rules in our own words, Big Base, playing here, and every faction in one line."""
    return render(request, "help.html", help_context())


@never_cache
@require_safe
def healthz(request):
    report = health_report()
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)


class LoginView(auth_views.LoginView):
    """Django's login, throttled (``smashup.core.limits``): every login POST of an address counts
    (``login_address``), and each FAILED login counts against the user name, wherever it came from
    (``login_username``). Over either, the password is not even checked: a 429 page says how long to
    wait, and nothing about the session changes. A correct password does not clear the count of
    failures: the guesses made before it still happened."""

    def post(self, request, *args, **kwargs):
        username = _login_name(request.POST.get("username"))
        by_address = limits.hit("login_address", limits.request_address(request))
        by_name = not limits.reached("login_username", username)
        if not (by_address and by_name):
            seconds = limits.rate("login_address" if not by_address else "login_username")[1]
            who = "from this address" if not by_address else "for this user name"
            message = (
                f"Too many attempts to log in {who}. Please wait {limits.wait_text(seconds)} and try again."
            )
            return limits.refusal(request, message, seconds)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        username = _login_name(self.request.POST.get("username"))
        if username:
            limits.record("login_username", username)
        return super().form_invalid(form)


def _login_name(value) -> str | None:
    """The user name a login counts under: Django's user names are matched case-sensitively, but a
    guesser gains nothing from changing case, so the count ignores it."""
    text = str(value or "").strip()[:150]
    return f"user:{text.casefold()}" if text else None
