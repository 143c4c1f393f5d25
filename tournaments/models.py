from django.db import models  # noqa: F401

# Event, entrant, round and table models come with the tournament issues.
