"""What the main decision keeps from one question to the next (issue 10, speed) must never be
stale: a card's plays and Options from the hand are kept per bases in play (`Game._play_rows`),
restrictions are looked up once per question (`Game.play_barrier`) and an attaching action needs
only a first host (`Game.has_attach_host`). Each test changes the state, then reads afresh."""
from __future__ import annotations

from smashup.engine import MINION, Faction
from smashup.engine.core import Grant, Play
from smashup.engine.plays import PlayFinder, RowLater
from smashup.engine.registry import Registry
from smashup.engine.testing import base_uid, card, labels, play

from .test_legal_plays import R, scenario


def test_a_base_swapped_into_a_slot_names_the_new_base_in_the_plays_offered():
    s = scenario("Invader")
    s.base_deck("The Homeworld")
    game = s.build(R)
    assert "Play Invader on Test Arena" in labels(game)
    uid = base_uid(game, "Test Arena")
    # Same slot uid, another base card (Terraforming's swap): new Options, not the kept ones.
    game.swap_base(uid, card(game, "The Homeworld"))
    options = game.main_options(0)
    shown = [o.label for o in options if o.alike is None]
    assert "Play Invader on The Homeworld" in shown
    assert "Play Invader on Test Arena" not in shown
    assert [o.base for o in options if o.card == card(game, "Invader")] == [
        s.uid for s in game.bases]


def test_a_restriction_made_between_two_questions_is_read_at_once():
    game = scenario("Invader", "Tiger Assassin", "Disintegrator").build(R)
    invader, tiger = card(game, "Invader"), card(game, "Tiger Assassin")
    arena = base_uid(game, "Test Arena")
    assert {invader, tiger} <= {o.card for o in game.main_options(0)}
    # No Aliens minion on the Arena any more (as Block the Path): only that play goes.
    game.card_ctx(card(game, "Bookworm"), seat=1).restrict(0, MINION, base=arena)
    after = {(o.card, o.base) for o in game.main_options(0)}
    assert (invader, arena) not in after and (tiger, arena) not in after
    assert (invader, base_uid(game, "Filler Field")) in after
    assert card(game, "Disintegrator") in {c for c, _ in after}


def test_the_barrier_of_a_question_agrees_with_forbids_for_every_play():
    s = scenario("Invader", "Tiger Assassin", "Oarsman")
    s.base_action(0, "Roadblock", owner=1)
    s.base_action(1, "Keep Out", owner=1)
    game = s.build(R)
    barred = game.play_barrier(0)
    assert barred is not None
    for name in ("Invader", "Tiger Assassin", "Oarsman"):
        cid = card(game, name)
        for kind in ("minion", "action"):
            for slot in game.bases:
                p = Play(0, cid, kind, "hand", slot.uid)
                assert bool(barred(p)) == bool(game.forbids(p)), (name, kind, slot.uid)
    # Keep Out's owner plays freely there: nothing of theirs is barred by it.
    assert game.play_barrier(1) is not None
    other = game.play_barrier(1)
    assert not other(Play(1, card(game, "Invader"), "minion", "hand",
                          base_uid(game, "Filler Field")))


def test_nothing_barred_when_no_restriction_is_in_play():
    game = scenario("Invader").build(R)
    assert game.play_barrier(0) is None


def test_a_first_host_answers_as_the_list_of_hosts_does():
    game = scenario("Invader").build(R)
    for cid in range(len(game.defs)):
        defn = game.defs[cid]
        if getattr(defn, "attach", None) is None:
            continue
        for seat in (0, 1):
            assert game.has_attach_host(seat, cid) == bool(game.attach_hosts(seat, cid))


def test_a_play_changes_the_next_question_though_its_card_rows_are_kept():
    game = scenario("Invader", "Collector", "Tiger Assassin").build(R)
    assert any("Collector" in x for x in labels(game))
    play(game, "Invader", base="Test Arena")
    # The turn's minion is used: the kept rows of Collector must not bring its plays back.
    assert not any("Collector" in x or "Tiger Assassin" in x for x in labels(game))


def test_cards_offering_a_play_from_the_discard_pile_are_read_in_the_piles_order():
    game = scenario("Invader", discard=("Stubborn Zed", "Scout", "Stubborn Zed")).build(R)
    first, second = [c for c in game.players[0].discard if game.name(c) == "Stubborn Zed"]
    assert game.discard_offerers(0) == [first, second]
    assert game.discard_offerers(1) == []
    # The first one leaves the pile and comes back on top of it: now it is the second.
    game.move_card(first, ("hand", 0))
    assert game.discard_offerers(0) == [second]
    game.move_card(first, ("discard", 0))
    assert game.discard_offerers(0) == [second, first]
    vias = [g.via for g in PlayFinder(game, 0).unused if g.via is not None]
    assert vias == [second, first]


def test_a_grant_for_one_base_added_later_is_read_base_by_base():
    # A power cap alone answers once for every base; a grant for one base, added between two
    # questions, is then read base by base.
    game = scenario("Invader", "Collector", played_minion=True).build(R)
    game.turn_state.grants.append(Grant(MINION, max_power=2, source="test"))
    arena, field = base_uid(game, "Test Arena"), base_uid(game, "Filler Field")
    invader, collector = card(game, "Invader"), card(game, "Collector")
    plays = {(p.card, p.base) for p in game.legal_plays(0)}
    assert plays == {(collector, arena), (collector, field)}
    game.turn_state.grants.append(Grant(MINION, base=field, source="test"))
    plays = {(p.card, p.base) for p in game.legal_plays(0)}
    assert plays == {(collector, arena), (collector, field), (invader, field)}
    assert {(o.card, o.base) for o in game.main_options(0) if o.card in (invader, collector)} == plays


