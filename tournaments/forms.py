"""Forms of the tournament pages: they only parse and validate input; `services` does the work."""

from __future__ import annotations

from django import forms

from smashup import draft as kiq
from smashup.core import params
from tournaments.standings import TIEBREAKERS

from . import services
from .models import TIEBREAKER_LABELS, Event

TIEBREAKER_SLOTS = len(TIEBREAKERS)
FACTION_CHOICES = [(f, f"{f} ({kiq.SETS[s]})") for f, s in kiq.FACTIONS.items()]


# The event form in short sections (event_form.html): what most events set, then the rest folded
# under "More" (a <details>), opened when one of its fields has an error or a value that is not the
# default. Every field of the form is in exactly one place (a test checks it).
FORM_SECTIONS = (
    ("The event", ("name", "date", "place", "description"), (), ""),
    (
        "Format",
        ("table_size", "rounds", "top_cut"),
        ("mode", "board", "layout", "short_tables", "avoid_clubs"),
        "Big Base, table layout, short tables, clubs in round 1",
    ),
    (
        "Round clock and the end of a game",
        ("round_minutes",),
        ("warnings", "end_rule", "in_app_base_limit"),
        "clock warnings, when time is called, the base limit",
    ),
    (
        "Factions and draft (Kickin' It Queensberry)",
        ("draft_mode",),
        ("faction_pool", "bans_per_player", "pick_seconds", "faction_copies", "min_factions_per_player"),
        "the faction pool, bans, pick timer, copies, minimum pool",
    ),
    (
        "Scoring and standings",
        ("scoring",),
        tuple(f"tiebreaker_{i + 1}" for i in range(len(TIEBREAKERS))),
        "tie-breakers",
    ),
    ("Registration", ("registration_open", "require_check_in"), ("player_cap",), "player cap and waitlist"),
)


