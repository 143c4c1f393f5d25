"""The main decision copies an Option field by field to mark an identical copy's play
(Game._mark_alike): a field added to Option must be added there too."""
import dataclasses

from smashup.engine.core import Option


def test_mark_alike_copies_every_field_of_option():
    assert [f.name for f in dataclasses.fields(Option)] == [
        "id", "label", "card", "base", "value", "alike", "play"], "update Game._mark_alike's copy"
