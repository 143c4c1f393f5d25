"""Cancelling a card's abilities (WWWT "Cancel": the ability is treated as if it does not exist):
one gate, `Game.ability_active`, read by triggers (and last words), power and breakpoint modifiers,
protections, replacements, restrictions, plays offered each turn, talents and Specials in play.
A minion is cancelled by an action on it (`cancels_host`: Cuddle, My Only Weakness!) or for a
while (`Ctx.cancel_abilities`: Mind Lady). The actions on a cancelled minion keep their own
abilities, but not the abilities they give it (`host_ability`: WWWT clarification, Cuddle).
Test-only cards stand for one kind of ability each."""
from __future__ import annotations

from smashup.engine import MINION, Ctx, Faction, Scenario
from smashup.engine.core import Lasting
from smashup.engine.plays import PlayFinder
from smashup.engine.registry import Registry
from smashup.engine.testing import card, choose, end_play, labels, play, record_events

from .support import PIRATES_ROBOTS, registry_with_test_cards


def _registry() -> Registry:
    r = registry_with_test_cards()
    mutes = Faction("Mutes", set="testset", registry=r)

    mutes.action("Muzzle", attach="minion", cancels_host=True, intent="harm",
                 text="Play on a minion. Ongoing: its abilities are cancelled.")
    hypnotist = mutes.minion("Hypnotist", power=1, text=(
        "Talent: cancel the abilities of another player's minion until your next turn."))

    @hypnotist.talent_ability()
    def hypnotise(ctx):
        others = ctx.targets(where=lambda m: ctx.controller(m) != ctx.me,
                             effect=ctx.cancel_abilities)
        target = yield from ctx.choose_minion(others, "Cancel whose abilities?", intent="harm")
        if target is not None:
            ctx.cancel_abilities(target)

    drummer = mutes.minion("Drummer", power=2, text=(
        "Ongoing: this minion and your other minions here have +1 power."))

    @drummer.modifier
    def drum(ctx, m):
        return 1 if ctx.controller(m) == ctx.me and ctx.base_of(m) == ctx.here else 0

    lighthouse = mutes.minion("Lighthouse", power=1, text="Ongoing: this base's breakpoint -5.")

    @lighthouse.modifies_breakpoint
    def beam(ctx, uid):
        return -5 if uid == ctx.here else 0

    shield = mutes.minion("Shield Bearer", power=1, text=(
        "Ongoing: your minions here cannot be destroyed."))

    @shield.protection("destroy")
    def shields(ctx, m):
        return ctx.controller(m) == ctx.me and ctx.base_of(m) == ctx.here

    stand_in = mutes.minion("Stand-In", power=1, text=(
        "Ongoing: if this minion would be destroyed, return it to your hand instead."))

    @stand_in.replacement("destroy", applies=lambda ctx, m: m == ctx.card)
    def stand_in_leaves(ctx, m):
        yield from ctx.return_to_hand(m)
        return True

    martyr = mutes.minion("Martyr", power=1, text=(
        "Ongoing: after this minion is destroyed, gain 1 VP."))

    @martyr.trigger("destroyed", leaves_play=True, applies=lambda ctx, e: e.card == ctx.card)
    def martyr_dies(ctx, event):
        ctx.gain_vp(ctx.me, 1)

    watcher = mutes.minion("Watcher", power=1, text=(
        "Ongoing: after another minion is played, gain 1 VP."))

    @watcher.trigger("minion_played", applies=lambda ctx, e: e.card != ctx.card)
    def watch(ctx, event):
        ctx.gain_vp(ctx.me, 1)

    gatekeeper = mutes.minion("Gatekeeper", power=1, text=(
        "Ongoing: other players cannot play minions here."))

    @gatekeeper.restriction
    def gate(ctx, play):
        return play.seat != ctx.me and play.kind == MINION and play.base == ctx.here

    mutes.minion("Recruiter", power=1, text=(
        "Ongoing: you may play an extra minion on your turn.")).grants_each_turn(MINION)

    wings = mutes.action("Wings", attach="minion", host_ability=True, intent="help", text=(
        "Play on a minion. It gains: Talent: draw a card."))

    @wings.talent_ability()
    def wings_draw(ctx):
        ctx.draw(ctx.me, 1)

    armor = mutes.action("Armor", attach="minion", intent="help", text=(
        "Play on a minion. Ongoing: it has +2 power."))

    @armor.modifier
    def armored(ctx, m):
        return 2 if ctx.host_of(ctx.card) == m else 0

    lookout = mutes.minion("Lookout", power=1, text=(
        "Special: at the start of your turn, you may draw a card."))

    @lookout.special("turn_start", zone="play")
    def lookout_draws(ctx, _window):
        ctx.draw(ctx.me, 1)

    return r


