from django.db import models  # noqa: F401

# Game and choice-log models come with the live play issues.
