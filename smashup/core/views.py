from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from smashup.core.health import health_report


@require_safe
def home(request):
    return render(request, "home.html")


@never_cache
@require_safe
def healthz(request):
    report = health_report()
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)
