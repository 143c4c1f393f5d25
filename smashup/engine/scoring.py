"""Scoring a base: the Score Bases phase, one base's steps, VP by rank, cards put away, a new base.

Rules implemented here: WWWT "The Big Score" and "Scoring order", and the community page's "Phase 3:
Score Bases" (steps 1 to 9): the ready bases (total power at or over the breakpoint) score one
at a time in the order the current player picks, re-checked after each (`score_bases`); one
base (`_score_steps`): before-scoring abilities, then Specials ("Me First!"); VP by rank, ties
sharing the best place they tie for and skipping the next (WWWT "Awarding VP", "Tie Fighter":
`award_vp`), with what cards in play change in placement VP; when- and after-scoring abilities
and Specials; every card on the base to its owner's discard pile or where an "instead" sends it,
announced as discarded, not destroyed ("Back to Your Corners", CR step 7: `_put_away`); the base
discarded and replaced (steps 8-9: by the base deck's top, or the base or a card that claimed the
choice). A mode (Big Base) scores its own way (`score_board`) with these steps.

Compiled, `game` is typed GameState (scoring.pxd).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cython

from .core import EXACT_CORNERS, Event, Option, _added
from .effects import Ctx
from .powers import breakpoint, total_power
from .powers import power as power_of
from .protections import ability_active, base_active, card_ctx
from .reactions import _reactions_to, pending_items, run_pending
from .registry import CardDef
from .state import BaseSlot, GameState

_ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}  # places that give VP
_DECK_ENDS = ("deck_top", "deck_bottom")


@dataclass(slots=True)
class Scoring:
    """What happens while one base scores (CR Phase 3, steps 3 to 9)."""

    slot: BaseSlot
    base_card: int
    powers: dict[int, int] = field(default_factory=dict)
    places: dict[int, int] = field(default_factory=dict)  # seat -> place (1, 2, 3) for VP
    awards: dict[int, int] = field(default_factory=dict)
    # minion -> "hand", "deck_top", "deck_bottom" or ("move", base uid)
    instead: dict[int, str | tuple] = field(default_factory=dict)
    # minion -> the term its "instead" uses, announced as that event at step 7 ("placed" unless
    # the card says "return"); a ("move", uid) is a move and announces "moved" itself.
    terms: dict[int, str] = field(default_factory=dict)
    used: set = field(default_factory=set)  # once-per-scoring limits (e.g. Shinobi)
    cancelled: bool = False
    # Whether the base's abilities worked when it scored (step 4): its after-scoring and
    # replacement abilities follow that, not a cancel that came later.
    base_active_at_scoring: bool = True
    # (card, seat) whose `picks_new_base` ability chooses the base replacing this one (step 9):
    # the first card to claim it (Lost City), unless the base's own `replace_from` picks one.
    new_base_by: tuple | None = _added(None)
    # (card, seat) whose `on_new_base` ability runs once the replacing base is in play, in the
    # order they asked (Lost City's extra minion, even when another ability picked the base).
    on_new_base: list = _added(factory=list)
    # minion -> (card, seat): whose ability sent it where `instead` says, and the player who did
    # it (issue 24: First Mate's controller, the winner of The Mothership...), for step 7's move
    # or event; resolution 3 only (before it the scored base did it for nobody).
    done_by: dict = _added(factory=dict)

    @property
    def base(self) -> int:
        """The scoring base's uid."""
        return self.slot.uid

    def redirect(self, minion: int, destination, term: str = "placed", by=None) -> bool:
        """Send a minion somewhere other than the discard pile when the base's cards are put
        away (step 7). `term` is what the card calls it: "placed" by default (WWWT "Place": a
        relocation no other term covers, e.g. to the bottom of a deck or into a hand), "returned"
        for a card that says "return" (The Mothership). `by`: the Ctx of the ability that does
        it (a base's as `Ctx.performed_by` the player it names): the move or event of step 7 is
        that card's and that player's (issue 24, mechanism 2). When two "instead" effects claim
        the same minion, the first one to resolve wins (CR step 9's "the one activated first
        takes precedence", applied here)."""
        if minion in self.instead:
            return False
        self.instead[minion] = destination
        self.terms[minion] = term
        if by is not None and by.game.resolution >= EXACT_CORNERS:
            self.done_by[minion] = (by.card, by.source_player)
        return True

    def mover(self, game, minion: int):
        """The Ctx that makes step 7's move of `minion`: the ability that sent it, done by its
        player (`redirect(by=...)`), else the scored base's for nobody (resolution 2)."""
        card, seat = self.done_by.get(minion, (self.base_card, None))
        if game.defs[card].kind == "base":
            ctx = Ctx(game, card, game.current if seat is None else seat, base=self.slot.uid)
            return ctx if seat is None else ctx.acting(seat)
        return Ctx(game, card, seat)

    def step_7_event(self, kind: str, minion: int, player, data: dict,
                     base: int | None = None, scored: int | None = None) -> Event:
        """The event of step 7 for a minion sent to a hand or a deck (`redirect`) from `base`
        (this base by default), named after the card and player that sent it (else the scored
        base card, `scored` or this one's, for nobody)."""
        card, seat = self.done_by.get(minion, (self.base_card if scored is None else scored,
                                               None))
        return Event(kind, card=minion, base=self.slot.uid if base is None else base,
                     player=player, data=data, by_card=card, by_player=seat)

    def claim_new_base(self, card: int, seat: int) -> bool:
        """Let `card` (its `picks_new_base` ability, run by `seat` in step 9) choose the base that
        replaces this one. The first claim wins, as for "instead" (CR step 9), and the scored
        base's own `replace_from` ability, which resolves before any Special after scoring,
        comes first (the WWWT clarification on Lost City: "even if a different ability chooses
        the next base"). Returns whether this card got the choice."""
        if self.new_base_by is not None:
            return False
        self.new_base_by = (card, seat)
        return True

    def after_new_base(self, card: int, seat: int) -> None:
        """Run `card`'s `on_new_base` ability (by `seat`) once the replacing base is in play;
        nothing happens if the base is not replaced (an empty base deck)."""
        self.on_new_base.append((card, seat))

    def winners(self) -> list[int]:
        return [s for s, p in self.places.items() if p == 1]

    def runners_up(self) -> list[int]:
        return [s for s, p in self.places.items() if p == 2]


