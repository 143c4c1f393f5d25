"""A crowded mid-game board for looking at the game screen (issue 26): four players, five bases (the
longest base texts among them), 15 minions, power counters, actions attached to minions and to bases,
a Great Wyrm, and a hand of nine cards for the person at seat 0, whose Play Cards phase it is. Built
with the engine's scenario builder, so the same board every time.

`page_html()` renders the game page the server would send seat 0 for it (a game row that is never
saved: no socket answers, which the layout checks do not need).
"""

from __future__ import annotations

NAMES = ["Ada", "Bea (bot)", "Cy (bot)", "Di (bot)"]
FACTIONS = [
    ("Dinosaurs", "Ninjas"),
    ("Aliens", "Superheroes"),
    ("Teddy Bears", "Sharks"),
    ("Zombies", "Dragons"),
]
HAND = ["King Rex", "Laseratops", "Tiger Assassin", "Augmentation", "Howl", "Assassination", "Disguise",
        "Natural Selection", "Ninja Acolyte"]  # fmt: skip


def crowded_scenario():
    from smashup.engine import Scenario

    s = Scenario(FACTIONS, names=NAMES, seed=26)
    wizardry = s.base("School of Wizardry")  # the longest base texts of the three boxes
    temple = s.base("Ancient Temple")
    pits = s.base("Tar Pits")
    lair = s.base("Dragon's Lair")
    home = s.base("The Homeworld")
    s.minion(wizardry, "Armor Stego", owner=0, counters=2, attached=[("Upgrade", 0)])
    s.minion(wizardry, "Shinobi", owner=0)
    s.minion(wizardry, "Supreme Overlord", owner=1, attached=[("Poison", 0)])
    s.minion(wizardry, "Great Wyrm", owner=3)
    s.minion(temple, "Mild Mannered Citizen", owner=1, attached=[("Expanded Power", 1)])
    s.minion(temple, "Sir Squeezes", owner=2, counters=1, attached=[("Cuddle", 2)])
    s.minion(temple, "Grave Digger", owner=3)
    s.minion(pits, "War Raptor", owner=0)
    s.minion(pits, "War Raptor", owner=0, counters=1)
    s.minion(pits, "Megalodon", owner=2, attached=[("Chum", 2)])
    s.minion(pits, "Walker", owner=3)
    s.minion(lair, "Invader", owner=1, controller=2)
    s.minion(lair, "Hatchling", owner=3, counters=3)
    s.minion(home, "Ninja Master", owner=0, attached=[("Smoke Bomb", 0)])
    s.minion(home, "Collector", owner=1)
    s.base_action(temple, "Overrun", owner=3)
    s.base_action(pits, "Jammed Signal", owner=1)
    s.base_deck("Jungle Oasis", "Tortuga", "Ninja Dojo")
    s.base_discard("The Mothership")
    s.hand(0, *HAND)
    s.hand(1, "Invasion", "Scout")
    s.hand(2, "Fun Bear")
    s.hand(3, "Outbreak", "Wyvern", "Tenacious Z")
    for seat, cards in enumerate([["Rampage"], ["Abduction", "Beam Up"], [], ["Walker"]]):
        s.discard(seat, *cards)
    s.deck(0, "Ninja Acolyte", "Seeing Stars")
    for seat, vp in enumerate([7, 9, 4, 11]):
        s.vp(seat, vp)
    return s.build()


def page_html(path: str = "/play/g/crowded/") -> bytes:
    """The game page seat 0 gets for the crowded board (the static files come from the finders)."""
    from django.template.loader import render_to_string
    from django.test import RequestFactory

    from smashup.play import render
    from smashup.play.models import Game

    game = crowded_scenario()
    row = Game(public_id="crowded", code="CRWD26", version=len(game.choices), status=Game.Status.ACTIVE,
               config={"players": [{"name": n} for n in NAMES]})  # fmt: skip
    context = render.board_context(row, game, 0)
    context.update({"ws_url": "/ws/games/crowded/", "held": [0], "oob": False, "resume_link": None,
                    "quiet_seconds": 30, "hot_seat": False})  # fmt: skip
    request = RequestFactory().get(path)
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()
    return render_to_string("play/game.html", context, request=request).encode()