class EventForm(forms.ModelForm):
    """Everything an organizer sets about an event. `settings()` gives the services' keyword arguments."""

    warnings = forms.CharField(
        label="Clock warnings (minutes before the end)",
        required=False,
        initial="10",
        help_text="Comma separated, e.g. 10, 5. Empty: no warnings.",
    )
    # Empty means the rulebook's 2, so a form posted without the field keeps the usual rule.
    min_factions_per_player = forms.IntegerField(
        label="Minimum pool: factions per player",
        required=False,
        min_value=kiq.FACTIONS_EACH,
        max_value=8,
        initial=kiq.FACTIONS_EACH,
        help_text="The rulebook's pool rule: at least this many factions per player in the middle "
        "(2 by default); bans may not take the pool below it.",
    )
    faction_pool = forms.MultipleChoiceField(
        label="Faction pool", choices=FACTION_CHOICES, widget=forms.CheckboxSelectMultiple, required=False
    )

    class Meta:
        model = Event
        fields = [
            "name", "date", "place", "description", "mode", "table_size", "layout", "rounds", "round_minutes",
            "end_rule", "faction_pool", "faction_copies", "min_factions_per_player", "draft_mode",
            "bans_per_player", "pick_seconds", "scoring", "top_cut", "require_check_in", "registration_open",
            "player_cap", "in_app_base_limit", "board", "short_tables", "avoid_clubs",
        ]  # fmt: skip
        help_texts = {
            "in_app_base_limit": "4 at 2 players, 5 at 3, 6 at 4: the turn in which that base scores is the "
            "last, then the most VP wins. Games in the app end by themselves; the event's pages show the "
            "rule to tables playing with cards.",
        }
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}),
            "description": forms.Textarea(attrs={"rows": 3}),
            "end_rule": forms.Textarea(attrs={"rows": 3}),
        }
        labels = {
            "rounds": "Swiss rounds",
            "round_minutes": "Round length (minutes)",
            "faction_copies": "Copies of each faction in a table's pool",
            "pick_seconds": "Draft pick timer (seconds)",
            "end_rule": "When time is called",
            "require_check_in": "Pair only checked-in players",
            "registration_open": "Players may sign up on the event page",
            "in_app_base_limit": "Base limit: every game ends after a number of scored bases",
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        order = list(self.instance.tiebreakers) if self.instance.pk else list(Event().tiebreakers)
        choices = [("", "(none)")] + [(t, TIEBREAKER_LABELS[t]) for t in TIEBREAKERS]
        for i in range(TIEBREAKER_SLOTS):
            self.fields[f"tiebreaker_{i + 1}"] = forms.ChoiceField(
                label=f"Tie-breaker {i + 1}",
                choices=choices,
                required=False,
                initial=order[i] if i < len(order) else "",
            )
        self.fields["faction_pool"].initial = list(self.instance.faction_pool or kiq.FACTIONS)
        # Every faction of the boxes; those the app plays are marked (their tables can start in it).
        from smashup.play.tables import factions_available

        in_app = set(factions_available())
        self.fields["faction_pool"].choices = [
            (f, f"{label} · plays in the app" if f in in_app else label) for f, label in FACTION_CHOICES
        ]
        # A form posted without it (an older page, a script) keeps the strict rule.
        self.fields["short_tables"].required = False
        self._set_mode_choices()
        minutes = self.instance.warning_minutes if self.instance.pk else [10]
        self.fields["warnings"].initial = ", ".join(str(m) for m in minutes)
        self.fields[
            "rounds"
        ].help_text = "Empty: suggested from the number of players when round 1 is paired."

    def sections(self) -> list[dict]:
        """FORM_SECTIONS with their bound fields, for the template: `main`, `more` (folded),
        `more_labels` (what is folded, in words), and `open`: a folded field has an error, or (the
        settings of an event, as saved) a value other than a new event's, so nothing set is out of
        sight."""
        fresh = Event()
        defaults = {"warnings": "10"}
        for i in range(len(TIEBREAKERS)):
            defaults[f"tiebreaker_{i + 1}"] = fresh.tiebreakers[i] if i < len(fresh.tiebreakers) else ""

        def changed(field) -> bool:
            if self.is_bound or not self.instance.pk or field.name in ("faction_pool", "board", "mode"):
                return False  # the pool is long (its own summary); the board follows the mode
            default = defaults.get(field.name, getattr(fresh, field.name, None))
            return str(field.value() if field.value() is not None else "") != str(
                default if default is not None else ""
            )

        out = []
        for title, main, more, summary in FORM_SECTIONS:
            folded = [self[name] for name in more]
            out.append(
                {
                    "title": title,
                    "main": [self[name] for name in main],
                    "more": folded,
                    "more_labels": summary,
                    "open": any(field.errors or changed(field) for field in folded),
                }
            )
        return out

    def _set_mode_choices(self) -> None:
        """Big Base is offered only when it works: with a board in the database (else the mode field
        says why). An event already in Big Base keeps its choice whatever happens to the boards."""
        from bigbase.boards import offered_boards

        refusal = services.bigbase_refusal()
        keeps_bigbase = self.instance.pk and self.instance.mode == Event.Mode.BIGBASE
        if refusal and not keeps_bigbase:
            self.fields["mode"].choices = [(Event.Mode.STANDARD, Event.Mode.STANDARD.label)]
            self.fields["mode"].help_text = refusal
        else:
            self.fields["mode"].help_text = (
                "Big Base: 2 to 4 players around one board, scored after each period of rounds."
            )
        boards = offered_boards()
        if self.instance.board and self.instance.board not in dict(boards):
            boards.append((self.instance.board, f"{self.instance.board} (no longer offered)"))
        self.fields["board"] = forms.ChoiceField(
            label="Big Base board",
            choices=[("", "(standard events have no board)")] + boards,
            required=False,
            initial=self.instance.board or (boards[0][0] if boards else ""),
            help_text="The board every table of a Big Base event plays on (admin: Big Base boards).",
        )

    def clean_board(self) -> str:
        if self.cleaned_data.get("mode") != Event.Mode.BIGBASE:
            return ""  # a standard event has no board, whatever the hidden field held
        return self.cleaned_data.get("board") or ""

    def clean_warnings(self) -> list[int]:
        text = self.cleaned_data.get("warnings") or ""
        parts = [p for p in text.replace(";", ",").split(",") if p.strip()]
        try:
            minutes = sorted({params.whole_number(p, "warnings", max_digits=3) for p in parts}, reverse=True)
        except params.BadNumber:
            raise forms.ValidationError("Whole minutes, separated by commas.") from None
        if any(not 0 < m < 600 for m in minutes):
            raise forms.ValidationError("Each warning is 1 to 599 minutes before the end.")
        return minutes

    def clean_short_tables(self) -> str:
        return self.cleaned_data.get("short_tables") or Event.ShortTables.STRICT

    def clean_min_factions_per_player(self) -> int:
        value = self.cleaned_data.get("min_factions_per_player")
        return kiq.FACTIONS_EACH if value is None else value

    def clean(self):
        data = super().clean()
        order = [data.get(f"tiebreaker_{i + 1}") for i in range(TIEBREAKER_SLOTS)]
        order = [t for t in order if t]
        if len(set(order)) != len(order):
            raise forms.ValidationError("Choose each tie-breaker at most once.")
        data["tiebreakers"] = order
        if not self.errors:
            try:
                services.check_settings({**self.settings_from(data)})
            except services.TournamentError as exc:
                raise forms.ValidationError(exc.message) from None
        return data

    def settings_from(self, data) -> dict:
        values = {f: data.get(f) for f in self.Meta.fields}
        values["faction_pool"] = [f for f in kiq.FACTIONS if f in (data.get("faction_pool") or [])]
        values["tiebreakers"] = data.get("tiebreakers", [])
        values["warning_minutes"] = data.get("warnings", [])
        values["place"] = values.get("place") or ""
        values["description"] = values.get("description") or ""
        return values

    def settings(self) -> dict:
        return self.settings_from(self.cleaned_data)


class NameForm(forms.Form):
    name = forms.CharField(label="Name", max_length=services.MAX_NAME)


class DisputeForm(forms.Form):
    note = forms.CharField(label="What is wrong?", max_length=500, required=False)


class CoOrganizerForm(forms.Form):
    username = forms.CharField(label="User name", max_length=150)


class ExtendForm(forms.Form):
    minutes = forms.IntegerField(label="Minutes", min_value=1, max_value=60)


def vp_from(post) -> dict[int, int | str]:
    """The VP fields of a result form: {entrant pk: VP} (checked by services.clean_vp). Numbers are
    ASCII digits only (`params.whole_number`): a malformed key or value is a BadNumber (a 400); an
    empty value stays "" for clean_vp to explain."""
    vps: dict[int, int | str] = {}
    for key, value in post.items():
        if not key.startswith("vp_"):
            continue
        pk = params.whole_number(key[3:], key)
        vps[pk] = params.optional_number(value, key)
        if vps[pk] is None:
            vps[pk] = ""
    return vps
