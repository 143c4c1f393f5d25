from django.http import JsonResponse
from django.shortcuts import render
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


@never_cache
@require_safe
def healthz(request):
    report = health_report()
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)
