"""What a question offers: the options of plays, identical copies offered once, labels of cards.

Rules implemented here: identical copies never give identical options (issue 9: a player cannot
tell two alike copies apart, so a choice offers one of them; the others stay accepted,
`Option.alike`, so old records replay): `alike_key` (what a player sees of a card), `_mark_alike`
and `_mark_alike_in_hand` (the main decision's plays of alike copies); the Options of a card's
plays (`_play_row`, `_play_option`, made once per card, base and kind: the main decision offers
the same plays turn after turn); a card in play for people (`describe_minion`,
`describe_action`); the hand limit's discard as options listed when read (`_CardOptions`).
The main decision itself is turns.py's.

Compiled, `game` is typed GameState (options.pxd); the hot ones are C functions.
"""
from __future__ import annotations

import cython

from .core import MINION, MinionState, Option, Play, card_option_id
from .powers import power as power_of
from .protections import ability_active, cancelled_cards
from .registry import _Declares
from .state import GameState


def _end_option() -> Option:
    return Option("end", "End the Play Cards phase", value=("end",))


# The main decision's "end" option, made once (Options are never changed once made).
_END = _end_option()


def _marked(opt: Option, shown: str) -> Option:
    """`opt` marked alike the option `shown` (`Game._mark_alike`): a copy, since cached options
    stay as made; Option's fields, without replace()'s generic checks, since the main decision
    marks options every time it is asked."""
    return Option(opt.id, opt.label_as_made(), opt.card, opt.base, opt.value, shown, opt.play)


def _mark_repeated_keys(options: list[Option], keyed) -> list[Option]:
    """`options` with each option whose key (`keyed`: (index, key) pairs, in order) an earlier
    one had marked alike that one (`_marked`); the same list when none is."""
    first: dict = {}
    marked = options
    for i, key in keyed:
        opt = options[i]
        shown = first.setdefault(key, opt.id)
        if shown != opt.id:
            if marked is options:
                marked = list(options)
            marked[i] = _marked(opt, shown)
    return marked


def _minion_play_label(name: str, where: str, base_name: str, kind: str | None) -> str:
    """The label of the main decision's play of a minion (`Game._play_option`)."""
    label = f"Play {name}{where} on {base_name}"
    return label if kind is None else f"{label} as an {kind}"


class _CardOptions:
    """One option a card (`card_option_id(prefix, card)`, labelled by its name) for each of
    `cards`, listed only when read in a replay (`Game.ask_lazily`): the hand limit's discard."""

    __slots__ = ("game", "prefix", "cards")

    def __init__(self, game: GameState, prefix: str, cards: list[int]):
        self.game = game
        self.prefix = prefix
        self.cards = list(cards)

    @cython.locals(game=GameState, d=_Declares)
    def option(self, cid: int) -> Option:
        # The same card gives the same Option question after question (the hand limit's
        # discard every turn): made once, as the main decision's plays are.
        game = self.game
        d = game.defs[cid]
        name = d.name
        made = game._card_options
        option = made.get((self.prefix, cid, name))
        if option is None:
            option = made[self.prefix, cid, name] = Option(card_option_id(self.prefix, cid),
                                                           name, card=cid)
        return option

    def options(self) -> list[Option]:
        return [self.option(c) for c in self.cards]

    def find(self, option_id: str) -> Option | None:
        if type(option_id) is not str or option_id[:1] != self.prefix:
            return None
        digits = option_id[1:]
        if not (digits.isascii() and digits.isdigit()):
            return None
        cid = int(digits)
        # The id as this card's option spells it ("c07" is no option).
        if cid in self.cards and option_id == f"{self.prefix}{cid}":
            return self.option(cid)
        return None


@cython.locals(d=_Declares, state=MinionState)
def alike_key(game, cid: int) -> tuple:
    """What a player sees of a card: two cards with the same key are copies nobody can tell
    apart, so a choice offers one of them (`Ctx.one_of_each`, the talents of the main
    decision). In play: the same name, base, controller, owner, power, counters and attached
    cards (an attached action: on alike hosts); elsewhere: the same name, zone and owner."""
    zone = game.loc[cid]
    where = zone[1] if len(zone) > 1 else None
    if zone[0] == "attached":
        where = alike_key(game, where)
    d = game.defs[cid]
    key = (d.name, zone[0], where, game.owner[cid])
    state = game.minion_state.get(cid)
    if state is not None:
        key += (state.controller, power_of(game, cid), state.counters,
                tuple(sorted([(game.defs[a].name, game.owner[a], game.controller(a))
                              for a in state.attached])))
        if cancelled_cards(game) and not ability_active(game, cid):
            key += ("cancelled",)  # Mind Lady's cancel shows on the board, not on the card
    elif cid in game.action_state:
        key += (game.action_state[cid].controller,)
    return key


def describe_minion(game, m: int, besides: int | None = None) -> str:
    """A minion in play for people ("Invader (3, P1) on Tar Pits"), with whatever else tells
    it from a copy (`alike_key`): its counters, an owner other than its controller, the
    actions on it (`besides` one that is named already: an action on it described), its
    abilities cancelled. Two minions a player can tell apart never read the same (issue 24:
    identical labels are identical options)."""
    uid = game.base_of(m)
    state = game.minion_state[m]
    words = [str(power_of(game, m))]
    if state.counters:
        words.append(f"{state.counters} counter{'s' if state.counters != 1 else ''}")
    words.append(game.pname(state.controller))
    owner = game.owner[m]
    if owner != state.controller:
        words.append(f"{game.pname(owner)}'s card")
    others = [game.defs[a].name for a in state.attached if a != besides]
    if others:
        words.append("with " + ", ".join(sorted(others)))
    if cancelled_cards(game) and not ability_active(game, m):
        words.append("cancelled")
    return f"{game.name(m)} ({', '.join(words)}) on {game.base_name(uid)}"


