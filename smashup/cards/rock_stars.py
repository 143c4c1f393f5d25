"""Rock Stars (What Were We Thinking?): big venues (bases with a breakpoint of 21 or more) and
chains of Groupies. Every breakpoint is read through `ctx.breakpoint`, the current one (catalog
note on Classic Rocker: the modified value; Turn Up to 11 then counts)."""
from smashup.engine import MINION, Faction

# They read breakpoints (big venues), so in Big Base a card that only changes a breakpoint still
# does something while they are in the game (Big Base rules: cards with no effect).
rock_stars = Faction("Rock Stars", set="wwwt", cares_about_breakpoints=True)

BIG_VENUE = 21  # "a breakpoint of 21 or higher"


def _is_groupie(ctx):
    return lambda c: ctx.name(c) == "Groupie"


def _big_venue(ctx, uid) -> bool:
    return uid is not None and uid in ctx.bases() and ctx.breakpoint(uid) >= BIG_VENUE


def _bring_to(ctx, dest):
    """Move up to three of your minions to base `dest`, one at a time, each from a base whose
    breakpoint is lower than `dest`'s (Rick Roll, Tour Bus). Breakpoints are read before each
    move (a move may change them: a breakpoint modifier that follows a minion)."""
    for moved in range(3):
        if dest not in ctx.bases():
            return
        top = ctx.breakpoint(dest)
        movers = ctx.one_of_each(ctx.targets(
            controller=ctx.me, effect=ctx.move,
            where=lambda m, top=top: ctx.base_of(m) != dest and ctx.breakpoint(ctx.base_of(m)) < top))
        minion = yield from ctx.choose_minion(
            movers, f"Move one of your minions to {ctx.base_name(dest)}? ({moved} of 3 moved)",
            optional=True, intent="help")
        if minion is None:
            return
        yield from ctx.move(minion, dest)


# ------------------------------------------------------------------------------ minions -------
monarch = rock_stars.minion("The Monarch", power=5, text=(
    "Talent: search your deck and discard pile for a Groupie, reveal it and put it into your "
    "hand. Your deck is shuffled if it was searched."))


@monarch.talent_ability(usable=lambda ctx: ctx.deck_size() > 0 or bool(ctx.discard_pile()))
def monarch_calls(ctx):
    # Ruling: "deck and/or discard pile" is one search of both (the search verb's shape); a deck
    # with cards in it is searched, so it is shuffled even when the Groupie came from the pile.
    yield from ctx.search("Put which Groupie into your hand?", where=_is_groupie(ctx),
                          zones=("deck", "discard"))


classic_rocker = rock_stars.minion("Classic Rocker", power=4, copies=2, text=(
    "Talent: if this minion's base has a breakpoint of 21 or more, draw a card. Only one Classic "
    "Rocker's talent may be used each turn."))


def _rocker_usable(ctx):
    return not ctx.flag("classic_rocker", ctx.me) and _big_venue(ctx, ctx.here)


@classic_rocker.talent_ability(usable=_rocker_usable)
def classic_rocker_plays(ctx):
    # "Only one Classic Rocker ability per turn, however many you have" (the community page's
    # example of copies that do not each get their talent): one flag for every copy.
    ctx.set_flag("classic_rocker", ctx.me)
    ctx.draw(ctx.me, 1)


@rock_stars.minion("Rick Roll", power=3, copies=2, text=(
    "On play: you may move up to three of your minions here, each from a base with a lower "
    "breakpoint than this one."))
def rick_roll(ctx):
    yield from _bring_to(ctx, ctx.here)


@rock_stars.minion("Groupie", power=2, copies=5, text=(
    "On play: you may play another Groupie from your hand here as an extra minion (it may bring "
    "the next one)."))
def groupie(ctx):
    groupies = [c for c in ctx.hand() if ctx.name(c) == "Groupie"]
    yield from ctx.play_extra_now(MINION, base=ctx.here, cards=groupies)


# ------------------------------------------------------------------------------ actions -------
@rock_stars.action("Guest Star", copies=2, text=(
    "Search your deck and discard pile for a Groupie and reveal it: put it into your hand or play "
    "it at once as an extra minion. Your deck is shuffled if it was searched."))
def guest_star(ctx):
    searched_deck = ctx.deck_size() > 0
    found = yield from ctx.search("Which Groupie?", where=_is_groupie(ctx),
                                  zones=("deck", "discard"), to=None)
    if found:
        # Declining the play puts it into your hand.
        played = yield from ctx.play_extra_now(MINION, cards=found)
        if played is None:
            ctx.place_in_hand(found[0], revealed=True)
    if searched_deck:
        ctx.shuffle_deck()


