"""WSGI entry point (HTTP only; the site is normally served over ASGI by daphne, see asgi.py)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "smashup.settings")

application = get_wsgi_application()
