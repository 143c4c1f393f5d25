"""`Game.determinize(seat, rng)` (determinize.py) and what each seat knows (knowledge.py): every card
hidden from the seat dealt again at random, everything it knows kept; the determinized game is
sound (the invariants hold, it plays to its end), the seat's view is the same, the real game's
secret is not in it; and across many deals every hidden card lands in every place it could."""
import random
from collections import Counter, defaultdict

import pytest

from smashup.engine import EngineError, Scenario, invariants, state
from smashup.engine import determinize as determinizing
from smashup.engine.bots import random_choice
from smashup.engine.forks import is_quiet
from smashup.engine.knowledge import PILE, PLACE

from .fork_support import new_table, play_on, tables


def _check_sound(game, seat, dealt, play_out: bool, rng_seed: int) -> None:
    assert dealt.view(seat) == game.view(seat)
    assert invariants.check(dealt) == []
    assert dealt.determinized_for == seat and dealt.seed != game.seed
    if play_out:
        rng = random.Random(rng_seed)
        steps = 0
        while dealt.pending is not None:
            dealt.apply(dealt.pending.seat, dealt.pending.id, random_choice(dealt, rng))
            steps += 1
            if steps % 15 == 0:
                assert invariants.check(dealt) == []
        assert dealt.over


@pytest.mark.parametrize("mode,index,in_place", [
    ("standard", 0, False), ("standard", 1, False), ("standard", 2, False),
    ("bigbase", 0, False), ("bigbase", 1, False), ("standard", 0, True), ("bigbase", 1, True)])
def test_determinized_games_are_sound_and_look_the_same_to_their_seat(mode, index, in_place,
                                                                      monkeypatch):
    """Along real games (every faction), determinized for the deciding seat and for another:
    the seat's view is identical, the invariants hold, some are played to their end. Away from
    a quiet point the deal is made at the last one and replayed, rarely in place (`in_place`:
    always, to test that way too)."""
    fell_back = []
    dealt_in_place = determinizing._dealt_in_place
    monkeypatch.setattr(determinizing, "_dealt_in_place",
                        lambda *args: fell_back.append(1) or dealt_in_place(*args))
    if in_place:
        monkeypatch.setattr(determinizing, "ATTEMPTS", 0)
    game = new_table(mode, index)
    game.track_knowledge()
    rng = random.Random(index)
    made = quiet = 0
    while game.pending is not None and len(game.choices) < 240:
        if len(game.choices) % 6 == 0:
            seat = game.pending.seat if made % 2 else (game.pending.seat + 1) % 4
            record, digest = game.record(), game.digest()
            dealt = game.determinize(seat, random.Random(made))
            _check_sound(game, seat, dealt, play_out=made % 5 == 0, rng_seed=made)
            assert game.record() == record and game.digest() == digest  # the real game unchanged
            made += 1
            quiet += is_quiet(game)
        play_on(game, rng, 1)
    assert made > 20 and 0 < quiet < made
    if in_place:  # every deal away from a quiet point; at one, only when the one deal tried
        # made the restarted flow go elsewhere (the view check)
        assert made - quiet <= len(fell_back) <= made - quiet + quiet // 5
    else:
        assert len(fell_back) <= (made - quiet) // 5


def test_the_real_secret_and_what_the_seat_may_not_read_stay_out():
    game = new_table("standard", 0)
    play_on(game, random.Random(2), 70)
    dealt = game.determinize(1, random.Random(3))
    assert dealt.seed != game.seed and dealt.rng.getstate() != game.rng.getstate()
    assert dealt.scenario is None and dealt.hashes == []
    assert all(to is None or 1 in to for _, to in dealt.log_lines)
    assert all(to is None or 1 in to for _, to in dealt.disclosures)
    with pytest.raises(EngineError):
        dealt.record()
    # The same caller's chance deals the same game; another deals another.
    again = game.determinize(1, random.Random(3))
    assert again.digest() == dealt.digest()
    other = game.determinize(1, random.Random(4))
    assert other.digest() != dealt.digest()
    # Without knowledge: the same deal, not observable in turn.
    bare = game.determinize(1, random.Random(3), knowledge=False)
    assert bare.knowledge is None and bare.digest() == dealt.digest()
    with pytest.raises(EngineError):
        bare.observation(1)
    play_on(bare, random.Random(5))


