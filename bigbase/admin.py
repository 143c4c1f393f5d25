"""The organizer edits boards here: the VP table per period and the slot abilities are data."""
import json

from django import forms
from django.contrib import admin

from .models import Board


class BoardForm(forms.ModelForm):
    class Meta:
        model = Board
        fields = ("slug", "name", "offered", "data")
        widgets = {"data": forms.Textarea(attrs={"rows": 30, "cols": 90, "style": "font-family: monospace"})}
        help_texts = {
            "data": "JSON in the shape of bigbase/data/boards.yaml: rounds_per_period, periods, "
            "period_vp ({\"1\": [1st, 2nd, 3rd, 4th], ...}), side_bonus_vp, tiebreak_period and "
            "sides (North, East, South, West, each with three slots: {} or "
            "{\"ability\": \"on_occupation\"|\"ongoing\", \"effect\": {word: value}}).",
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:  # shown indented, one key per line
            self.initial["data"] = json.dumps(self.instance.data, indent=2)


@admin.register(Board)
class BoardAdmin(admin.ModelAdmin):
    form = BoardForm
    list_display = ("name", "slug", "offered", "updated_at")
    list_filter = ("offered",)
    search_fields = ("name", "slug")