REG = _registry()
FACTIONS = [("Mutes", "Aliens"), PIRATES_ROBOTS]


def board(*minions, hand=("Muzzle",)):
    """Seat 0 to play with `hand`; `minions` (name, owner[, attached]) on The Homeworld."""
    s = Scenario(FACTIONS)
    home = s.base("The Homeworld")
    s.base("Temple of Goju")
    for name, owner, *attached in minions:
        s.minion(home, name, owner=owner, attached=attached[0] if attached else ())
    s.hand(0, *hand)
    s.hand(1, "Collector")
    s.deck(0, *["Scout"] * 6)
    s.deck(1, *["Scout"] * 6)
    return s


def muzzle(game, target):
    play(game, "Muzzle")
    choose(game, card(game, target, "minion"))


def test_muzzle_cancels_a_modifier_and_its_removal_restores_it():
    game = board(("Drummer", 1), ("Scout", 1)).build(REG)
    drummer, scout = card(game, "Drummer", "minion"), card(game, "Scout", "minion")
    assert (game.power(drummer), game.power(scout)) == (3, 4)
    events = record_events(game)
    muzzle(game, "Drummer")
    assert (game.power(drummer), game.power(scout)) == (2, 3)
    assert not game.ability_active(drummer)
    cancel = [e for e in events if e.kind == "cancelled"]
    assert len(cancel) == 1 and cancel[0].card == card(game, "Muzzle")
    assert cancel[0].data == {"target": drummer} and cancel[0].by_player == 0
    assert game.view(None)["bases"][0]["minions"][0]["cancelled"] is True
    # The Muzzle gone, the Drummer drums again.
    list(Ctx(game, card(game, "Scout", "minion"), 0).discard_from_play(card(game, "Muzzle")))
    assert game.ability_active(drummer) and game.power(scout) == 4


def test_a_second_cancel_of_a_cancelled_minion_is_silent():
    game = board(("Drummer", 1, [("Muzzle", 0)]), ("Scout", 1), hand=("Muzzle",)).build(REG)
    events = record_events(game)
    muzzle(game, "Drummer")
    assert [e.kind for e in events][:2] == ["attached", "action_played"]
    assert "cancelled" not in [e.kind for e in events]


def test_actions_on_a_cancelled_minion_keep_their_abilities_but_not_those_they_give_it():
    game = board(("Scout", 0, [("Armor", 0), ("Wings", 0)]), ("Drummer", 1)).build(REG)
    scout = card(game, "Scout", "minion")
    assert game.power(scout) == 5 and any("Wings" in label for label in labels(game))
    muzzle(game, "Scout")
    # Armor's +2 is the action's own ability; Wings' talent is one it gives the Scout.
    assert game.power(scout) == 5
    assert game.ability_active(card(game, "Armor")) and not game.ability_active(card(game, "Wings"))
    assert not any("Wings" in label for label in labels(game))


def test_a_cancelled_breakpoint_modifier_and_protection_and_replacement_do_nothing():
    game = board(("Lighthouse", 1), ("Shield Bearer", 1), ("Stand-In", 1),
                 hand=("Muzzle", "Muzzle", "Muzzle")).build(REG)
    home = game.bases[0]
    assert game.breakpoint(home) == game.base_def(home).breakpoint - 5
    shield, stand_in = card(game, "Shield Bearer", "minion"), card(game, "Stand-In", "minion")
    ctx = Ctx(game, card(game, "Muzzle"), 0)
    assert not ctx.can_affect(shield, "destroy")
    for name in ("Lighthouse", "Shield Bearer", "Stand-In"):
        target = card(game, name, "minion")
        game.attach(card(game, "Muzzle", "hand"), 0, target)
    assert game.breakpoint(home) == game.base_def(home).breakpoint
    assert ctx.can_affect(shield, "destroy")
    assert list(ctx.destroy(stand_in)) == []
    assert game.loc[stand_in] == ("discard", 1)  # destroyed, not returned instead


def test_a_cancelled_minion_has_no_last_words_and_no_reactions():
    game = board(("Martyr", 1, [("Muzzle", 0)]), ("Watcher", 1, [("Muzzle", 0)]),
                 hand=("Scout",)).build(REG)
    play(game, "Scout", "Temple of Goju")
    assert game.players[1].vp == 0  # the Watcher did not see it
    martyr = card(game, "Martyr", "minion")
    list(Ctx(game, card(game, "Scout", "minion"), 0).destroy(martyr))
    assert game.loc[martyr] == ("discard", 1) and game.players[1].vp == 0
    assert martyr in game.left_cancelled