class _GameEnds(Exception):
    """Internal: a tied lead was broken by a scored base while playing on; the flow stops there."""


def _move_each(moves):
    """Scoring's step 7 "instead" moves, one after another, each by the ability (and player)
    that sent it (a module function, not a closure in the scoring generator: see
    `Game._discard_scored`)."""
    for mover, m, uid in moves:
        yield from mover.move(m, uid)


def ready_bases(game) -> list[BaseSlot]:
    """The bases whose total power reaches their breakpoint, checked after every turn: the
    totals are kept per base (`total_power`); with nothing that changes a breakpoint in play
    or lasting (the lasting effects are mostly power changes), a breakpoint is the printed one
    (`breakpoint`)."""
    if game.breakpoint_sources or _breakpoint_lasting(game):
        return [s for s in game.bases if total_power(game, s) >= breakpoint(game, s)]
    defs = game.defs
    return [s for s in game.bases if total_power(game, s) >= defs[s.card].breakpoint]


def _breakpoint_lasting(game) -> bool:
    for eff in game.lasting:
        if eff.kind == "breakpoint":
            return True
    return False


@cython.locals(game=GameState)
def score_bases(game):
    """CR Phase 3: score ready bases one at a time, re-checking readiness after each."""
    while True:
        ready = ready_bases(game)
        if not ready:
            return
        if len(ready) == 1:
            slot = ready[0]
        else:
            options = [
                Option(f"b{s.uid}", f"{game.base_name(s.uid)} ({total_power(game, s)}/"
                       f"{breakpoint(game, s)})", base=s.uid)
                for s in ready
            ]
            chosen = yield from game.ask(
                game.current, "score", "Several bases are ready: which scores first?", options
            )
            slot = game.slot(chosen[0].base)
        scored_before = game.bases_scored
        yield from score_base(game, slot)
        # Playing on after a tied end: each scored base may break the tie, ending the game
        # at once (the rest of the turn is not played).
        if (game.play_on_until is not None and game.bases_scored > scored_before
                and game._decide_on_vp(end_of_turn=False)):
            raise _GameEnds