def test_a_determinized_game_forks_like_any_other():
    game = new_table("standard", 2)
    rng = random.Random(5)
    play_on(game, rng, 50)
    dealt = game.determinize(game.pending.seat, random.Random(6))
    play_on(dealt, rng, 7)
    fork = dealt.fork()
    assert fork.digest() == dealt.digest()
    play_on(dealt, random.Random(8), 200)
    fork2 = dealt.fork()
    assert fork2.digest() == dealt.digest()


def test_knowledge_learnt_late_is_the_knowledge_tracked_from_the_start():
    table = tables()[1]
    tracked_from_start = None
    monkey = state.TRACK_KNOWLEDGE
    try:
        state.TRACK_KNOWLEDGE = True
        from smashup.engine import new_game

        tracked_from_start = new_game(*table)
    finally:
        state.TRACK_KNOWLEDGE = monkey
    late = new_table("standard", 1)
    assert late.knowledge is None
    rng1, rng2 = random.Random(9), random.Random(9)
    play_on(tracked_from_start, rng1, 90)
    play_on(late, rng2, 90)
    late.track_knowledge()
    for part in ("known", "lost", "shuffled"):
        assert getattr(late.knowledge, part) == getattr(tracked_from_start.knowledge, part)


# ------------------------------------------------------------------ knowledge and the deals ----
def _scenario(monkeypatch):
    """Seat 0 to play; seat 1 holds 3 cards, its deck 5, its discard pile 1; seat 0's deck 4;
    3 bases in the base deck. Knowledge is tracked from the start."""
    monkeypatch.setattr(state, "TRACK_KNOWLEDGE", True)
    s = Scenario([("Aliens", "Ninjas"), ("Pirates", "Robots")], seed="0f" * 32)
    for name in ("The Homeworld", "Tortuga", "The Mothership"):
        s.base(name)
    s.base_deck("Ninja Dojo", "Temple of Goju", "The Grey Opal")
    s.hand(0, "Invader", "Tiger Assassin")
    s.hand(1, "First Mate", "Zapbot", "Buccaneer")
    s.deck(1, "Microbot Guard", "Saucy Wench", "Warbot", "Dinghy", "Hoverbot")
    s.discard(1, "Nukebot")
    s.deck(0, "Scout", "Shinobi", "Collector", "Probe")
    game = s.build()
    assert game.knowledge is not None and is_quiet(game)
    return game


def _places(game, seat: int) -> dict:
    """card -> where it is, a hand counting as one place, a deck position as one."""
    out = {}
    for p in game.players:
        if p.seat != seat:
            out.update((c, ("hand", p.seat)) for c in p.hand)
        out.update((c, ("deck", p.seat, i)) for i, c in enumerate(p.deck))
    out.update((c, ("base_deck", i)) for i, c in enumerate(game.base_deck))
    return out


def _deals(game, seat: int, count: int) -> dict:
    seen = defaultdict(Counter)
    rng = random.Random(2024)
    for _ in range(count):
        dealt = game.determinize(seat, rng)
        assert dealt.view(seat) == game.view(seat)
        assert dealt.players[seat].hand == game.players[seat].hand
        for cid, place in _places(dealt, seat).items():
            seen[cid][place] += 1
    return seen


def test_every_hidden_card_lands_in_every_place_it_could(monkeypatch):
    """Seat 0 saw the top card of seat 1's deck, and a card go from seat 1's discard pile into
    its hand: those stay; every other hidden card of seat 1 goes to its hand or any place in its
    deck but the top, about equally often; seat 0's own deck and the base deck are shuffled."""
    game = _scenario(monkeypatch)
    p1 = game.players[1]
    top, nukebot = p1.deck[0], p1.discard[0]
    game.disclose([top], to=(0,))
    game.move_card(nukebot, ("hand", 1))
    assert game.knowledge.where(0, top, ("deck", 1)) == PLACE
    assert game.knowledge.where(0, nukebot, ("hand", 1)) == PLACE
    assert game.knowledge.where(1, top, ("deck", 1)) is None
    runs = 700
    seen = _deals(game, 0, runs)
    assert seen[top] == {("deck", 1, 0): runs} and seen[nukebot] == {("hand", 1): runs}
    free = [c for c in p1.hand + p1.deck if c not in (top, nukebot)]
    places = [("hand", 1)] + [("deck", 1, i) for i in range(1, len(p1.deck))]
    for cid in free:
        assert set(seen[cid]) == set(places), cid
        # 7 cards for 3 hand places and 4 deck places: each about 3/7 and 1/7 of the deals
        assert abs(seen[cid][("hand", 1)] / runs - 3 / 7) < 0.08
        for place in places[1:]:
            assert abs(seen[cid][place] / runs - 1 / 7) < 0.06
    mine = game.players[0].deck
    for cid in mine:
        assert set(seen[cid]) == {("deck", 0, i) for i in range(len(mine))}
    for cid in game.base_deck:
        assert set(seen[cid]) == {("base_deck", i) for i in range(len(game.base_deck))}


