"""Asking a player, and running a card's ability: the two things every rule area does to the flow.

The game runs as a generator (game.py): a question is a `Decision` yielded up to `Game.apply`,
which sends the chosen option ids back in (`ask`); an ability is a generator the flow follows to
its end, or a plain function (`run_ability`). Rules: the project's contract (DESIGN.md section 3:
a pending question is plain data; a choice whose every option must be taken is made without
asking, and the log says what happened); `intent` (what a choice does to what is chosen,
core.INTENTS) is advice for people and bots, not state.

Compiled, `game` is typed GameState (decisions.pxd): its fields are read as C fields.
"""
from __future__ import annotations

from collections.abc import Generator
from types import GeneratorType

import cython

from .context import Effect
from .core import CARD_OPTION_ID, EXACT_CORNERS, INTENTS, Decision, EngineError, Option
from .registry import _Declares
from .state import GameState


def _probe():
    yield


# A generator made by compiled code (native.py) is of the compiler's own type, not GeneratorType:
# checked by identity first (the type of this module's own generators), and any other generator
# (a compiled card module while this one runs as Python) by the abstract type (`_drives`).
_COMPILED_GENERATOR = type(_probe())


def _drives(result) -> bool:
    """Whether an ability's result is run to its end: a generator of any kind, or a verb's
    Effect (a plain ability returns None, or a value)."""
    t = type(result)
    return (t is GeneratorType or t is _COMPILED_GENERATOR or t is Effect
            or (result is not None and isinstance(result, Generator)))


@cython.locals(game=GameState)
def ask(game, seat, kind, prompt, options, min_count=1, max_count=1, source=None, reveal=None,
        intent=None, subject=None):
    """Ask `seat` a question (generator). Returns the chosen Options.

    A forced answer (every option must be taken) is taken without asking: the log says what
    happened, and people and bots are spared a question with one answer. `intent` and
    `subject`: what the choice does to what is chosen and the card it is about
    (`Decision.intent`, core.INTENTS).
    """
    if intent is not None and intent not in INTENTS:
        raise EngineError(f"a choice's intent is one of {INTENTS} or None, not {intent!r}")
    if game.dropped_effects:
        check_dropped(game)
    count = len(options)
    if max_count > count:
        max_count = count
    if min_count > max_count:
        min_count = max_count
    if max_count == 0:
        return []
    if min_count == max_count == count:
        return list(options)
    if max_count == 1 and kind != "play":  # the main decision marks its own plays
        options = mark_alike(game, options)
        if (min_count == 1 and options is not None and game.resolution >= EXACT_CORNERS
                and _shown_count(options) == 1):
            # Copies nobody can tell apart are one option: a choice among them is forced.
            return [_first_shown(options)]
    game.decision_seq += 1
    decision = Decision(
        f"d{game.decision_seq}", seat, kind, prompt, options, min_count, max_count, source,
        list(reveal or []), intent, subject,
    )
    if reveal and game.knowledge is not None:
        game.knowledge.seen_in_pile(game, seat, decision.reveal)
    ids = yield decision
    answer = game._answer
    game._answer = None
    if answer is not None and answer[0] is decision:
        return answer[1]
    return [decision.option(i) for i in ids]