@cython.locals(game=GameState)
def score_base(game, slot: BaseSlot):
    sc = Scoring(slot, slot.card)
    game.scoring_stack.append(sc)
    try:
        yield from _score_steps(game, sc)
    finally:
        game.scoring_stack.pop()


@cython.locals(game=GameState)
def _score_steps(game, sc: Scoring):
    slot = sc.slot
    bdef = game.base_def(slot)
    # The log says "X scores." where the VP are given, after the Specials before scoring (issue
    # 26, finding 10: it came first, before them).
    game.log(f"{bdef.name} is about to score.")
    # Step 3: "before scoring" abilities in play, then Specials from hand (Me First!). From
    # resolution 3 the base's own ability and the reactions to the step are ordered by the
    # current player among the Specials of cards in play (`special_window`'s `pending`);
    # before it they all resolved first.
    exact = game.resolution >= EXACT_CORNERS
    if exact:
        yield from game.special_window(
            "before_scoring", sc, step_items(game, "before_scoring", sc, bdef.before_scoring))
    else:
        yield from _scoring_step(game, "before_scoring", sc, bdef.before_scoring)
        yield from game.special_window("before_scoring", sc)
    if game.slot_or_none(slot.uid) is None or sc.cancelled:
        return
    # Step 4: award VP by rank, with ties; then "when scoring" abilities.
    game.log(f"{bdef.name} scores.")
    award_vp(game, sc)
    game._count_scored_base()
    yield from _scoring_step(game, "when_scoring", sc, bdef.when_scoring)
    # Step 6: "after scoring" abilities, then Specials from hand (the same order as step 3).
    if exact:
        yield from game.special_window(
            "after_scoring", sc, step_items(game, "after_scoring", sc, bdef.after_scoring))
    else:
        yield from _scoring_step(game, "after_scoring", sc, bdef.after_scoring)
        yield from game.special_window("after_scoring", sc)
    if game.slot_or_none(slot.uid) is None:
        return
    # Step 7: every card on the base goes to its owner's discard pile (or where an
    # "instead" effect sends it). This is not destroying.
    moves = [(sc.mover(game, m), m, sc.instead[m][1]) for m in slot.minions
             if _moves_instead(game, sc, m)]
    if moves:
        # ("move", base uid): a real move, with what is attached (WWWT "Move"), by the ability
        # that sent it (First Mate's, or the base's done by a player); its "moved" reactions
        # happen here, and whatever is still on the base afterwards is put away.
        yield from game.resolve(_move_each(moves))
    # The reactions to these discards happen in this step (CR step 7); should one of them put
    # a card on this base, that card is put away too ("once there are no more cards on the
    # scoring base, go to step 8").
    while slot.minions or slot.actions:
        yield from game.resolve(_put_away(game, sc))
    # Steps 8 and 9: discard the base and replace it.
    index = game.bases.index(slot)
    game.bases.remove(slot)
    del game._slot_of[slot.uid]
    game.move_card(slot.card, ("base_discard",))
    new_card = None
    if bdef.replace_from is not None and sc.base_active_at_scoring:
        new_card = yield from game.run_ability(
            bdef.replace_from, Ctx(game, slot.card, game.current, slot.uid), sc)
    if new_card is None and sc.new_base_by is not None:
        # A card claimed the choice after scoring (Lost City): it picks now, in step 9.
        card, seat = sc.new_base_by
        new_card = yield from game.run_ability(game.defs[card].new_base_picker,
                                               Ctx(game, card, seat), sc)
    if new_card is None:
        new_card = game.draw_base()
    if new_card is None:
        game.log("The base deck is empty: the base is not replaced.")
        return
    new_slot = game.new_slot(new_card, index)
    game.log(f"{game.base_name(new_slot.uid)} replaces {bdef.name}.")
    # The new base's arrival (Crypt Looter answers it) is one batch with what the scored
    # base does after it is replaced (Tortuga), announced once that is done: a question of
    # Tortuga's then finds no event waiting, as in records made before `base_entered`.
    yield from game.resolve(_replaced(game, sc, bdef, new_slot))


