"""Site-wide pieces of the Django project: home page, health check, the ``start`` command."""
