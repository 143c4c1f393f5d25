"""The observation API (observation.py): `legal_actions()` and `legal_choices()` say exactly what
`apply` accepts, in a stable order; `observation(seat)` holds what the seat knows and no hidden
card beyond it."""
import random
from itertools import combinations

from smashup.engine import IllegalChoice
from smashup.engine.bots import random_choice
from smashup.engine.invariants import card_ids_in, hidden_from
from smashup.engine.knowledge import PLACE

from .fork_support import new_table


def _walk(game, choices: int, check) -> None:
    rng = random.Random(17)
    for _ in range(choices):
        if game.pending is None:
            return
        check(game)
        game.apply(game.pending.seat, game.pending.id, random_choice(game, rng))


def test_legal_actions_and_choices_are_what_apply_takes():
    seen_kinds = set()

    def check(game):
        d = game.pending
        actions = game.legal_actions()
        assert actions == [o.id for o in d.options if o.alike is None] == game.legal_actions()
        choices = game.legal_choices()
        if d.min_count == d.max_count == 1:
            assert choices == [(a,) for a in actions]
        else:
            seen_kinds.add((d.min_count, d.max_count))
            high = min(d.max_count, len(actions))
            assert choices == [c for k in range(d.min_count, high + 1)
                               for c in combinations(actions, k)]
            assert () in choices or d.min_count > 0
        assert game.legal_choices(limit=2) == choices[:2]
        # each listed answer is taken (on a fork), one more option is refused
        branch = game.fork()
        branch.apply(d.seat, d.id, list(choices[-1]))
        if d.max_count == 1 and len(choices[0]) == 1:
            try:
                game.fork().apply(d.seat, d.id, [choices[0][0], choices[-1][0]])
                raise AssertionError("two options taken where one is asked")
            except IllegalChoice:
                pass

    game = new_table("standard", 0)
    _walk(game, 160, check)
    assert seen_kinds  # a "may" or a choice of several came up


def test_an_observation_shows_only_what_its_seat_knows():
    game = new_table("standard", 1)
    game.track_knowledge()
    rng = random.Random(3)
    for _ in range(12):
        for _ in range(13):
            if game.pending is not None:
                game.apply(game.pending.seat, game.pending.id, random_choice(game, rng))
        for seat in range(len(game.players)):
            seen = game.observation(seat)
            known = game.knowledge
            allowed = {c for p in game.players for z, cards in (("hand", p.hand), ("deck", p.deck))
                       for c in cards if known.where(seat, c, (z, p.seat)) is not None}
            allowed |= {c for c in game.base_deck if known.where(seat, c, ("base_deck",))}
            leaked = card_ids_in(seen) & hidden_from(game, seat) - allowed
            assert not leaked
            assert {k: v for k, v in seen.items()
                    if k not in ("known", "unseen", "legal_actions")} == game.view(seat)
            for p in game.players:
                places = [c for c in p.deck if known.where(seat, c, ("deck", p.seat)) == PLACE]
                listed = [c["id"] for c in seen["known"]["players"][str(p.seat)]["deck"]
                          if c["position"] is not None]
                assert listed == places
                hidden = len(p.deck) + (0 if p.seat == seat else len(p.hand))
                shown = len(seen["known"]["players"][str(p.seat)]["deck"]) + len(
                    seen["known"]["players"][str(p.seat)]["hand"])
                assert len(seen["unseen"][str(p.seat)]) == hidden - shown
            mine = game.pending is not None and game.pending.seat == seat
            assert seen["legal_actions"] == (game.legal_actions() if mine else [])
