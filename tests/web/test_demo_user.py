import pytest
from django.contrib.auth import authenticate

from smashup.core.demo import DEMO_PASSWORD, DEMO_USERNAME, ensure_demo_organizer

pytestmark = pytest.mark.django_db


def test_demo_organizer_created_once_and_never_overwritten():
    user, created = ensure_demo_organizer()
    assert created and user.is_staff and user.is_superuser
    assert authenticate(username=DEMO_USERNAME, password=DEMO_PASSWORD) == user

    user.set_password("changed-by-the-organizer")
    user.save()
    again, created = ensure_demo_organizer()
    assert not created and again.pk == user.pk
    assert authenticate(username=DEMO_USERNAME, password="changed-by-the-organizer") == user
