"""The vocabulary's questions to a player: choose minions, bases, cards, actions, a player, an
order, a faction, yes or no; choose and act at once (`choose_and`, `choose_and_move`); piles of
alike cards (any number of them, how many of one name); a minion and its base in one question.

Rules implemented here: identical copies never give identical options (issue 9: `one_of_each`
first); a choice offers only what its effect could act on (WWWT "Affect": `_able`, so a
protected card is not offered); "may" is optional (WWWT "Terms"); intent (harm or help) is
advice for people and bots (core.INTENTS). Each is a method of `Ctx` (effects.py).

Compiled, `ctx` is typed `_Ctx` (context.pxd) by `@cython.locals`: its fields are read as C fields.
"""
from __future__ import annotations

import cython

from .context import VERB_INTENT, _Ctx, board_label, effect_kind
from .core import EXACT_CORNERS, Option, card_option_id, counted, plain_option_id


# Every question below takes `intent` (core.INTENTS): what the choice does to what is chosen,
# "harm" or "help", declared where the choice is made (bots aim by it). The verbs' own
# choosers (`choose_and`, `choose_and_move`) know it from the verb.
@cython.locals(ctx=_Ctx)
def choose_minion(ctx, candidates, prompt, optional=False, seat=None, intent=None):
    """Pick one minion among `candidates`; None if there is none or the player declines."""
    g = ctx.game
    at, describe = g.label_version(), g.describe_minion
    options = [Option(card_option_id("m", m), (board_label, g, at, describe, m), card=m)
               for m in candidates]
    chosen = yield from g.ask(ctx._seat(seat), "target", prompt, options,
                              0 if optional else 1, 1, source=ctx.card, intent=intent)
    return chosen[0].card if chosen else None


@cython.locals(ctx=_Ctx)
def choose_minions(ctx, candidates, prompt, min_count=0, max_count=None, seat=None,
                   intent=None):
    g = ctx.game
    at, describe = g.label_version(), g.describe_minion
    options = [Option(card_option_id("m", m), (board_label, g, at, describe, m), card=m)
               for m in candidates]
    top = len(options) if max_count is None else max_count
    chosen = yield from g.ask(ctx._seat(seat), "targets", prompt, options, min_count, top,
                              source=ctx.card, intent=intent)
    return [o.card for o in chosen]


@cython.locals(ctx=_Ctx)
def choose_base(ctx, candidates, prompt, optional=False, seat=None, intent=None,
                subject=None):
    """Pick a base. `subject`: the card that goes there (a minion moved or played), so the
    chooser can weigh each base for it."""
    g = ctx.game
    at, describe = g.label_version(), g.base_name
    options = [Option(f"b{u}", (board_label, g, at, describe, u), base=u) for u in candidates]
    chosen = yield from g.ask(ctx._seat(seat), "base", prompt, options,
                              0 if optional else 1, 1, source=ctx.card, intent=intent,
                              subject=subject)
    return chosen[0].base if chosen else None


@cython.locals(ctx=_Ctx)
def choose_cards(ctx, candidates, prompt, min_count=1, max_count=1, seat=None, reveal=None,
                 say_where=False, intent=None):
    """Pick cards that are not in play (in a hand, a discard pile...). `reveal`: hidden cards
    the chooser may see while deciding (a deck searched, a hand looked at). `say_where`: each
    option says where its card lies when not in the chooser's hand (a search of a deck and
    a discard pile: the two zones' copies must not read the same)."""
    g = ctx.game
    chooser = ctx._seat(seat)
    options = [Option(card_option_id("c", c),
                      g.name(c) + (ctx._where_from(c, chooser) if say_where else ""), card=c)
               for c in candidates]
    chosen = yield from g.ask(ctx._seat(seat), "cards", prompt, options, min_count,
                              max_count, source=ctx.card, reveal=reveal, intent=intent)
    return [o.card for o in chosen]


@cython.locals(ctx=_Ctx)
def choose_actions(ctx, candidates, prompt, min_count=1, max_count=1, seat=None,
                   intent=None):
    """Pick actions in play (on a minion or a base: Disenchant). Alike copies are offered
    once (`one_of_each`); each option says whose action it is and where it is. Returns the
    chosen actions (an empty list when declined or when there is none)."""
    g = ctx.game
    options = [Option(card_option_id("a", a), g.describe_action(a), card=a)
               for a in ctx.one_of_each(candidates)]
    if not options:
        return []
    chosen = yield from g.ask(ctx._seat(seat), "actions", prompt, options,
                              min(min_count, len(options)), min(max_count, len(options)),
                              source=ctx.card, intent=intent)
    return [o.card for o in chosen]