@cython.locals(game=GameState)
def _replaced(game, sc: Scoring, bdef, new_slot: BaseSlot):
    slot = sc.slot
    if bdef.after_replaced is not None and sc.base_active_at_scoring:
        yield from game.run_ability(
            bdef.after_replaced, Ctx(game, slot.card, game.current, slot.uid), sc,
            new_slot.uid)
    for card, seat in sc.on_new_base:
        if game.slot_or_none(new_slot.uid) is None:
            break
        yield from game.run_ability(
            game.defs[card].new_base_follow_up, Ctx(game, card, seat), sc, new_slot.uid)
    game.emit(Event("base_entered", card=new_slot.card, base=new_slot.uid,
                    data={"how": "dealt", "replaced": slot.card}, by_card=slot.card))


@cython.locals(game=GameState)
def _put_away(game, sc: Scoring):
    """CR Phase 3 step 7: every card on the scored base goes to its owner's discard pile at
    once, minions where an "instead" sends them. This is not destroying (no `destroyed`).

    Ruling (CR step 7: "some of the cards going to the discard pile have abilities that are
    triggered when they are discarded (e.g. Igor, Jumper, Clyde 2.0), this step triggers them
    as well"): each card put into a discard pile here is a `discarded` event; a minion sent
    elsewhere is announced by its own term (`placed` for Scout's hand and Temple of Goju's
    deck bottom, `returned` for The Mothership's return), and the actions attached to it are
    discarded like the rest. The cards all move first and are announced afterwards, since they
    go simultaneously; then their reactions resolve (the current player orders simultaneous
    ones, `run_reactions`)."""
    slot = sc.slot
    events = []
    # "Instead" onto a deck: several cards onto one end of one deck go in the order their
    # owner chooses (asked before anything moves: the cards go at once).
    to_decks = yield from order_deck_placements(game,
        [(m, sc.instead[m]) for m in slot.minions if sc.instead.get(m) in _DECK_ENDS],
        sc.base_card)

    for m in list(slot.minions):
        for a in list(game.minion_state[m].attached):
            _discard_scored(game, a, sc, events)
        dest = sc.instead.get(m, "discard")
        ctrl = game.minion_state[m].controller
        if dest == "hand" or dest in _DECK_ENDS:
            if dest == "hand":
                put_instead(game, m, dest)
            events.append(sc.step_7_event(sc.terms.get(m, "placed"), m, ctrl,
                                          {"to": dest, "scored": sc.base_card, "from": "play"}))
        else:
            _discard_scored(game, m, sc, events)
    for m in to_decks:
        put_instead(game, m, sc.instead[m])
    for a in list(slot.actions):
        _discard_scored(game, a, sc, events)
    for event in events:
        game.emit(event)


# A method, not a closure inside `_put_away`: compiled (native.py), a generator keeps its
# locals in a scope object that a nested function refers back to, a reference cycle that
# would keep the finished game alive until the cycle collector runs (test_game_freed.py).
def _discard_scored(game, card: int, sc: Scoring, events: list) -> None:
    owner = game.owner[card]
    ctrl = game.controller(card)
    game.move_card(card, ("discard", owner))
    events.append(Event("discarded", card=card, base=sc.slot.uid, player=owner,
                        data={"scored": sc.base_card, "from": "play", "controller": ctrl},
                        by_card=sc.base_card))


