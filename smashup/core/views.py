from django.contrib.auth import views as auth_views
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from smashup.core import limits
from smashup.core.health import health_report


@require_safe
def home(request):
    return render(request, "home.html")


@require_safe
def favicon(request):
    """Browsers ask for /favicon.ico whatever the page says: the drawn icon's (hashed) static URL,
    looked up per request. Asked at import, it made every command (`start` included) fail with DEBUG
    off before `collectstatic` had written the manifest."""
    return redirect(static("favicon.svg"), permanent=True)


@never_cache
@require_safe
def healthz(request):
    """200 "ok" or 503 "failing" for everyone (load balancers, Compose's healthcheck); staff also get
    what each check found, as JSON (the database's type, Redis, the channel layer, the worker)."""
    staff = request.user.is_authenticated and request.user.is_staff
    report = health_report(worker=staff)
    status = 200 if report["status"] == "ok" else 503
    if staff:
        return JsonResponse(report, status=status)
    return HttpResponse("ok" if status == 200 else "failing", status=status, content_type="text/plain")


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