def test_a_card_known_by_its_pile_stays_in_it_until_an_unseen_draw(monkeypatch):
    game = _scenario(monkeypatch)
    p1 = game.players[1]
    top = p1.deck[0]
    game.disclose([top], to=(0,))
    game.rng.shuffle(p1.deck)
    game.knowledge.shuffle(("deck", 1))
    assert game.knowledge.where(0, top, ("deck", 1)) == PILE
    seen = _deals(game, 0, 200)
    assert set(seen[top]) == {("deck", 1, i) for i in range(len(p1.deck))}  # never in hand
    game.draw(1, 1)  # seat 0 does not see which card
    if top in p1.deck:
        assert game.knowledge.where(0, top, ("deck", 1)) is None
    assert ("hand", 1) in _deals(game, 0, 200)[top]


def test_a_hand_is_forgotten_when_a_card_leaves_it_unseen(monkeypatch):
    """A card seen entering a hand stays there while every card that leaves the hand is seen
    leaving; once one leaves unseen (put on the deck), it may be the one."""
    game = _scenario(monkeypatch)
    p1 = game.players[1]
    nukebot = p1.discard[0]
    game.move_card(nukebot, ("hand", 1))
    played = p1.hand[0]
    game.move_card(played, ("discard", 1))  # seen leaving
    assert game.knowledge.where(0, nukebot, ("hand", 1)) == PLACE
    hidden = next(c for c in p1.hand if c != nukebot)
    game.move_card(hidden, ("deck", 1), 0)  # unseen: from hand to the top of the deck
    assert game.knowledge.where(0, nukebot, ("hand", 1)) is None
    assert game.knowledge.where(1, hidden, ("deck", 1)) == PLACE  # its owner saw it
    assert len(_deals(game, 0, 150)[nukebot]) > 1


def test_a_determinized_game_keeps_what_its_seat_knows_only(monkeypatch):
    """The other seats' private knowledge (here seat 1's of its own deck top) is not kept."""
    game = _scenario(monkeypatch)
    top = game.players[1].deck[0]
    game.disclose([top], to=(1,))
    dealt = game.determinize(0, random.Random(1))
    assert dealt.knowledge.known[1].get(top) is None
    observed = game.observation(1)
    assert [c["id"] for c in observed["known"]["players"]["1"]["deck"]] == [top]
    assert game.observation(0)["known"]["players"]["1"]["deck"] == []


def test_an_exact_determinize_refuses_rather_than_keep_real_cards_in_place(monkeypatch):
    """Away from a quiet point, when no deal fits the seat's view in the tries, the fallback keeps
    the cards the flow touched where they really are; `exact=True` (the bots' and hints' way)
    raises NotDealt instead and never reaches the fallback."""
    fell_back = []
    monkeypatch.setattr(determinizing, "_dealt_in_place", lambda *args: fell_back.append(1))
    monkeypatch.setattr(determinizing, "ATTEMPTS", 0)  # no deal fits
    game = new_table("standard", 0)
    game.track_knowledge()
    rng = random.Random(5)
    while is_quiet(game):
        play_on(game, rng, 1)
    record, digest = game.record(), game.digest()
    with pytest.raises(determinizing.NotDealt):
        game.determinize(game.pending.seat, random.Random(1), exact=True)
    assert fell_back == [] and game.record() == record and game.digest() == digest
    game.determinize(game.pending.seat, random.Random(1))
    assert fell_back == [1]  # without exact: the fallback