@cython.locals(game=GameState)
def put_instead(game, card: int, dest: str) -> None:
    """Put a card where an "instead" sends it: its owner's hand, or the top or bottom of
    their deck."""
    owner = game.owner[card]
    if dest == "hand":
        game.move_card(card, ("hand", owner))
    else:
        game.move_card(card, ("deck", owner), 0 if dest == "deck_top" else None)


@cython.locals(game=GameState)
def order_deck_placements(game, pairs, source: int):
    """The cards of `pairs` ((card, "deck_top" or "deck_bottom")) in the order to put them
    there one at a time: where two or more go onto the same end of one deck, their owner
    picks the order (Always Room at Granny's: "in the order you choose"), the first one picked
    going first (so on the top it ends under the later ones). A card alone needs no question."""
    groups: dict[tuple, list] = {}
    for card, dest in pairs:
        groups.setdefault((game.owner[card], dest), []).append(card)
    ordered = []
    for (owner, dest), cards in groups.items():
        if len(cards) > 1:
            where = "on top of" if dest == "deck_top" else "on the bottom of"
            cards = yield from Ctx(game, source, owner).choose_order(
                cards, f"Your cards go {where} your deck one at a time: which one goes next?",
                seat=owner, onto_one_deck=True)
        ordered.extend(cards)
    return ordered


@cython.locals(game=GameState)
def _moves_instead(game, sc: Scoring, m: int) -> bool:
    dest = sc.instead.get(m)
    # The target base must still be in play (else the minion is discarded like the rest).
    return (isinstance(dest, tuple) and dest[0] == "move" and dest[1] != sc.slot.uid
            and game.slot_or_none(dest[1]) is not None)


@cython.locals(game=GameState)
def _scoring_step(game, kind: str, sc: Scoring, base_hook):
    """The base's own ability for this step and every card reacting to it, in the order the
    current player picks (CR Card Resolution Order, step 3)."""
    pending = step_items(game, kind, sc, base_hook)
    if pending:
        yield from run_pending(game, pending)


@cython.locals(game=GameState)
def step_items(game, kind: str, sc: Scoring, base_hook, label: str | None = None) -> list:
    """What a scoring step sets off, to be ordered (`reactions.pending_items`): the base's own
    ability for the step (named `label`, by default the base's name), while its abilities
    work, and every card reacting to the step's event. Empty when the base is gone."""
    slot = sc.slot
    if game.slot_or_none(slot.uid) is None:
        return []
    event = Event(kind, base=slot.uid, data={"scoring": sc})
    active = base_active(game, slot)
    if kind == "when_scoring":
        sc.base_active_at_scoring = active
    extra = []
    if base_hook is not None and active:
        extra.append((game.name(slot.card) if label is None else label, slot.card,
                      _scoring_hook(game, base_hook, sc)))
    return pending_items([(cid, trig, event) for cid, trig in _reactions_to(game, event)], extra)


def _scoring_hook(game, fn, sc):
    # Not typed (a closure may not capture a typed game when compiled): it only makes the factory.
    def factory():
        yield from game.run_ability(
            fn, Ctx(game, sc.base_card, game.current, base=sc.slot.uid), sc)

    return factory


