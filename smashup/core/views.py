from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from smashup.core.health import health_report
from smashup.core.help import help_context


@require_safe
def home(request):
    """What works, "Play against bots" first (one tap to a game), and this visitor's games."""
    from smashup.botregistry import DEFAULT_LEVEL, offered_levels
    from smashup.play import mygames
    from smashup.play.tables import factions_available

    context = {
        "my_games": mygames.for_request(request),
        "faction_count": len(factions_available()),
        "bot_levels": offered_levels(),  # "Play against bots": its bots' level
        "default_level": DEFAULT_LEVEL,
    }
    return render(request, "home.html", context)


@require_safe
def help_page(request):
    """The rules in our own words, Big Base, playing here, and every faction in one line."""
    return render(request, "help.html", help_context())


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