def describe_action(game, a: int) -> str:
    """An action in play for people: its name, whose it is and where ("Poison (P2) on
    Invader (3, P1) on Tar Pits")."""
    state = game.action_state[a]
    host = (describe_minion(game, state.host, a) if state.host_kind == "minion"
            else game.base_name(state.host))
    return f"{game.name(a)} ({game.pname(state.controller)}) on {host}"


@cython.locals(d=_Declares, state=MinionState)
def _alike_key(game, cid: int) -> tuple:
    # What a player can tell two copies apart by: out of play its name and zone; in play also
    # its base, controller, power, counters and attached cards (as Ctx.one_of_each).
    zone = game.loc[cid]
    d = game.defs[cid]
    key = (d.name, zone[0], zone[1] if len(zone) > 1 else None)
    state = game.minion_state.get(cid)
    if state is not None:
        key += (state.controller, power_of(game, cid), state.counters,
                tuple(sorted([(game.defs[a].name, game.owner[a]) for a in state.attached])))
        if cancelled_cards(game) and not ability_active(game, cid):
            key += ("cancelled",)
    return key


@cython.locals(d=_Declares, opt=Option)
def _mark_alike(game, options: list[Option]) -> list[Option]:
    """Identical copies never give identical options (issue 9): a play of a copy in hand
    alike an earlier one (the same name, the same base), or the talent of a minion alike an
    earlier one (`_alike_key`), is marked as that one's (`Option.alike`): not shown, still
    accepted. Every option stays, with its id, so records and seeded games are unchanged."""
    # Alike options are of two cards with one name (a card's own options differ by base,
    # kind or zone): most questions have none, and need no key read (power included).
    defs = game.defs
    card_of_name: dict = {}
    shared = set()  # names of two cards or more among the options
    last = None
    for opt in options:
        cid = opt.card
        # A card's options come together (its plays onto each base): one look is enough.
        if cid is not None and cid != last:
            last = cid
            d = defs[cid]
            name = d.name
            if card_of_name.setdefault(name, cid) != cid:
                shared.add(name)
    if not shared:
        return options
    keys: dict = {}  # card -> its `_alike_key`, read once
    # A list, not a generator (a closure may not capture a typed game when compiled).
    keyed = []
    for i, opt in enumerate(options):
        cid = opt.card
        if cid is None:
            continue
        d = defs[cid]
        if d.name not in shared:
            continue
        alike = keys.get(cid)
        if alike is None:
            alike = keys[cid] = _alike_key(game, cid)
        keyed.append((i, (opt.value[0] if opt.value else None, alike, opt.base,
                          opt.play.kind if opt.play is not None else None)))
    return _mark_repeated_keys(options, keyed)


@cython.locals(d=_Declares)
def _mark_alike_in_hand(game, options: list[Option], seat: int) -> list[Option]:
    """`_mark_alike` for the main decision with one talent or none: only plays of two cards
    of one name in the hand may be alike there (a discard pile offers one play per name, and
    a card there is not alike one in hand), and two such cards are alike (`_alike_key`:
    the same name and zone). Most hands hold no two cards of one name."""
    defs = game.defs
    hand = game.players[seat].hand
    names = []
    for c in hand:
        d = defs[c]
        names.append(d.name)
    if len(set(names)) == len(names):
        return options
    # The name of each card in hand that has a copy there.
    copies = {c: name for c, name in zip(hand, names, strict=True) if names.count(name) > 1}
    # A list, not a generator: a third of the marking's cost when compiled.
    return _mark_repeated_keys(options, [
        (i, (opt.value[0], copies[opt.card], opt.base, opt.play.kind))
        for i, opt in enumerate(options) if opt.card in copies])


@cython.locals(d=_Declares)
def _play_row(game, seat: int, cid: int, kind: str, sig: tuple, onto: int | None = None
              ) -> tuple:
    """The Options of the main decision for the plays of `cid` from `seat`'s hand as `kind`
    (each holds its play): onto each base of `sig` ((uid, base card) of the bases in play)
    for a minion, or only onto base `onto`. The same play is offered turn after turn: its
    Option is made once (by base card too, since a base swapped in keeps its slot's uid)."""
    made = game._minion_play_options
    found = []
    d = game.defs[cid]
    for uid, base_card in (sig if d.kind == MINION else ((None, None),)):
        if onto is not None and uid != onto and uid is not None:
            continue
        key = (cid, uid, base_card, kind, seat)
        option = made.get(key)
        if option is None:
            option = made[key] = _play_option(game, Play(seat, cid, kind, "hand", uid),
                                                   base_card)
        found.append(option)
    return tuple(found)


@cython.locals(defn=_Declares, base_def=_Declares, p=Play)
def _play_option(game, play: Play, base_card: int | None, way=None) -> Option:
    # Made for every card and base offered: the play's fields are read once each.
    p = play
    cid, zone, kind, base = p.card, p.zone, p.kind, p.base
    defn = game.defs[cid]
    where = " from your discard pile" if zone == "discard" else ""
    if defn.kind == MINION:
        # A minion played with another kind of play (`playable_as`) is its own option.
        other = kind != MINION
        # Names only: formatted when read (bots never read it).
        base_def = game.defs[base_card]
        label = (_minion_play_label, defn.name, where, base_def.name, kind if other else None)
        value = ("discard", cid, base, way) if zone == "discard" else ("minion", cid, base)
        return Option(card_option_id("m", cid, at=base, index=1 if other else None),
                      label, card=cid, base=base, value=value, play=play)
    return Option(card_option_id("a", cid), f"Play {defn.name}{where}", card=cid,
                  value=("action", cid), play=play)