@cython.locals(game=GameState)
def award_vp(game, sc: Scoring) -> None:
    """Rank players by power here. A tie shares the best place it ties for and the next
    place is skipped (WWWT "Tie Fighter"). Eligible: at least one minion or at least 1 power."""
    slot = sc.slot
    powers = {}
    for seat in range(len(game.players)):
        mine = [m for m in slot.minions if game.minion_state[m].controller == seat]
        power = sum([power_of(game, m) for m in mine])
        if mine or power > 0:
            powers[seat] = power
    sc.powers = powers
    vp = game.base_def(slot).vp
    changes, parts = {}, {}
    for seat, power in powers.items():
        place = 1 + sum(1 for p in powers.values() if p > power)
        if place <= 3:
            sc.places[seat] = place
            if vp[place - 1]:
                # Cards that change placement VP do so before the VP are given, never
                # below 0 (IYF: Great Wyrm, Ruins; VP from abilities are not changed).
                parts[seat] = placement_vp_parts(game, sc, seat)
                changes[seat] = sum([amount for _card, amount in parts[seat]])
                if vp[place - 1] + changes[seat] > 0:
                    sc.awards[seat] = vp[place - 1] + changes[seat]
    note_scoring(game, sc, changes)
    for seat in game.seats_from_current():
        # What changed the VP is named (issue 26, finding 10: "-1" alone did not say what).
        change = _change_words(game, parts[seat]) if changes.get(seat) else ""
        if seat in sc.awards:
            game.players[seat].vp += sc.awards[seat]
            game.log(f"{game.pname(seat)} gains {sc.awards[seat]} VP "
                     f"({_ORDINAL[sc.places[seat]]} on {game.name(slot.card)}{change}).")
        elif changes.get(seat):
            game.log(f"{game.pname(seat)} gains no VP ({_ORDINAL[sc.places[seat]]} on "
                     f"{game.name(slot.card)}{change}).")


def _change_words(game, parts: list) -> str:
    """", -1 Great Wyrm, -2 Ruins": what each card changed in a placement's VP, by name."""
    by_name: dict = {}
    for card, amount in parts:
        name = game.name(card)
        by_name[name] = by_name.get(name, 0) + amount
    return "".join([f", {amount:+d} {name}" for name, amount in by_name.items() if amount])


@cython.locals(game=GameState)
def note_scoring(game, sc: Scoring, changes: dict) -> None:
    """Keep what this scoring gave, as plain public data, for the pages' summaries (the log says
    it in words): who ranked where with what power (and which minions made it), the VP each got
    and the cards that changed them. `choices`: how many choices had been made, the one that led
    here included. Not state (digests.NOT_STATE): like the log, it changes no future."""
    slot = sc.slot
    minions: dict = {}
    for m in slot.minions:
        minions.setdefault(str(game.minion_state[m].controller), []).append([m, power_of(game, m)])
    changed_by: dict = {}
    for seat, amount in changes.items():
        if amount:
            changed_by[str(seat)] = placement_vp_parts(game, sc, seat)
    game.base_scorings.append({
        "turn": game.turn,
        "choices": len(game.choices),
        "base": sc.base_card,
        "vp": list(game.base_def(slot).vp),
        "powers": {str(s): p for s, p in sc.powers.items()},
        "places": {str(s): p for s, p in sc.places.items()},
        "awards": {str(s): v for s, v in sc.awards.items()},
        "minions": minions,
        "vp_changes": changed_by,
    })


@cython.locals(game=GameState, d=CardDef)
def placement_vp_parts(game, sc: Scoring, seat: int) -> list:
    """[card, amount] for each card in play that changes `seat`'s placement VP here (the parts of
    `placement_vp_change`): only cards whose abilities work (WWWT "Cancel": a Great Wyrm under
    Cuddle takes nothing; before resolution 3 every such card in play did)."""
    parts = []
    gate = game.resolution >= EXACT_CORNERS
    for slot in game.bases:
        cards = list(slot.actions)
        for m in slot.minions:
            cards.append(m)
            cards.extend(game.minion_state[m].attached)
        for card in cards:
            d = game.defs[card]  # a card in play
            fn = d.placement_vp_modifier
            if fn is not None and (not gate or ability_active(game, card)):
                amount = fn(card_ctx(game, card), sc, seat)
                if amount:
                    parts.append([card, amount])
    return parts


@cython.locals(game=GameState)
def placement_vp_change(game, sc: Scoring, seat: int) -> int:
    """What the cards in play (`modifies_placement_vp`) add to `seat`'s placement VP from
    the scoring base."""
    return sum([amount for _card, amount in placement_vp_parts(game, sc, seat)])