def test_whether_there_is_a_play_is_answered_alike_before_and_after_the_rows_are_made():
    s = scenario("Invader", "Collector", played_minion=True)
    s.base_action(0, "Keep Out", owner=1)  # the Arena is closed to seat 0's minions
    game = s.build(R)
    game.turn_state.grants.append(Grant(MINION, max_power=2, source="test"))
    first = PlayFinder(game, 0).plays(first=True)  # no row made yet
    every = PlayFinder(game, 0).plays()  # makes the rows
    assert first == every[:1] == PlayFinder(game, 0).plays(first=True)
    assert every == [Play(0, card(game, "Collector"), MINION, "hand",
                          base_uid(game, "Filler Field"))]


def _barrier_disagrees(game, seat):
    """The plays of `seat`'s hand (each kind, every base and none) where the main decision's
    barrier, asked only where it may forbid (`Game.play_barriers`, as PlayFinder.plays asks it),
    answers otherwise than `forbids`, which asks every restriction; and how many it forbids."""
    barrier = game.play_barriers(seat)
    wrong, forbidden = [], 0
    for cid in game.players[seat].hand:
        for kind in (MINION, "action"):
            for uid in [s.uid for s in game.bases] + [None]:
                p = Play(seat, cid, kind, "hand", uid)
                says = barrier is not None and (barrier[1] is None or uid in barrier[1]) \
                    and barrier[0](p)
                if bool(says) != bool(game.forbids(p)):
                    wrong.append(p)
                forbidden += bool(says)
    return wrong, forbidden


def test_restrictions_declared_for_their_base_forbid_nothing_elsewhere():
    # Block the Path and Overrun are asked only of plays onto their base: everywhere else they
    # must forbid nothing, as `forbids` (which asks them of every play) finds.
    s = scenario("Invader", "Tiger Assassin", "Collector", "Disintegrator")
    s.base_action(0, "Block the Path", owner=1)
    s.base_action(1, "Overrun", owner=1)
    game = s.build(R)
    for name in ("Block the Path", "Overrun"):
        defn = game.defs[card(game, name)]
        assert defn.restrictions_here == defn.restrictions
    path = card(game, "Block the Path")
    game.card_ctx(path).remember("faction", "Aliens")
    wrong, forbidden = _barrier_disagrees(game, 0)
    assert wrong == [] and forbidden > 0
    assert game.play_barriers(0)[1] == {base_uid(game, "Test Arena"),
                                        base_uid(game, "Filler Field")}
    shown = {(o.card, o.base) for o in game.main_options(0)}
    assert (card(game, "Invader"), base_uid(game, "Test Arena")) not in shown
    assert (card(game, "Invader"), base_uid(game, "Filler Field")) not in shown  # Overrun
    # A lasting "cannot play" may forbid a play anywhere: every play is asked again.
    game.card_ctx(card(game, "Bookworm"), seat=1).restrict(0, "action")
    assert game.play_barriers(0)[1] is None
    assert _barrier_disagrees(game, 0)[0] == []


def test_a_restriction_wrongly_declared_for_its_base_is_seen():
    # The comparison above catches a card that forbids plays elsewhere yet says `here`.
    r = Registry()
    r.cards.update(R.cards)
    r.bases.update(R.bases)
    r.factions.update(R.factions)
    wide = Faction("Wall Testers", set="testset", registry=r).action(
        "Wide Wall", attach="base", text="Ongoing: no minion can be played at all.")

    @wide.restriction(here=True)
    def _wide(ctx, p):
        return ctx.is_minion(p.card)

    s = scenario("Invader", "Collector")
    s.base_action(0, "Wide Wall", owner=1)
    game = s.build(r)
    wrong, _ = _barrier_disagrees(game, 0)
    assert wrong and {p.base for p in wrong} == {base_uid(game, "Filler Field"), None}


def test_a_row_not_made_is_kept_until_made_and_a_fork_makes_its_own():
    # A hand card's row the random bot need not make stands in the kept rows as its RowLater,
    # the same one question after question, until the row is made; a fork shares the kept
    # RowLaters but makes rows into its own table.
    game = scenario("Invader", "Collector").build(R)
    sig = tuple((s.uid, s.card) for s in game.bases)
    first = [x for x in PlayFinder(game, 0).plays(options=True, rows_later=True)
             if type(x) is RowLater]
    assert {later.cid for later in first} == {card(game, "Invader"), card(game, "Collector")}
    again = [x for x in PlayFinder(game, 0).plays(options=True, rows_later=True)
             if type(x) is RowLater]
    assert len(again) == len(first) and all(a is b for a, b in zip(again, first, strict=True))
    fork = game.fork()
    invader = first[0] if first[0].cid == card(game, "Invader") else first[1]
    made = invader.row(fork, 0)
    assert [o.base for o in made] == [s.uid for s in game.bases]
    assert fork._play_rows[sig, 0][invader.key] == made
    assert game._play_rows[sig, 0][invader.key] is invader  # the game's table is untouched
    # Listed in full, the game makes its rows: they replace the RowLaters, with the same Options.
    options = game.main_options(0)
    assert game._play_rows[sig, 0][invader.key] == made
    assert [o.id for o in options if o.card == invader.cid] == [o.id for o in made]
    after = PlayFinder(game, 0).plays(options=True, rows_later=True)
    assert not any(type(x) is RowLater for x in after)
