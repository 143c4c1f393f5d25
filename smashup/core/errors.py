"""The base of every refused request, shared by live play and tournaments."""

from __future__ import annotations


class Refused(Exception):
    """A refused request. `str(err)` is for people, `err.code` for programs. Nothing was changed."""

    code = "error"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self)