def test_a_working_minion_still_has_its_last_words():
    game = board(("Martyr", 1), ("Watcher", 1), hand=("Scout",)).build(REG)
    play(game, "Scout", "Temple of Goju")
    assert game.players[1].vp == 1  # control: the Watcher watches


def test_a_cancelled_restriction_and_play_offer_are_gone():
    game = board(("Gatekeeper", 1), ("Recruiter", 0), hand=("Muzzle", "Muzzle", "Scout")).build(REG)
    home = game.bases[0].uid
    assert home not in game.minion_targets_for_play(0, card(game, "Scout", "hand"))
    assert any(p.card == card(game, "Scout", "hand") for p in game.legal_plays(0))
    game.attach(card(game, "Muzzle", "hand"), 0, card(game, "Gatekeeper", "minion"))
    game.changed()
    assert home in game.minion_targets_for_play(0, card(game, "Scout", "hand"))
    game.attach(card(game, "Muzzle", "hand"), 0, card(game, "Recruiter", "minion"))
    sources = [g.source for g in PlayFinder(game, 0)._turn_grants()]
    assert "Recruiter" not in sources


def test_mind_lady_kind_cancel_lasts_until_the_start_of_its_users_next_turn_even_if_it_leaves():
    game = board(("Hypnotist", 0), ("Drummer", 1), hand=("Scout",)).build(REG)
    drummer = card(game, "Drummer", "minion")
    events = record_events(game)
    choose(game, "Use Hypnotist's talent")
    assert not game.ability_active(drummer) and game.power(drummer) == 2
    assert [e.data for e in events if e.kind == "cancelled"] == [{"target": drummer}]
    list(Ctx(game, drummer, 1).destroy(card(game, "Hypnotist", "minion")))
    assert not game.ability_active(drummer)  # the Hypnotist gone, the cancel stays
    end_play(game)
    # Seat 1's turn: still cancelled.
    assert game.current == 1 and not game.ability_active(drummer)
    end_play(game)
    while game.current != 0 or game.phase != "play":
        d = game.pending
        game.apply(d.seat, d.id, [d.options[0].id] if d.min_count else [])
    assert game.ability_active(drummer) and game.power(drummer) == 3


def test_a_protected_minion_refuses_the_cancel():
    s = board(("Hypnotist", 0), ("Drummer", 1), hand=("Scout",))
    game = s.build(REG)
    drummer = card(game, "Drummer", "minion")
    ctx = Ctx(game, card(game, "Hypnotist", "minion"), 0)
    game.lasting.append(Lasting("unaffected_by", ctx.card, data={"cards": [drummer]}, ends=None))
    game.changed()
    assert ctx.cancel_abilities(drummer) is False and game.ability_active(drummer)


def test_a_cancelled_minion_loses_its_talent_and_the_cancel_leaves_with_it():
    game = board(("Bookworm", 0), hand=("Scout",)).build(REG)
    bookworm = card(game, "Bookworm", "minion")
    assert game.talents_usable(0) == [bookworm]
    ctx = Ctx(game, card(game, "Scout", "hand"), 1)
    assert ctx.cancel_abilities(bookworm)
    assert game.talents_usable(0) == []
    list(ctx.return_to_hand(bookworm))
    assert not [e for e in game.lasting if e.kind == "cancel_abilities"]


def test_a_cancelled_minion_offers_no_special_in_play():
    game = board(("Lookout", 1), ("Scout", 1)).build(REG)
    lookout = card(game, "Lookout", "minion")
    assert [c for c, _, _ in game._usable_specials(1, "turn_start", None, zone="play")] == [lookout]
    muzzle(game, "Lookout")
    assert game._usable_specials(1, "turn_start", None, zone="play") == []


def test_transferring_a_muzzle_cancels_the_new_host_and_frees_the_old_one():
    game = board(("Drummer", 1, [("Muzzle", 0)]), ("Watcher", 1), hand=("Scout",)).build(REG)
    drummer, watcher, muzzle_card = (card(game, "Drummer", "minion"), card(game, "Watcher", "minion"),
                                     card(game, "Muzzle"))
    events = record_events(game)
    assert list(Ctx(game, card(game, "Scout", "hand"), 0).transfer(muzzle_card, watcher)) == []
    assert game.ability_active(drummer) and not game.ability_active(watcher)
    assert [(e.kind, e.data.get("target")) for e in events] == [
        ("transferred", None), ("cancelled", watcher)]