hot_venue = rock_stars.action("Hot Venue", attach="base", intent="help", text=(
    "Play on a base. Ongoing: your minions here have +1 power. If this base's breakpoint is 21 or "
    "more, at the end of each turn in which you played a minion here, draw a card."))


@hot_venue.modifier(to="here", local=True)
def hot_venue_crowd(ctx, minion):
    return 1 if ctx.base_of(minion) == ctx.here and ctx.controller(minion) == ctx.me else 0


def _venue_played(ctx, event):
    # Read at the end of the turn, before "until the end of the turn" changes end (they last
    # through it). Any minion you played here this turn, before or after this card arrived.
    return _big_venue(ctx, ctx.here) and ctx.played_minion_here(ctx.me, ctx.here)


@hot_venue.trigger("turn_end", applies=_venue_played)
def hot_venue_encore(ctx, event):
    ctx.draw(ctx.me, 1)


power_ballad = rock_stars.action("Power Ballad", text=(
    "Choose a base: your minions there have +1 power until the end of the turn. Special: if that "
    "base's breakpoint is 21 or more, you may instead play this just before it scores."))


def _ballad(ctx, uid):
    for minion in ctx.targets(base=uid, controller=ctx.me):
        ctx.add_power(minion, 1)


@power_ballad.on_played
def power_ballad_played(ctx):
    uid = yield from ctx.choose_base(ctx.bases(), "Your minions on which base get +1 power?",
                                     intent="help")
    if uid is not None:
        _ballad(ctx, uid)


@power_ballad.special("before_scoring", usable=lambda ctx, scoring: _big_venue(ctx, scoring.base),
                      label="Play Power Ballad: your minions on the scoring base get +1 power")
def power_ballad_encore(ctx, scoring):
    _ballad(ctx, scoring.base)


@rock_stars.action("Reunion Tour", text=(
    "Shuffle any number of minions (none is fine) from your discard pile into your deck."))
def reunion_tour(ctx):
    minions = [c for c in ctx.discard_pile() if ctx.is_minion(c)]
    chosen = yield from ctx.choose_any_number(minions, "Shuffle which minion into your deck?",
                                              intent="help")
    yield from ctx.shuffle_into_deck(chosen)


@rock_stars.action("Rock of Luuv", text=(
    "Search your deck for up to three minions of one name, each of power 2 or less: reveal them, "
    "put them into your hand, and shuffle your deck."))
def rock_of_luuv(ctx):
    # Power 2 or less in the deck: the printed power (cards out of play have only that).
    yield from ctx.search("Put minions of which name into your hand (up to three)?",
                          where=lambda c: ctx.is_minion(c) and ctx.printed_power(c) <= 2,
                          max_count=3, same_name=True)


total_sellout = rock_stars.action("Total Sellout", copies=2, special_only=True, text=(
    "Special: just after a base scores, if you had a minion there, play this: draw 2 cards, or 3 "
    "if that base's breakpoint was 21 or more."))


@total_sellout.special("after_scoring", usable=lambda ctx, scoring: ctx.me in scoring.powers,
                       label="Play Total Sellout: draw 2 cards (3 at a big venue)")
def total_sellout_cashes_in(ctx, scoring):
    # `scoring.powers`: the players ranked when it scored, every one with a minion there. The
    # breakpoint is the base's own; it is still in play just after it scored.
    ctx.draw(ctx.me, 3 if _big_venue(ctx, scoring.base) else 2)


@rock_stars.action("Tour Bus", text=(
    "Choose a base. Move up to three of your minions to it, each from a base with a lower "
    "breakpoint than that one."))
def tour_bus(ctx):
    uid = yield from ctx.choose_base(ctx.bases(), "Take the tour bus to which base?",
                                     intent="help")
    if uid is not None:
        yield from _bring_to(ctx, uid)


turn_up_to_11 = rock_stars.action("Turn Up to 11", attach="base", intent="help", text=(
    "Play on a base. Ongoing: if this base's printed breakpoint is below 21, it starts at 21; "
    "every other change to its breakpoint counts from there."))


@turn_up_to_11.sets_starting_breakpoint
def turn_up_to_11_amps(ctx, uid):
    # WWWT clarification: monsters and the like still change it, counted from 21 (the engine
    # adds every modifier and change to this start).
    if uid == ctx.here and ctx.printed_breakpoint(uid) < BIG_VENUE:
        return BIG_VENUE
    return None
