"""Teddy Bears (What Were We Thinking?): small minions that grow on other players' minions, and
hugs that keep those minions from doing harm. Rulings follow the catalog (wwwt.yaml) and the WWWT
rulebook's clarifications (Bear Picnic, Cuddle, Group Hug, Lovey Bear, Snuggly Bear)."""
from smashup.engine import MINION, Faction

teddy_bears = Faction("Teddy Bears", set="wwwt")

SQUEEZE_BUDGET = 5  # Sir Squeezes: combined power of the minions it brings
SQUEEZE_EACH = 3  # ... each of power 3 or less
SQUEEZE_COUNT = 3  # ... up to three of them


# ------------------------------------------------------------------------------ minions -------
@teddy_bears.minion("Sir Squeezes", power=5, text=(
    "On play: you may play up to three minions from your hand here as extra minions, each of "
    "power 3 or less, their powers adding up to 5 or less."))
def sir_squeezes(ctx):
    # One at a time: each minion's own ability resolves before the next is chosen. Out of play a
    # minion has its printed power, so that is what the budget counts.
    budget = SQUEEZE_BUDGET
    for _ in range(SQUEEZE_COUNT):
        played = yield from ctx.play_extra_now(MINION, base=ctx.here,
                                               max_power=min(SQUEEZE_EACH, budget))
        if played is None:
            return
        budget -= ctx.printed_power(played)


fun_bear = teddy_bears.minion("Fun Bear", power=2, copies=2, text=(
    "Ongoing: after another player plays a minion here or moves one here, you may put a +1 "
    "power counter on this minion."))


def _brought_here_by_another(ctx, event):
    # `by_player` is who played or moved it; a base's ability moves for nobody, so it is not
    # "another player". Catalog `ability` (AEG's errata): the counter goes on Fun Bear itself.
    # A minion moved here includes Fun Bear itself moved by another player (our reading: the
    # words cover any minion arriving here).
    return (event.base == ctx.here and event.by_player is not None
            and event.by_player != ctx.me and ctx.is_minion(event.card))


@fun_bear.trigger("minion_played", applies=_brought_here_by_another,
                  optional="Put a +1 power counter on Fun Bear?")
@fun_bear.trigger("moved", applies=_brought_here_by_another,
                  optional="Put a +1 power counter on Fun Bear?")
def fun_bear_cheers(ctx, event):
    ctx.add_counters(ctx.card, 1)


lovey_bear = teddy_bears.minion("Lovey Bear", power=3, copies=3, text=(
    "Ongoing: this minion's starting power becomes the highest printed power among the minions "
    "other players control here, when that is more than 3; counters and modifiers count on top."))


@lovey_bear.modifier(to="itself", local=True)
def lovey_bear_matches(ctx, minion):
    # WWWT clarification: a lower opposing starting power changes nothing. The difference to its
    # own printed power is added, so counters and other modifiers still count on top.
    if minion != ctx.card:
        return 0
    highest = max((ctx.printed_power(m) for m in ctx.minions(base=ctx.here)
                   if ctx.controller(m) != ctx.me), default=0)
    return max(0, highest - ctx.printed_power(minion))


snuggly_bear = teddy_bears.minion("Snuggly Bear", power=1, copies=4, text=(
    "Special: after you play your first minion of a turn, you may play this minion from your "
    "hand on that same base as an extra minion."))


def _first_minion_of_mine(ctx, event):
    return (event.by_player == ctx.me and ctx.first_minion_played(ctx.me) == event.card
            and event.base in ctx.bases() and ctx.can_play(ctx.card, event.base))


@snuggly_bear.special("minion_played", usable=_first_minion_of_mine,
                      label="Play Snuggly Bear on the same base as an extra minion")
def snuggly_bear_follows(ctx, event):
    # WWWT clarification: several Snuggly Bears may follow the same first minion: the window
    # stays open after one is played, and the first minion is still the turn's first.
    yield from ctx.play_minion(ctx.card, event.base)


# ------------------------------------------------------------------------------ actions -------
bear_picnic = teddy_bears.action("Bear Picnic", attach="base", intent="help", text=(
    "Play on a base. Ongoing: while another player could play a minion they own of printed "
    "power 2 or less here, they cannot play such a minion on any other base."))


