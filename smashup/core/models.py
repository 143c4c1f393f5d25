"""The site's own rows (the games and events have their apps)."""

from __future__ import annotations

from django.db import models


class PendingSignup(models.Model):
    """A sign-up waiting for its e-mailed link (smashup/core/accounts.py): the account is made only
    when the owner of the e-mail opens it, so a sign-up never says whether a user name or an e-mail
    is taken, and a user name clash is settled then, with the owner of the e-mail alone. The link's
    token is kept only as its SHA-256; the password only as Django's hash of it."""

    token_hash = models.CharField(max_length=64, unique=True)
    username = models.CharField(max_length=150)
    email = models.EmailField()
    password = models.CharField(max_length=128)  # make_password(): the hash, never the password
    next_url = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["email"])]

    def __str__(self) -> str:
        return f"sign-up of {self.username} <{self.email}> ({self.created_at:%Y-%m-%d %H:%M})"