@cython.locals(ctx=_Ctx)
def choose_order(ctx, cards, prompt, seat=None, reveal=None, onto_one_deck=False):
    """Put cards in an order the player picks ("in any order"): one card at a time, the first
    picked first. Returns the ordered list; a single card needs no question. `onto_one_deck`:
    the cards go onto one deck, where copies of one name cannot be told apart whatever they
    were before (counters, a base: Always Room at Granny's from play), so one of each name is
    offered (resolution 3; issue 24: no two options read the same)."""
    remaining = list(cards)
    ordered = []
    by_name = onto_one_deck and ctx.game.resolution >= EXACT_CORNERS
    while remaining:
        # Two copies a player cannot tell apart (in the same deck) are one option: either
        # one put next gives the same deck as far as anyone can see.
        if by_name:
            names = {}
            for c in remaining:
                names.setdefault(ctx.game.defs[c].name, c)
            offered = list(names.values())
        else:
            offered = ctx.one_of_each(remaining)
        picked = yield from ctx.choose_cards(offered, prompt, 1, 1,
                                              seat=seat, reveal=reveal)
        ordered.append(picked[0])
        remaining.remove(picked[0])
    return ordered


@cython.locals(ctx=_Ctx)
def choose_player(ctx, candidates, prompt, optional=False, seat=None, intent=None):
    g = ctx.game
    options = [Option(f"p{p}", g.pname(p)) for p in candidates]
    chosen = yield from g.ask(ctx._seat(seat), "player", prompt, options,
                              0 if optional else 1, 1, source=ctx.card, intent=intent)
    return int(chosen[0].id[1:]) if chosen else None


@cython.locals(ctx=_Ctx)
def choose_one(ctx, prompt, choices, optional=False, seat=None, intent=None, kind="choice"):
    """One of several labelled choices: `choices` is [(key, label), ...] with keys of your
    own (any plain value); returns the chosen key, or None when declined (`optional`)."""
    choices = list(choices)
    options = [Option(plain_option_id(i), label, value=key)
               for i, (key, label) in enumerate(choices)]
    chosen = yield from ctx.game.ask(ctx._seat(seat), kind, prompt, options,
                                      0 if optional else 1, 1, source=ctx.card,
                                      intent=intent)
    return chosen[0].value if chosen else None


@cython.locals(ctx=_Ctx)
def name_faction(ctx, prompt="Name a faction", among=None, seat=None, intent=None):
    """Name a faction (Sea Dogs, Block the Path): one of `among`, by default every faction in
    this game. Returns its name. Each option's value is the faction's name; the question's
    kind stays "choice" (records hashed with digest 2 hold that kind: `bots.names_a_faction`
    tells it apart)."""
    names = list(among) if among is not None else ctx.factions_in_game()
    return (yield from ctx.choose_one(prompt, [(n, n) for n in names], seat=seat,
                                       intent=intent))


@cython.locals(ctx=_Ctx)
def may(ctx, prompt, seat=None):
    """A "you may" with no target to pick: yes or no."""
    return (yield from ctx.game.ask_yes_no(ctx._seat(seat), prompt, source=ctx.card))


@cython.locals(ctx=_Ctx)
def _able(ctx, effect, candidates) -> list[int]:
    # Candidates that are minions in play this ability may do `effect` to (others: as given).
    kind = effect_kind(effect)
    g = ctx.game
    me = ctx.source_player
    return [m for m in candidates
            if not g.is_minion_in_play(m) or g.affects(ctx.card, me, m, kind)]


@cython.locals(ctx=_Ctx)
def choose_and(ctx, effect, candidates, prompt, optional=False, seat=None, intent=None):
    """Choose one minion among `candidates` and do `effect` to it (destroy, return_to_hand,
    place_on_deck_bottom...). Returns the minion, or None when there was none or the player
    declined a "may". Minions the effect could not act on (a protection: Warbot "cannot be
    destroyed" for `destroy`) are never offered. The choice's intent is the verb's
    (`VERB_INTENT`: destroy, return and place harm) unless given."""
    kind = effect_kind(effect)
    candidates = ctx._able(effect, candidates)
    if intent is None:
        intent = VERB_INTENT.get(kind) or ctx._move_intent(candidates, seat)
    target = yield from ctx.choose_minion(candidates, prompt, optional=optional, seat=seat,
                                           intent=intent)
    if target is not None:
        yield from effect(target)
    return target


