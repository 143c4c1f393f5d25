"""Every power read from the engine's cache (Game.version) is checked against one computed afresh,
so a state change that forgot `Game.changed()` fails the test that made it."""
import pytest

from smashup.engine import powers as powers_module


@pytest.fixture(autouse=True)
def verify_power_cache(monkeypatch):
    monkeypatch.setattr(powers_module, "VERIFY_POWERS", True)
