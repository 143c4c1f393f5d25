"""`manage.py start` listens on loopback unless told otherwise, and says loudly when the DEBUG setup
(whose demo organizer has a public password) is asked to listen where other machines can reach it.
The command is stopped early here (its port is taken), after what it says first."""

from __future__ import annotations

import io
import socket

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from smashup.core import demo
from smashup.core.management.commands.start import Command


@pytest.mark.parametrize(
    "host, loopback",
    [
        ("127.0.0.1", True),
        ("127.0.0.2", True),
        ("::1", True),
        ("[::1]", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("::", False),
        ("", False),
        ("192.168.1.20", False),
        ("table.example.org", False),
    ],
)
def test_which_addresses_are_this_machine_only(host, loopback):
    assert demo.is_loopback(host) is loopback
    assert (demo.public_password_warning(host) is None) is loopback


def test_start_listens_on_loopback_by_default():
    options = Command().create_parser("manage.py", "start").parse_args([])
    assert options.host == "127.0.0.1" and demo.is_loopback(options.host)


@pytest.fixture
def taken_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(64)  # never accepted: room for every probe
        yield sock.getsockname()[1]


def run_start(host: str, port: int) -> str:
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match="already in use"):
        call_command("start", host=host, port=port, stdout=out, stderr=err)
    return err.getvalue()


def test_another_address_in_debug_is_warned_about_loudly(settings, taken_port):
    settings.DEBUG = True
    said = run_start("0.0.0.0", taken_port)
    assert "WARNING" in said and "PUBLIC password 'smashup-demo'" in said and "organizer" in said
    assert run_start("127.0.0.1", taken_port) == ""
    settings.DEBUG = False  # no demo organizer outside DEBUG: nothing to warn about
    assert run_start("0.0.0.0", taken_port) == ""
