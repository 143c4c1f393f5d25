"""Smash Up table and tournament server.

This package is both the Django project (settings, urls, asgi, celery app) and the home of the pure
rules engine (``smashup.engine``, ``smashup.cards``). Keep this file free of Django and Celery imports:
importing ``smashup.engine`` must not pull Django in. The Celery app lives in ``smashup.celery`` and is
loaded by the ``smashup.core`` app config when Django starts.
"""
