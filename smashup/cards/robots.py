"""Robots (Core Set): swarms of Microbots, extra minions, big bots that are hard to remove.

The core-set exception: 18 minions and 2 actions (catalog)."""
from smashup.engine import MINION, Faction

robots = Faction("Robots", set="core")

ALPHA = "Microbot Alpha"


def _named_microbot(ctx, cid) -> bool:
    return ctx.name(cid).startswith("Microbot")


def _alpha_in_play(ctx, seat) -> bool:
    return ctx.controls(ALPHA, seat)


def _is_microbot(ctx, m) -> bool:
    """A minion in play is a Microbot if its name says so, or if its controller controls a
    Microbot Alpha ("all your minions count as Microbots"; AEG: only in play)."""
    if _named_microbot(ctx, m):
        return True
    seat = ctx.controller(m)
    return seat is not None and _alpha_in_play(ctx, seat)


def _first_minion_bonus(ctx):
    # "The first minion you played this turn", in any phase of this turn: this play is the only
    # minion play of yours in the turn's log so far (a copy returned and played again is a
    # second play; a scenario's earlier plays count too).
    mine = ctx.plays(seat=ctx.me, kind=MINION)
    if len(mine) == 1 and mine[0].card == ctx.card:
        yield from ctx.grant_extra(MINION)



# ------------------------------------------------------------------------------- big bots ----
nukebot = robots.minion("Nukebot", power=5, text=(
    "Ongoing: after this minion is destroyed, destroy every minion other players control on the "
    "base it was on."))


@nukebot.trigger("destroyed", leaves_play=True, applies=lambda ctx, e: e.card == ctx.card)
def nukebot_blast(ctx, event):
    # Its last words: "other players" are those other than its last controller, on its last base
    # (only a destruction: a Nukebot returned, placed or discarded when a base scores does nothing;
    # one that Tar Pits sends to the deck instead was never destroyed).
    here = ctx.here
    if here not in ctx.bases():
        return
    for m in ctx.targets(base=here, where=lambda m: ctx.controller(m) != ctx.me,
                         effect=ctx.destroy):
        yield from ctx.destroy(m)


warbot = robots.minion("Warbot", power=4, copies=2, text=(
    "Ongoing: this minion cannot be destroyed."))


@warbot.protection("destroy")
def warbot_armour(ctx, target):
    # Only destruction: it can still be moved, returned, placed... (catalog). Nobody may destroy
    # it, its controller included.
    return target == ctx.card


@robots.minion("Hoverbot", power=3, copies=3, text=(
    "On play: reveal the top card of your deck. If it is a minion, you may play it as an extra "
    "minion; otherwise it stays on top of your deck."))
def hoverbot(ctx):
    top = ctx.reveal_top(ctx.me, 1)
    if not top or not ctx.is_minion(top[0]):
        return
    # "You may play it": pick its base or decline; declined, it simply stays on top (it never
    # left the deck). The question names bases only, so no option carries the deck card's id.
    uid = yield from ctx.choose_base(
        ctx.playable_bases(top[0]), f"Play {ctx.name(top[0])} as an extra minion? On which base?",
        optional=True, intent="help", subject=top[0])
    if uid is not None:
        yield from ctx.play_minion(top[0], uid)


@robots.minion("Zapbot", power=2, copies=4, text=(
    "On play: you may play an extra minion of power 2 or less."))
def zapbot(ctx):
    yield from ctx.grant_extra(MINION, max_power=2)


# ------------------------------------------------------------------------------- Microbots ---
alpha = robots.minion(ALPHA, power=1, text=(
    "Ongoing: all your minions count as Microbots. This minion has +1 power for each of your "
    "other Microbots in play."))


@alpha.modifier(to="itself")
def alpha_leads(ctx, minion):
    # AEG: only in play; the bonus follows the board at every moment.
    if minion != ctx.card:
        return 0
    return len(ctx.minions(controller=ctx.me, where=lambda m: m != ctx.card
                           and _is_microbot(ctx, m)))


archive = robots.minion("Microbot Archive", power=1, text=(
    "Ongoing: after one of your Microbots (this one included) is destroyed, draw a card."))


def _my_microbot_destroyed(ctx, event) -> bool:
    # "Your": its controller when it was destroyed (the event's player). Whether it was a
    # Microbot is read when the Archive reacts: its name, or a Microbot Alpha its controller still
    # controls (our reading; an Alpha destroyed by the same ability no longer makes the others
    # Microbots).
    if not ctx.is_minion(event.card) or event.player != ctx.me:
        return False
    return _named_microbot(ctx, event.card) or _alpha_in_play(ctx, ctx.me)


@archive.trigger("destroyed", leaves_play=True, applies=_my_microbot_destroyed)
def archive_draws(ctx, event):
    ctx.draw(ctx.me, 1)


fixer = robots.minion("Microbot Fixer", power=1, copies=2, text=(
    "On play: if this is the first minion you played this turn, you may play an extra minion. "
    "Ongoing: each of your Microbots has +1 power."))


@fixer.on_played
def fixer_played(ctx):
    yield from _first_minion_bonus(ctx)


@fixer.modifier(local=True)
def fixer_tunes(ctx, minion):
    # Itself included; two Fixers give every Microbot +2, both Fixers too (AEG). Asked of every
    # minion counted: its controller read once (`_is_microbot`, knowing it is ours).
    if ctx.controller(minion) != ctx.me:
        return 0
    return 1 if _named_microbot(ctx, minion) or _alpha_in_play(ctx, ctx.me) else 0


@robots.minion("Microbot Guard", power=1, copies=2, text=(
    "On play: destroy a minion on this base whose power is less than the number of minions you "
    "have here."))
def microbot_guard(ctx):
    # Mandatory whenever some minion qualifies, even one of yours or this Guard (catalog); the
    # count includes this Guard.
    count = len(ctx.minions(base=ctx.here, controller=ctx.me))
    yield from ctx.choose_and(
        ctx.destroy,
        ctx.one_of_each(ctx.targets(base=ctx.here,
                                    where=lambda m: ctx.power(m) < count, effect=ctx.destroy)),
        f"Destroy which minion here of power less than {count}?")


reclaimer = robots.minion("Microbot Reclaimer", power=1, copies=2, text=(
    "On play: if this is the first minion you played this turn, you may play an extra minion. "
    "Then shuffle any number of Microbots from your discard pile into your deck."))


@reclaimer.on_played
def reclaimer_played(ctx):
    yield from _first_minion_bonus(ctx)
    # Microbot Alpha works only in play (AEG): in the discard pile only Microbot cards count.
    pile = [c for c in ctx.discard_pile() if _named_microbot(ctx, c)]
    chosen = yield from ctx.choose_any_number(
        pile, "Shuffle a Microbot from your discard pile into your deck?", intent="help")
    if chosen:
        yield from ctx.shuffle_into_deck(chosen)


# ------------------------------------------------------------------------------- action -----
@robots.action("Tech Center", copies=2, text=(
    "Choose a base. Draw a card for each minion you have there."))
def tech_center(ctx):
    uid = yield from ctx.choose_base(ctx.bases(), "Draw a card for each of your minions on which "
                                                  "base?", intent="help")
    count = len(ctx.minions(base=uid, controller=ctx.me))
    if count:
        ctx.draw(ctx.me, count)
