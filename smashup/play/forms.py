"""Forms of the lobby: they only parse and validate input; `seats` does the work."""

from __future__ import annotations

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator

from smashup.botregistry import BOTS, DEFAULT_LEVEL, DEFAULT_THINK_SECONDS, level_bot, offered_levels

from . import timers
from .errors import PlayError
from .seats import MAX_GUEST_NAME, clean_factions
from .tables import DEFAULT_PACE, SeatSpec, factions_available, pace_choices

MAX_SEATS = 4
QUICK_NAME = "Player"
RANDOM = ""

KIND_CHOICES = [("person", "Person"), ("bot", "Bot"), ("none", "No seat")]
DEFAULT_KINDS = ["person", "bot", "none", "none"]


def level_choices() -> list[tuple[str, str]]:
    """The bots' difficulty levels whose bot exists (smashup.botregistry): "hard" only once the
    expert bot is registered."""
    return [(level.key, level.label) for level in offered_levels()]


LEVEL_REFUSED = "Choose one of the levels offered."

# The hard bot's thinking time per decision (tables.think_seconds; botregistry.THINK_SECONDS_RANGE).
THINK_CHOICES = [(0.3, "0.3 s"), (0.5, "0.5 s"), (1.0, "1 s"), (2.0, "2 s"), (3.0, "3 s"), (5.0, "5 s")]


def think_choices() -> list[tuple[str, str]]:
    return [(f"{seconds:g}", label) for seconds, label in THINK_CHOICES]


def thinking_offered() -> bool:
    """Whether a bot that thinks (the expert, "hard") exists: only then does the lobby ask how long."""
    return "expert" in BOTS


def faction_choices() -> list[tuple[str, str]]:
    return [(RANDOM, "Random")] + [(f, f) for f in factions_available()]


FACTION_MODES = [
    ("seat", "Picked per seat below (a seat left on Random gets random ones)"),
    ("random", "Random for every seat"),
    (
        "pick",
        "Each player picks their own when they sit down (bots get random ones; if you sit, "
        "pick yours in your seat's row below)",
    ),
    ("draft", "Draft at the table (Kickin' It Queensberry: one pick each in turn, then back)"),
]


MODES = [
    ("standard", "Standard: bases in a row, each scores at its breakpoint"),
    ("bigbase", "Big Base: one four-sided board, scored after each period of rounds (2 to 4 seats)"),
]


def board_choices() -> list[tuple[str, str]]:
    from bigbase.boards import offered_boards

    return offered_boards()