@bear_picnic.restriction(elsewhere=True)
def bear_picnic_gathers(ctx, play):
    # Catalog: only minions the player owns (no monsters, nor another player's minion played
    # through Trade), only those of printed power 2 or less, and only while that same minion
    # could be played here (nothing else forbids it: Block the Path). A play onto this base is
    # never forbidden, so the check of "could be played here" never comes back to this card.
    # The answer does not depend on which other base the play is onto (`elsewhere`).
    if (play.seat == ctx.me or play.base is None or play.base == ctx.here
            or not ctx.is_minion(play.card) or ctx.owner(play.card) != play.seat
            or ctx.printed_power(play.card) > 2):
        return False
    return ctx.can_play(play.card, ctx.here, seat=play.seat)


@teddy_bears.action("Care Package", copies=2, text=(
    "Draw a card. You may play an extra minion this turn."))
def care_package(ctx):
    ctx.draw(ctx.me, 1)
    yield from ctx.grant_extra(MINION)


# WWWT clarification: the actions on the cuddled minion keep their own abilities, but not those
# they give the minion (Flighterizer's kind, `host_ability`); a monster's treasure is no ability of
# the minion. The engine's one gate (`cancels_host`) does all of it.
cuddle = teddy_bears.action("Cuddle", copies=2, attach="minion", intent="harm", cancels_host=True,
                            text="Play on a minion. Ongoing: that minion's abilities are "
                                 "cancelled.")


@teddy_bears.action("Group Hug", text=(
    "Choose one of your minions: it gets +1 power for each other minion on its base until the "
    "end of the turn."))
def group_hug(ctx):
    hugged = yield from ctx.choose_minion(ctx.one_of_each(ctx.targets(controller=ctx.me)),
                                          "Which of your minions gets the hug?", intent="help")
    if hugged is None:
        return
    # WWWT clarification: counted once, now; later arrivals or a move change nothing.
    others = len(ctx.minions(base=ctx.base_of(hugged))) - 1
    if others:
        ctx.add_power(hugged, others)


love_overload = teddy_bears.action("Love Overload", special_only=True, text=(
    "Special: play just before a base scores. Destroy the minion with the highest power there; "
    "if several tie, destroy all of them, yours too."))


@love_overload.special("before_scoring", usable=lambda ctx, scoring: bool(
    ctx.minions(base=scoring.base)), label="Play Love Overload: destroy the strongest minions "
                                           "on the scoring base")
def love_overload_bursts(ctx, scoring):
    # The strongest are fixed first, then destroyed. One that cannot be destroyed (Warbot) stays,
    # and the next strongest is not taken in its place (our reading: "the highest" is read once).
    here = ctx.minions(base=scoring.base)
    top = max(ctx.power(m) for m in here)
    for m in [m for m in here if ctx.power(m) == top]:
        yield from ctx.destroy(m)


@teddy_bears.action("Square Deal", text=(
    "Draw cards one at a time until another player has fewer cards in hand than you."))
def square_deal(ctx):
    # Catalog: if another player already has fewer, nothing is drawn. Drawing stops when the deck
    # and discard pile are both empty.
    def square():
        mine = len(ctx.hand())
        return any(len(ctx.hand(p)) < mine for p in ctx.opponents())

    while not square():
        if not ctx.draw(ctx.me, 1):
            return


tea_party = teddy_bears.action("Tea Party", attach="base", intent="help", text=(
    "Play on a base. Talent: if this base has two or more minions, one of them yours, draw a "
    "card."))


def _party_on(ctx):
    here = ctx.minions(base=ctx.here)
    return len(here) >= 2 and any(ctx.controller(m) == ctx.me for m in here)


@tea_party.talent_ability(usable=_party_on)
def tea_party_pours(ctx):
    ctx.draw(ctx.me, 1)


too_cute = teddy_bears.action("Too Cute", attach="base", intent="help", text=(
    "Play on a base. Ongoing: your minions here cannot be destroyed by other players' cards."))


@too_cute.protection("destroy", from_="other_players_cards")
def too_cute_shields(ctx, target):
    return (ctx.is_minion(target) and ctx.base_of(target) == ctx.here
            and ctx.controller(target) == ctx.me)
