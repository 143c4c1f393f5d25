from django.db import models  # noqa: F401

# Shared-table models come with the Big Base issues.