class NewGameForm(forms.Form):
    mode = forms.ChoiceField(
        label="Game", choices=MODES, initial="standard", widget=forms.RadioSelect, required=False
    )
    board = forms.ChoiceField(
        label="Big Base board",
        choices=board_choices,  # read from the database when the form is shown or checked
        initial="default",
        required=False,
        help_text="The boards the organizers keep (admin: Big Base boards).",
    )
    hotseat = forms.BooleanField(
        label="Hot seat: one device passed around the table (every person seat is played on this device)",
        required=False,
    )
    factions_mode = forms.ChoiceField(
        label="Factions", choices=FACTION_MODES, initial="seat", widget=forms.RadioSelect, required=False
    )
    turn_seconds = forms.IntegerField(
        label="Turn timer (seconds per decision)",
        required=False,
        help_text="Leave empty for no timer. When a player's time runs out, the bot decides for them.",
    )
    base_sets = forms.ChoiceField(
        label="Bases",
        choices=[
            ("factions", "From the sets of the factions in play (the rules' way)"),
            ("all", "Every base the app has, shuffled together"),
        ],
        initial="factions",
        widget=forms.RadioSelect,
    )
    specials = forms.ChoiceField(
        label="Specials (cards you may play on others' turns)",
        choices=[
            ("fast", "Ask only when I have one to play (faster)"),
            ("ask", "Always ask at every chance (hides whether I have one)"),
        ],
        initial="fast",
        widget=forms.RadioSelect,
    )
    sit = forms.BooleanField(label="I sit at the first person seat", required=False, initial=True)
    pace = forms.ChoiceField(
        label="Bots' pace",
        choices=pace_choices,
        initial=DEFAULT_PACE,
        required=False,
        help_text="How long each bot's move stays on the screen before the next; a bot thinks meanwhile.",
    )
    think = forms.TypedChoiceField(
        label="Hard bots' thinking time",
        choices=think_choices,
        coerce=float,
        initial=f"{DEFAULT_THINK_SECONDS:g}",
        required=False,
        empty_value=None,
        help_text="Per decision, for each hard bot and each hint; the pace still spaces their moves.",
    )
    hints = forms.BooleanField(
        label="Hint button: a player may ask what to play (from what they can see)",
        required=False,
        initial=True,
    )
    # "Play against bots": one level for every bot (the seats below have one each).
    level = forms.ChoiceField(
        label="Bots",
        choices=level_choices,
        initial=DEFAULT_LEVEL,
        required=False,
        error_messages={"invalid_choice": LEVEL_REFUSED},
    )
    # "Play against bots" (the lobby's one button): me at seat 1, this many bots, factions at random,
    # the rest as the defaults; a guest who gave no name plays as QUICK_NAME.
    bots = forms.TypedChoiceField(
        label="Against",
        choices=[(1, "1 bot"), (2, "2 bots"), (3, "3 bots")],
        coerce=int,
        required=False,
        empty_value=None,
    )
    your_name = forms.CharField(
        label="Your name at the table",
        max_length=MAX_GUEST_NAME,
        required=False,
        help_text="Needed when you are not logged in and take a seat.",
    )

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        factions = faction_choices()
        for i in range(MAX_SEATS):
            self.fields[f"seat{i}_kind"] = forms.ChoiceField(
                label=f"Seat {i + 1}", choices=KIND_CHOICES, initial=DEFAULT_KINDS[i]
            )
            for j in range(2):
                self.fields[f"seat{i}_faction{j}"] = forms.ChoiceField(
                    label=f"Seat {i + 1}, faction {j + 1}", choices=factions, required=False, initial=RANDOM
                )
            self.fields[f"seat{i}_name"] = forms.CharField(
                label=f"Seat {i + 1}, name (hot seat)", max_length=MAX_GUEST_NAME, required=False
            )
            self.fields[f"seat{i}_level"] = forms.ChoiceField(
                label=f"Seat {i + 1}, bot's level",
                choices=level_choices,
                initial=DEFAULT_LEVEL,
                required=False,
                error_messages={"invalid_choice": LEVEL_REFUSED},
            )
        if user is not None and user.is_authenticated:
            self.fields["your_name"].widget = forms.HiddenInput()
        low, high = timers.min_turn_seconds(), timers.max_turn_seconds()
        seconds = self.fields["turn_seconds"]
        seconds.validators = [
            MinValueValidator(low, f"A turn timer is at least {low} seconds (or empty: no timer)."),
            MaxValueValidator(high, f"A turn timer is at most {high} seconds."),
        ]
        seconds.widget.attrs.update({"min": low, "max": high, "step": 1, "placeholder": "no timer"})

    def seat_rows(self):
        """(kind field, faction fields) per seat, for the template. `mine`: the first person seat,
        where the creator sits (their own pick when each player picks; lobby.js follows changes)."""
        kinds = [self[f"seat{i}_kind"].value() for i in range(MAX_SEATS)]
        first = next((i for i, kind in enumerate(kinds) if kind == "person"), None)
        return [
            {
                "index": i,
                "number": i + 1,
                "kind": self[f"seat{i}_kind"],
                "factions": [self[f"seat{i}_faction{j}"] for j in range(2)],
                "name": self[f"seat{i}_name"],
                "level": self[f"seat{i}_level"],
                "mine": i == first,
            }
            for i in range(MAX_SEATS)
        ]

    def clean(self):
        data = super().clean()
        if data.get("bots"):
            return self._clean_quick(data)
        data["mode"] = data.get("mode") or "standard"
        if data["mode"] == "bigbase":
            from bigbase.boards import UnknownBoard, board_config

            try:
                data["board_data"] = board_config(data.get("board") or "")
            except UnknownBoard:
                self.add_error("board", "Choose one of the boards offered.")
        else:
            data["board_data"] = None
        mode = data.get("factions_mode") or "seat"
        data["draft"] = mode == "draft"
        data["player_picks"] = mode == "pick"
        data["my_factions"] = None
        specs = []
        holder: dict[str, int] = {}  # faction -> the first seat given it (each faction once per game)
        for i in range(MAX_SEATS):
            kind = data.get(f"seat{i}_kind")
            if kind in (None, "none"):
                continue
            pair = [data.get(f"seat{i}_faction{j}") or None for j in range(2)]
            if mode == "pick" and data.get("sit") and kind == "person" and data["my_factions"] is None:
                # The creator sits at the first person seat: that row holds their own pick.
                try:
                    data["my_factions"] = clean_factions([f or "" for f in pair])
                except PlayError as exc:
                    self.add_error(f"seat{i}_faction1", f"Your seat: {exc.message}")
                    data["my_factions"] = []
            if mode != "seat":
                pair = [None, None]  # random, drafted or picked by each player: not set here
            elif pair[0] and pair[0] == pair[1]:
                self.add_error(f"seat{i}_faction1", "Pick two different factions (or random).")
            for j, faction in enumerate(pair):
                if faction and holder.get(faction, i) != i:
                    self.add_error(
                        f"seat{i}_faction{j}",
                        f"Seat {holder[faction] + 1} already has {faction}: each faction is in a game once.",
                    )
                elif faction:
                    holder[faction] = i
            spec = SeatSpec(kind=kind, factions=pair)
            if kind == "bot":
                spec.bot = level_bot(data.get(f"seat{i}_level") or DEFAULT_LEVEL) or "heuristic"
            specs.append(spec)
        if not 2 <= len(specs) <= MAX_SEATS:
            raise forms.ValidationError(
                "A game has 2 to 4 seats: make at least two of them a person or a bot."
            )
        if data.get("hotseat"):
            data["sit"] = False  # every person seat is this device's (the view seats them all)
            if not any(s.kind == "person" for s in specs):
                self.add_error("hotseat", "A hot seat table needs at least one person seat.")
            if mode in ("pick", "draft"):  # both ask each seat on its own device
                self.add_error("hotseat", "At a hot seat table, set the factions per seat or at random.")
            data["seat_names"] = [
                (data.get(f"seat{i}_name") or "").strip() or f"Player {i + 1}"
                for i in range(MAX_SEATS)
                if data.get(f"seat{i}_kind") not in (None, "none")
            ]
        if data.get("sit"):
            if not any(s.kind == "person" for s in specs):
                self.add_error("sit", "To sit down, make one seat a person.")
            authenticated = self.user is not None and self.user.is_authenticated
            if not authenticated and not (data.get("your_name") or "").strip():
                self.add_error("your_name", "Enter your name to take a seat (or log in).")
        data["specs"] = specs
        data["pace"] = data.get("pace") or DEFAULT_PACE
        if not thinking_offered():
            data["think"] = None
        return data

    def _clean_quick(self, data):
        """One person (the one asking, seated) against `bots` bots, factions at random."""
        data.update(draft=False, player_picks=False, my_factions=None, sit=True, turn_seconds=None)
        data.update(mode="standard", board_data=None, hotseat=False)
        data["base_sets"] = data.get("base_sets") or "factions"
        data["specials"] = data.get("specials") or "fast"
        bot = level_bot(data.get("level") or DEFAULT_LEVEL) or "heuristic"
        data["specs"] = [SeatSpec(kind="person")] + [
            SeatSpec(kind="bot", bot=bot) for _ in range(data["bots"])
        ]
        # A casual game against bots: the hint button on, the bots at the pace asked for (normal).
        data["pace"] = data.get("pace") or DEFAULT_PACE
        data["hints"] = True
        if not thinking_offered():
            data["think"] = None
        if not (data.get("your_name") or "").strip():
            data["your_name"] = QUICK_NAME
        return data


class SitForm(forms.Form):
    name = forms.CharField(label="Your name", max_length=MAX_GUEST_NAME, required=False)
    # At a table where each player picks: their two factions (checked by `seats.clean_factions`).
    faction0 = forms.CharField(label="Faction 1", max_length=60, required=False)
    faction1 = forms.CharField(label="Faction 2", max_length=60, required=False)

    def picked(self) -> list[str] | None:
        """The factions sent, or None when the form sent none (a table where they are set)."""
        data = getattr(self, "cleaned_data", {})
        pair = [data.get("faction0") or "", data.get("faction1") or ""]
        return pair if any(pair) else None


class JoinForm(forms.Form):
    code = forms.CharField(label="Table code", max_length=12)