@cython.locals(game=GameState, opt=Option, d=_Declares)
def mark_alike(game, options: list) -> list:
    """Identical copies never give identical options (issue 9; issue 24 for every question):
    an option about a card a player cannot tell from the card of an earlier option
    (`Game.alike_key`: in play the same name, base, controller, owner, power, counters and
    attached cards; elsewhere the same name, zone and owner), with the same shape of id, base,
    value and words, is marked as that one's (`Option.alike`): not shown, still accepted, so
    records made before replay and seeded bots choose as they did. For a question picking one
    option (two copies to pick several of are picks of their own)."""
    defs = game.defs
    seen_names: dict = {}  # name -> the first card of that name
    repeated = None  # the names of two options or more
    shared = False  # two cards of one name
    for opt in options:
        cid = opt.card
        if cid is not None:
            d = defs[cid]
            name = d.name
            seen = seen_names.get(name)
            if seen is None:
                seen_names[name] = cid
                continue
            if repeated is None:
                repeated = set()
            repeated.add(name)
            if seen != cid:
                shared = True
    if not shared:  # most questions: no two cards of one name
        return options
    first: dict = {}
    marked = options
    for i, opt in enumerate(options):
        cid = opt.card
        # A key starts with the card's name (`alike_key`): an option whose card's name no
        # other option's has is like none of them, and its key is not made.
        if cid is None or opt.alike is not None:
            continue
        d = defs[cid]
        if d.name not in repeated:
            continue
        key = _alike_option_key(game, opt)
        shown = first.setdefault(key, opt.id)
        if shown != opt.id:
            if marked is options:
                marked = list(options)
            marked[i] = Option(opt.id, opt.label_as_made(), cid, opt.base, opt.value, shown,
                               opt.play)
    return marked


@cython.locals(opt=Option)
def _alike_option_key(game, opt) -> tuple:
    cid = opt.card
    match = CARD_OPTION_ID.match(opt.id)
    shape = (match.group(1), match.group(3)) if match is not None else (opt.id,)
    label = opt.label_as_made()
    if type(label) is not str:
        # (function, *args), formatted when read: words about the card, which the card's key
        # already tells (what a player sees of it).
        label = None
    value = opt.value
    if type(value) is tuple:
        value = tuple([None if x == cid else x for x in value])
    try:
        hash(value)
    except TypeError:
        value = repr(value)
    return (shape, game.alike_key(cid), opt.base, value, label)


@cython.locals(o=Option)
def _shown_count(options) -> int:
    shown = 0
    for o in options:
        if o.alike is None:
            shown += 1
    return shown


def _first_shown(options):
    for o in options:
        if o.alike is None:
            return o


@cython.locals(game=GameState)
def ask_yes_no(game, seat, prompt, source=None, yes="Yes", no="No"):
    chosen = yield from ask(game,
        seat, "confirm", prompt, [Option("yes", yes), Option("no", no)], source=source
    )
    return chosen[0].id == "yes"


@cython.locals(game=GameState)
def ask_lazily(game, seat, kind, prompt, source, count: int | None, min_count=1,
               max_count=1):
    """`ask` for a replay (`lazy_options`): the decision's options are listed by `source`
    only when read (`Decision.lazy`), and a recorded choice is looked up alone. `count`:
    how many options there are (None: more than one)."""
    if game.dropped_effects:
        check_dropped(game)
    if count is not None:
        if max_count > count:
            max_count = count
        if min_count > max_count:
            min_count = max_count
        if max_count == 0:
            return []
        if min_count == max_count == count:
            return list(source.options())
    game.decision_seq += 1
    # No options yet (None): `source` lists them when read.
    decision = Decision.lazy(source, f"d{game.decision_seq}", seat, kind, prompt, None,
                             min_count, max_count)
    ids = yield decision
    answer = game._answer
    game._answer = None
    if answer is not None and answer[0] is decision:
        return answer[1]
    return [decision.option(i) for i in ids]


@cython.locals(game=GameState)
def run_ability(game, fn, *args):
    """Run an ability function (generator): a generator function is followed to its end, a
    plain function is simply called (an ability that asks nothing needs no `yield`); returns
    what it returns. A verb it called without `yield from` raises here (effects.Effect)."""
    result = fn(*args)
    if _drives(result):
        result = yield from result
    if game.dropped_effects:
        check_dropped(game)
    return result


@cython.locals(game=GameState)
def check_dropped(game) -> None:
    if game.dropped_effects:
        what = "; ".join(game.dropped_effects)
        game.dropped_effects.clear()
        raise EngineError(f"{what} was called without `yield from`, so it did nothing: "
                          "write `yield from ctx.<verb>(...)` (README, Writing a card)")
