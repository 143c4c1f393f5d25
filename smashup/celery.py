"""The Celery app. Run a worker with ``celery -A smashup.celery worker``.

It is not imported from ``smashup/__init__.py`` (that would pull Django and Celery into the pure
engine); the ``smashup.core`` app config imports it when Django starts, so ``@shared_task`` tasks bind
to it in the web process as well as in the worker.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "smashup.settings")

app = Celery("smashup")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
