"""Fixtures of the web tests."""

from __future__ import annotations

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The WebSocket connection counts live in the cache (``smashup.play.limits``): every test starts
    with none, so tests never count each other's connections."""
    cache.clear()
    yield
    cache.clear()
