"""Lasting effects (issue 9, "the engine"; core.Lasting): until the end of the turn, until the end
of *your* turn (played on another player's turn: the end of your next one), from the start of a
player's next turn ("during their next turn"), until your next turn, only during other players'
turns, and ending when their source leaves play where the card says so. Test-only cards."""
from __future__ import annotations

from smashup.engine import MINION, Faction, Scenario
from smashup.engine.registry import Registry
from smashup.engine.testing import card, choose, end_play, play

from .support import registry_with_test_cards


def build_registry() -> Registry:
    r = registry_with_test_cards()
    t = Faction("Lasting Testers", set="lastset", registry=r)

    howler = t.minion("Howler", power=2, text=(
        "Ongoing: after another player plays a minion, this gets +2 power until the end of your "
        "turn."))

    @howler.trigger("minion_played", applies=lambda ctx, e: e.player != ctx.me)
    def howl(ctx, event):
        ctx.add_power(ctx.card, 2, until="end_of_your_turn")

    stego = t.minion("Bracer", power=3, text=(
        "Talent: until your next turn, +2 power during other players' turns."))

    @stego.talent_ability()
    def brace(ctx):
        ctx.add_power(ctx.card, 2, until="start_of_your_next_turn", during="others")

    banner = t.minion("Banner", power=1, text=(
        "On play: another minion of yours here gets +3 power as long as this stays in play."))

    @banner.on_played
    def raise_banner(ctx):
        mine = ctx.targets(base=ctx.here, controller=ctx.me, where=lambda m: m != ctx.card)
        m = yield from ctx.choose_minion(mine, "Which minion?")
        if m is not None:
            ctx.add_power(m, 3, until="source_leaves_play", with_source=True)

    @t.action("Sleep Mark", text="Choose a player: during their next turn, they are marked.")
    def sleep_mark(ctx):
        seat = yield from ctx.choose_player(ctx.opponents(), "Mark whom?")
        ctx.lasting("marked", seat, starts_next_turn_of=seat)

    @t.action("Recall Banner", text="Return a Banner to its owner's hand.")
    def recall_banner(ctx):
        yield from ctx.choose_and(ctx.return_to_hand,
                                  ctx.targets(where=lambda m: ctx.name(m) == "Banner"),
                                  "Which Banner?")

    t.minion("Plain", power=1, copies=10, text="No ability.")
    return r


REG = build_registry()
LT = ("Lasting Testers", "Aliens")


def table(**minions):
    s = Scenario([LT, ("Ninjas", "Robots")])
    arena = s.base("Test Arena")
    s.base("Filler Field")
    for name, owner in minions.items():
        s.minion(arena, name, owner=owner)
    for seat in range(2):
        s.hand(seat, "Plain", "Plain", "Plain")
        s.deck(seat, *["Plain"] * 10)
    return s


def next_turn(game):
    """End the current player's Play Cards phase; the next player's turn begins."""
    seat = game.pending.seat
    end_play(game)
    assert game.pending.kind == "play" and game.pending.seat != seat


def marked(game, seat):
    ctx = game.card_ctx(game.bases[0].card)
    return bool(ctx.lasting_effects("marked", seat))


def test_until_the_end_of_your_turn_played_on_another_players_turn_lasts_through_your_next():
    s = table(Howler=0)
    s.turn(current=1)
    game = s.build(REG)
    howler = card(game, "Howler")
    # Seat 1 plays a minion (the Howler howls), which ends its turn (nothing else to play).
    play(game, "Plain", base="Test Arena")
    assert game.current == 0 and game.turn == 2  # the end of seat 1's turn was not "yours"
    assert game.power(howler) == 4
    next_turn(game)  # the end of seat 0's turn: it ends
    assert game.power(howler) == 2


def test_during_other_players_turns_until_your_next_turn():
    game = table(Bracer=0).build(REG)
    bracer = card(game, "Bracer")
    choose(game, "talent")
    assert game.power(bracer) == 3  # not during your own turn
    next_turn(game)
    assert game.power(bracer) == 5  # seat 1's turn
    next_turn(game)
    assert game.power(bracer) == 3  # seat 0's next turn: over
    next_turn(game)
    assert game.power(bracer) == 3


def test_starts_at_a_players_next_turn_and_lasts_that_turn():
    s = table()
    s.hand(0, "Sleep Mark")
    game = s.build(REG)
    play(game, "Sleep Mark")  # one opponent: chosen without a question
    assert not marked(game, 1)  # not yet: only from seat 1's next turn
    next_turn(game)
    assert marked(game, 1)
    next_turn(game)
    assert not marked(game, 1)
    assert not game.card_ctx(game.bases[0].card).lasting_effects("marked", 1, active_only=False)


def test_ends_when_its_source_leaves_play_where_the_card_says_so():
    s = table(Plain=0)
    s.hand(0, "Banner", "Recall Banner")
    game = s.build(REG)
    plain = card(game, "Plain", "minion")
    play(game, "Banner", base="Test Arena")  # the only other minion of yours: chosen at once
    assert game.power(plain) == 4
    play(game, "Recall Banner")
    assert game.power(plain) == 1
    assert MINION == "minion"