@cython.locals(ctx=_Ctx)
def _move_intent(ctx, candidates, seat) -> str:
    """A move of your own minions helps them (Way of Deception, Dinghy); a move that may take
    another player's minion away harms (Invasion, Shanghai)."""
    chooser = ctx._seat(seat)
    g = ctx.game
    return "help" if all([g.controller(m) == chooser for m in candidates]) else "harm"


@cython.locals(ctx=_Ctx)
def choose_and_move(ctx, candidates, prompt, to=None, optional=False, seat=None,
                    to_prompt="Move it to which base?", intent=None):
    """Choose a minion among `candidates`, then a base other than its own (among `to` if
    given), and move it there (Invasion, Way of Deception). Returns (minion, base), or None
    when nothing moved. Intent, unless given: "help" when every candidate is the chooser's
    own, else "harm"; the base question carries it too, with the minion as its subject."""
    candidates = ctx._able("move", candidates)
    if intent is None:
        intent = ctx._move_intent(candidates, seat)
    target = yield from ctx.choose_minion(candidates, prompt, optional=optional, seat=seat,
                                           intent=intent)
    if target is None:
        return None
    src = ctx.game.base_of(target)
    bases = [u for u in (ctx.bases() if to is None else to) if u != src]
    dest = yield from ctx.choose_base(bases, to_prompt, seat=seat, intent=intent,
                                       subject=target)
    if dest is None:
        return None
    moved = yield from ctx.move(target, dest)
    return (target, dest) if moved else None


@cython.locals(ctx=_Ctx)
def choose_any_number(ctx, cards, prompt, seat=None, reveal=None, intent=None,
                      max_count: int | None = None):
    """Pick any number of `cards` (zero allowed: Lend a Hand, Microbot Reclaimer; "up to"
    `max_count`: Golden Age, Not Really Dead) one at a time, the copies a player cannot tell
    apart offered once each time (`one_of_each`), until the player stops. Returns the chosen
    cards in the order picked."""
    remaining, chosen = list(cards), []
    while remaining and (max_count is None or len(chosen) < max_count):
        picked = yield from ctx.choose_cards(
            ctx.one_of_each(remaining), f"{prompt} ({len(chosen)} chosen so far)", 0, 1,
            seat=seat, reveal=reveal, intent=intent)
        if not picked:
            break
        chosen.append(picked[0])
        remaining.remove(picked[0])
    return chosen


@cython.locals(ctx=_Ctx)
def choose_same_name(ctx, cards, prompt, seat=None, reveal=None, max_count=None,
                     say_where=False, intent=None):
    """Pick any number of `cards` (at most `max_count` if given: Rock of Luuv) that all
    share one name (Mall Crawl, Not Enough Bullets): a name first (declining picks none),
    then how many of its copies when there are several. Returns the chosen cards."""
    g = ctx.game
    picked = yield from ctx.choose_cards(ctx.one_of_each(cards), prompt, 0, 1, seat=seat,
                                          reveal=reveal, say_where=say_where, intent=intent)
    if not picked:
        return []
    name = g.name(picked[0])
    same = [picked[0]] + [c for c in cards if c != picked[0] and g.name(c) == name]
    if max_count is not None:
        same = same[:max_count]
    if len(same) == 1:
        return same
    count = yield from ctx.choose_one(
        f"How many {name} cards?", [(n, f"{counted(n, name + ' card')}")
                                    for n in range(len(same), 0, -1)], seat=seat)
    return same[:count]


@cython.locals(ctx=_Ctx)
def choose_play(ctx, cards, bases, prompt, optional=True, seat=None):
    """Pick a minion among `cards` (out of play: a discard pile...) and a base among `bases`
    in one question ("Walker on Jungle Oasis"), alike copies once. Returns (card, base uid),
    or None when the player declines or nothing fits; the caller plays it (`play_minion`)."""
    g = ctx.game
    seat = ctx._seat(seat)
    options = [Option(card_option_id("m", c, at=u), f"{g.name(c)} on {g.base_name(u)}",
                      card=c, base=u)
               for c in ctx.one_of_each(cards) for u in ctx.playable_bases(c, bases, seat)]
    chosen = yield from g.ask(seat, "extra", prompt, options,
                              0 if optional else 1, 1, source=ctx.card, intent="help")
    return (chosen[0].card, chosen[0].base) if chosen else None
