"""The effect vocabulary that card abilities are written in.

An ability receives a `Ctx`: the game, the card whose ability it is, "you" (its controller) and
"here" (its base). Queries are plain methods; effects that may ask a question or set off reactions
are generators used with `yield from`. The terms follow the rulebooks' definitions (WWWT "Terms"):
destroy, return, move, place, discard and play are distinct events, each announced as its own
`Event` so that the cards that react to one do not react to another.
"""
from __future__ import annotations

from .core import ACTION, MINION, Event, Grant, Lasting, Option, counted


class Ctx:
    def __init__(self, game, card: int, me: int, base: int | None = None):
        self.game = game
        self.card = card
        self.me = me
        self._base = base

    # ------------------------------------------------------------------ who, where -------------
    @property
    def here(self) -> int | None:
        """The base this card is on now (for a card that left play: where it was played)."""
        uid = self.game.base_of(self.card)
        return uid if uid is not None else self._base

    @property
    def is_action(self) -> bool:
        return self.game.defs[self.card].kind == ACTION

    def opponents(self) -> list[int]:
        n = len(self.game.players)
        return [(self.me + i) % n for i in range(1, n)]

    def power(self, m: int) -> int:
        return self.game.power(m)

    def controller(self, cid: int) -> int | None:
        return self.game.controller(cid)

    def owner(self, cid: int) -> int | None:
        return self.game.owner[cid]

    def name(self, cid: int) -> str:
        return self.game.name(cid)

    def minions(self, base: int | None = None, where=None, controller: int | None = None,
                affectable: bool = True) -> list[int]:
        """Minions in play (on `base` if given) that pass `where`, and that this ability may
        affect (protections such as Smoke Bomb) unless `affectable` is False."""
        g = self.game
        slots = [g.slot(base)] if base is not None else g.bases
        found = []
        for slot in slots:
            for m in slot.minions:
                if controller is not None and g.minion_state[m].controller != controller:
                    continue
                if where is not None and not where(m):
                    continue
                if affectable and not self.can_affect(m):
                    continue
                found.append(m)
        return found

    def can_affect(self, target: int) -> bool:
        return self.game.affects(self.card, self.me, target)

    def bases(self, where=None) -> list[int]:
        return [s.uid for s in self.game.bases if where is None or where(s.uid)]

    def hand(self, seat: int | None = None) -> list[int]:
        return list(self.game.players[self.me if seat is None else seat].hand)

    def attached(self, m: int) -> list[int]:
        return list(self.game.minion_state[m].attached)

    def actions_on_base(self, uid: int) -> list[int]:
        return list(self.game.slot(uid).actions)

    def flag(self, key, seat: int | None = None):
        """Per-turn memory for "once per turn" abilities."""
        return self.game.turn_state.flags.get((key, seat))

    def set_flag(self, key, seat: int | None = None, value=True):
        self.game.turn_state.flags[(key, seat)] = value

    def in_play_mark(self, m: int) -> tuple[int, int]:
        """Remember minion `m` as the card in play it is now, for an ability that chooses it first
        and acts on it later (Disguise): see `still_in_play`."""
        return (m, self.game.minion_state[m].entered)

    def still_in_play(self, mark: tuple[int, int]) -> bool:
        """Whether a minion remembered with `in_play_mark` is still that card in play. One that
        left play since (returned, destroyed...) is not, even if it was played again: played
        again it is a new card in play (CR "Void Where Prohibited": effects end when their card
        leaves play; MinionState.entered). A move or a change of controller keeps it the same."""
        m, entered = mark
        state = self.game.minion_state.get(m)
        return state is not None and state.entered == entered

    # ------------------------------------------------------------------ choose -----------------
    def _seat(self, seat):
        return self.me if seat is None else seat

    def choose_minion(self, candidates, prompt, optional=False, seat=None):
        """Pick one minion among `candidates`; None if there is none or the player declines."""
        g = self.game
        options = [Option(f"m{m}", g.describe_minion(m), card=m) for m in candidates]
        chosen = yield from g.ask(self._seat(seat), "target", prompt, options,
                                  0 if optional else 1, 1, source=self.card)
        return chosen[0].card if chosen else None

    def choose_minions(self, candidates, prompt, min_count=0, max_count=None, seat=None):
        g = self.game
        options = [Option(f"m{m}", g.describe_minion(m), card=m) for m in candidates]
        top = len(options) if max_count is None else max_count
        chosen = yield from g.ask(self._seat(seat), "targets", prompt, options, min_count, top,
                                  source=self.card)
        return [o.card for o in chosen]

    def choose_base(self, candidates, prompt, optional=False, seat=None):
        g = self.game
        options = [Option(f"b{u}", g.base_name(u), base=u) for u in candidates]
        chosen = yield from g.ask(self._seat(seat), "base", prompt, options,
                                  0 if optional else 1, 1, source=self.card)
        return chosen[0].base if chosen else None

    def choose_cards(self, candidates, prompt, min_count=1, max_count=1, seat=None, reveal=None):
        """Pick cards that are not in play (in a hand, a discard pile...)."""
        g = self.game
        options = [Option(f"c{c}", g.name(c), card=c) for c in candidates]
        chosen = yield from g.ask(self._seat(seat), "cards", prompt, options, min_count,
                                  max_count, source=self.card, reveal=reveal)
        return [o.card for o in chosen]

    def choose_order(self, cards, prompt, seat=None, reveal=None):
        """Put cards in an order the player picks ("in any order"): one card at a time, the first
        picked first. Returns the ordered list; a single card needs no question."""
        remaining = list(cards)
        ordered = []
        while remaining:
            picked = yield from self.choose_cards(remaining, prompt, 1, 1, seat=seat,
                                                  reveal=reveal)
            ordered.append(picked[0])
            remaining.remove(picked[0])
        return ordered

    def choose_player(self, candidates, prompt, optional=False, seat=None):
        g = self.game
        options = [Option(f"p{p}", g.pname(p)) for p in candidates]
        chosen = yield from g.ask(self._seat(seat), "player", prompt, options,
                                  0 if optional else 1, 1, source=self.card)
        return int(chosen[0].id[1:]) if chosen else None

    def choose_and(self, effect, candidates, prompt, optional=False, seat=None):
        """Choose one minion among `candidates` and do `effect` to it (destroy, return_to_hand,
        place_on_deck_bottom...). Returns the minion, or None when there was none or the player
        declined a "may"."""
        target = yield from self.choose_minion(candidates, prompt, optional=optional, seat=seat)
        if target is not None:
            yield from effect(target)
        return target

    def power_at_most(self, limit: int):
        """A `where` filter for `minions()`: current power `limit` or less."""
        return lambda m: self.game.power(m) <= limit

    def may(self, prompt, seat=None):
        """A "you may" with no target to pick: yes or no."""
        return (yield from self.game.ask_yes_no(self._seat(seat), prompt, source=self.card))

    # ------------------------------------------------------------------ effects ----------------
    def gain_vp(self, seat: int, amount: int) -> None:
        g = self.game
        g.players[seat].vp += amount
        g.log(f"{g.pname(seat)} gains {amount} VP ({self.name(self.card)}).")

    def draw(self, seat: int, count: int) -> list[int]:
        return self.game.draw(seat, count)

    # ------------------------------------------------------------------ decks: look, reveal, search
    # WWWT Phase 4: to draw, reveal, search for or look at a card with an empty deck, shuffle the
    # discard pile into a new deck first. Every one of these goes through `Game.refill_deck`.
    def _deck_end(self, seat: int, count: int, bottom: bool) -> list[int]:
        g = self.game
        if count <= 0:
            return []
        g.refill_deck(seat, count, from_bottom=bottom)
        deck = g.players[seat].deck
        return list(reversed(deck[-count:])) if bottom else list(deck[:count])

    def _whose_deck(self, actor: int, seat: int, cards: list[int], bottom: bool) -> str:
        # "the top card of their deck", "the bottom 2 cards of P1's deck"
        end = "bottom" if bottom else "top"
        which = f"{end} card" if len(cards) == 1 else f"{end} {counted(len(cards), 'card')}"
        whose = "their" if actor == seat else f"{self.game.pname(seat)}'s"
        return f"the {which} of {whose} deck"

    def look_at_top(self, seat: int, count: int, viewer: int | None = None,
                    bottom: bool = False) -> list[int]:
        """`viewer` (default you) looks at the top `count` cards of `seat`'s deck (the bottom ones
        with `bottom`), shown to no one else (CR "Void Where Prohibited": "look" versus
        "reveal"). The cards stay where they are; returns them from that end inwards. The names
        go to the viewer's log only; a question about them passes them as `reveal`."""
        g = self.game
        viewer = self._seat(viewer)
        cards = self._deck_end(seat, count, bottom)
        if cards:
            g.log(f"{g.pname(viewer)} looks at {self._whose_deck(viewer, seat, cards, bottom)}.")
            g.log(f"You see {', '.join(self.name(c) for c in cards)}.", to=(viewer,))
        return cards

    def reveal_top(self, seat: int, count: int, bottom: bool = False) -> list[int]:
        """Reveal the top `count` cards of `seat`'s deck (the bottom ones with `bottom`) to
        everyone. The cards stay where they are; returns them from that end inwards."""
        g = self.game
        cards = self._deck_end(seat, count, bottom)
        if cards:
            g.log(f"{g.pname(self.me)} reveals {self._whose_deck(self.me, seat, cards, bottom)}: "
                  f"{', '.join(self.name(c) for c in cards)}.")
        return cards

    def search_deck(self, prompt: str, where=None, min_count: int = 0, max_count: int = 1,
                    to: str | None = "hand", seat: int | None = None):
        """Search your deck (`seat`'s) for cards that pass `where` (generator). The searcher sees
        the whole deck; the chosen cards are revealed to everyone and go `to` the "hand" (a
        place) or the "discard" pile, then the deck is shuffled (CR "Void Where Prohibited":
        a searched card is revealed, a searched deck shuffled). With `to=None` the chosen cards
        stay in the deck for the ability to use (e.g. play one) and the ability must then call
        `shuffle_deck`. Returns the chosen cards; with no deck and no discard pile, nothing."""
        g = self.game
        seat = self._seat(seat)
        if not g.refill_deck(seat):
            return []
        g.log(f"{g.pname(seat)} searches their deck ({self.name(self.card)}).")
        deck = sorted(g.players[seat].deck, key=lambda c: (g.name(c), c))  # not the deck order
        candidates = [c for c in deck if where is None or where(c)]
        chosen = yield from self.choose_cards(candidates, prompt, min_count, max_count, seat=seat,
                                              reveal=deck)
        if chosen:
            g.log(f"{g.pname(seat)} reveals {', '.join(self.name(c) for c in chosen)}.")
        for c in chosen:
            if to == "hand":
                self.place_in_hand(c, revealed=True)
            elif to == "discard":
                self._discard_card(c)
        if to is not None:
            self.shuffle_deck(seat)
        return chosen

    def shuffle_deck(self, seat: int | None = None) -> None:
        g = self.game
        seat = self._seat(seat)
        g.rng.shuffle(g.players[seat].deck)
        g.log(f"{g.pname(seat)} shuffles their deck.")

    def place_in_hand(self, cid: int, revealed: bool = False) -> bool:
        """Place a card from a deck or a discard pile into its owner's hand: a "place" (WWWT
        "Place": e.g. from the discard pile to your hand), announced as `placed`. A card from a
        deck is named only to its owner unless it was `revealed` (found by a search, shown by
        `reveal_top`)."""
        g = self.game
        src = g.loc[cid][0]
        if src not in ("deck", "discard"):
            return False
        owner = g.owner[cid]
        g.move_card(cid, ("hand", owner))
        if src == "discard" or revealed:
            where = "discard pile" if src == "discard" else "deck"
            g.log(f"{self.name(cid)} goes from {g.pname(owner)}'s {where} into their hand "
                  f"({self.name(self.card)}).")
        else:
            g.log(f"{g.pname(owner)} puts a card from their deck into their hand "
                  f"({self.name(self.card)}).")
            g.log(f"You put {self.name(cid)} into your hand.", to=(owner,))
        g.emit(Event("placed", card=cid, player=owner,
                     data={"to": "hand", "from": src, "by": self.card}))
        return True

    def put_on_deck(self, cards, bottom: bool = False) -> None:
        """Put cards that are not in play on their owners' decks: on top with `cards[0]` the top
        card, or under the deck with `cards[-1]` the bottom card. For cards looked at or revealed
        ("put them back in any order": pick the order with `choose_order`). A card that comes
        from a hand or a discard pile is placed (`placed`); one that never left its deck was only
        rearranged, which is no event (our reading: nothing relocated it)."""
        g = self.game
        order = list(cards) if bottom else list(reversed(cards))
        for c in order:
            src = g.loc[c][0]
            if src not in ("deck", "hand", "discard"):
                continue
            owner = g.owner[c]
            g.move_card(c, ("deck", owner), None if bottom else 0)
            if src != "deck":
                g.emit(Event("placed", card=c, player=owner,
                             data={"to": "deck_bottom" if bottom else "deck_top", "from": src,
                                   "by": self.card}))

    def _discard_card(self, cid: int) -> None:
        # A card that is not in play goes to its owner's discard pile (WWWT "Discard").
        g = self.game
        owner = g.owner[cid]
        g.move_card(cid, ("discard", owner))
        g.log(f"{self.name(cid)} goes to {g.pname(owner)}'s discard pile ({self.name(self.card)}).")
        g.emit(Event("discarded", card=cid, player=owner, data={"by": self.card}))

    def refill_base_deck(self) -> bool:
        """An empty base deck takes the shuffled base discard pile (it works like a player's
        deck, CR "Build the Base Deck"). True if the base deck holds a base."""
        return self.game.refill_base_deck()

    def search_base_deck(self, prompt: str, seat: int | None = None):
        """Search the base deck for any base (generator): the searcher sees every base in it;
        an empty base deck takes the base discard pile first. Returns the base card, or None when
        there is no base to find. The caller puts it somewhere, then shuffles the base deck."""
        g = self.game
        if not g.refill_base_deck():
            return None
        options = sorted(g.base_deck, key=g.name)
        chosen = yield from self.choose_cards(options, prompt, seat=seat, reveal=options)
        return chosen[0]

    def grant_extra(self, kind: str, seat: int | None = None, max_power=None, base=None):
        """An extra minion/action play. In the owner's Play Cards phase it is banked for the
        phase; at any other time it must be used at once or is lost (CR, "extra")."""
        g = self.game
        seat = self._seat(seat)
        grant = Grant(kind, max_power=max_power, base=base, source=self.name(self.card))
        if g.phase == "play" and g.turn_state.seat == seat and g._depth <= 1:
            g.turn_state.grants.append(grant)
            g.log(f"{g.pname(seat)} may play an extra {kind} ({self.name(self.card)}).")
            return None
        return (yield from self.play_extra_now(kind, seat=seat, max_power=max_power, base=base))

    def play_extra_now(self, kind=MINION, seat=None, max_power=None, base=None, optional=True,
                       cards=None):
        """Play an extra card immediately (generator): the player picks a card from hand that
        fits (and a base for a minion), or declines when `optional`."""
        g = self.game
        seat = self._seat(seat)
        pool = cards if cards is not None else g.players[seat].hand
        candidates = [
            c for c in pool
            if g.defs[c].kind == kind
            and (max_power is None or g.defs[c].power <= max_power)
            and not (kind == ACTION and g.defs[c].is_special_only)
            and not (kind == ACTION and g.defs[c].attach and not g.attach_hosts(seat, c))
        ]
        if not candidates or (base is not None and g.slot_or_none(base) is None):
            return False
        bases = [base] if base is not None else [s.uid for s in g.bases]
        options = []
        for c in candidates:
            if kind == MINION:
                for u in bases:
                    options.append(Option(f"m{c}@{u}", f"{g.name(c)} on {g.base_name(u)}",
                                          card=c, base=u))
            else:
                options.append(Option(f"a{c}", g.name(c), card=c))
        chosen = yield from g.ask(seat, "extra", f"Play an extra {kind} now?", options,
                                  0 if optional else 1, 1, source=self.card)
        if not chosen:
            return False
        opt = chosen[0]
        if kind == MINION:
            yield from g.play_minion(seat, opt.card, opt.base)
        else:
            yield from g.play_action(seat, opt.card)
            g.finish_action(opt.card)
        return True

    def play_minion(self, cid: int, base: int, seat: int | None = None):
        """Play a given minion on a given base (not counted against the free play)."""
        yield from self.game.play_minion(self._seat(seat), cid, base)

    def _leave_play(self, m: int) -> tuple[int, int]:
        """Take a minion out of play: its attached actions go to their owners' discard piles
        (WWWT "Return": attachments are discarded). Returns (base, controller) it had."""
        g = self.game
        uid = g.base_of(m)
        ctrl = g.minion_state[m].controller
        for a in list(g.minion_state[m].attached):
            g.move_card(a, ("discard", g.owner[a]))
            g.emit(Event("discarded", card=a, base=uid, player=g.owner[a]))
        return uid, ctrl

    def destroy(self, m: int):
        """Destroy a minion: it goes to its owner's discard pile. Returns True if it happened.

        A base may replace the destruction (Tar Pits); then it is not destroyed."""
        g = self.game
        if not g.is_minion_in_play(m):
            return False
        uid = g.base_of(m)
        slot = g.slot(uid)
        bdef = g.base_def(slot)
        if bdef.would_destroy is not None and g.base_active(slot):
            replaced = yield from bdef.would_destroy(Ctx(g, slot.card, g.current, base=uid), m)
            if replaced:
                return False
        uid, ctrl = self._leave_play(m)
        g.move_card(m, ("discard", g.owner[m]))
        g.log(f"{self.name(m)} is destroyed ({self.name(self.card)}).")
        g.emit(Event("destroyed", card=m, base=uid, player=ctrl, data={"by": self.card}))
        return True

    def destroy_action(self, a: int):
        """Destroy an action in play (attached to a base or a minion)."""
        g = self.game
        if not g.in_play(a):
            return False
        uid = g.base_of(a)
        ctrl = g.controller(a)
        g.move_card(a, ("discard", g.owner[a]))
        g.log(f"{self.name(a)} is destroyed ({self.name(self.card)}).")
        g.emit(Event("destroyed", card=a, base=uid, player=ctrl, data={"by": self.card}))
        return True
        yield

    def return_to_hand(self, m: int):
        """Return a minion to its owner's hand."""
        g = self.game
        if not g.is_minion_in_play(m):
            return False
        uid, ctrl = self._leave_play(m)
        g.move_card(m, ("hand", g.owner[m]))
        g.log(f"{self.name(m)} returns to {g.pname(g.owner[m])}'s hand ({self.name(self.card)}).")
        g.emit(Event("returned", card=m, base=uid, player=ctrl, data={"by": self.card}))
        return True
        yield

    def move(self, m: int, to_base: int):
        """Move a minion, with what is attached to it, to another base. Not a play."""
        g = self.game
        if not g.is_minion_in_play(m):
            return False
        src = g.base_of(m)
        if src == to_base:
            return False
        state = g.minion_state[m]
        g.slot(src).minions.remove(m)
        g.slot(to_base).minions.append(m)
        g.loc[m] = ("minion", to_base)
        g.minion_state[m] = state
        g.log(f"{self.name(m)} moves from {g.base_name(src)} to {g.base_name(to_base)} "
              f"({self.name(self.card)}).")
        g.emit(Event("moved", card=m, base=to_base, player=state.controller,
                     data={"from": src, "by": self.card}))
        return True
        yield

    def place_on_deck_bottom(self, m: int):
        """Place a minion on the bottom of its owner's deck (a "place", not a destroy)."""
        g = self.game
        if not g.is_minion_in_play(m):
            return False
        uid, ctrl = self._leave_play(m)
        g.move_card(m, ("deck", g.owner[m]))
        g.log(f"{self.name(m)} goes to the bottom of {g.pname(g.owner[m])}'s deck "
              f"({self.name(self.card)}).")
        g.emit(Event("placed", card=m, base=uid, player=ctrl, data={"to": "deck_bottom"}))
        return True
        yield

    def discard_from_hand(self, seat: int, cards) -> None:
        g = self.game
        for c in cards:
            g.move_card(c, ("discard", seat))
            g.emit(Event("discarded", card=c, player=seat))
        if cards:
            g.log(f"{g.pname(seat)} discards {', '.join(self.name(c) for c in cards)}.")

    def add_counters(self, m: int, count: int) -> None:
        """Add power counters from the pool (not a transfer, WWWT "Transfer")."""
        self.game.minion_state[m].counters += count

    def transfer(self, card: int, to: int, counters: int | None = None):
        """Transfer (WWWT "Transfer": relocate actions or power counters from one card to another;
        counters added from or removed to the pool are not transferred). Not a play, a move, a
        destroy or a discard: announced as its own event, `transferred`.

        - `counters` None: `card` is an attached action and goes onto `to`, a new host of the same
          kind: a minion (card id) for an action on a minion, a base (slot uid) for an action on
          a base (Ripped Off reads the same way). It keeps its controller. A minion that this
          ability may not affect (Smoke Bomb) cannot receive it ("has an action attached" is an
          affect, WWWT "Affect"). An action that cancels a base cancels the new one (`cancelled`).
        - `counters` n: up to n power counters go from minion `card` to minion `to` (both change
          power: both must be affectable). Only as many as `card` has.

        Returns True if something was transferred (generator, like `move`)."""
        g = self.game
        if counters is not None:
            if (counters <= 0 or card == to or not g.is_minion_in_play(card)
                    or not g.is_minion_in_play(to)
                    or not (self.can_affect(card) and self.can_affect(to))):
                return False
            moved = min(counters, g.minion_state[card].counters)
            if moved == 0:
                return False
            g.minion_state[card].counters -= moved
            g.minion_state[to].counters += moved
            g.log(f"{counted(moved, 'power counter')} go from {self.name(card)} to "
                  f"{self.name(to)} ({self.name(self.card)}).")
            g.emit(Event("transferred", card=to, base=g.base_of(to), player=g.controller(to),
                         data={"from": card, "counters": moved, "by": self.card}))
            return True
        state = g.action_state.get(card)
        if state is None or state.host == to:
            return False
        if state.host_kind == "minion":
            if not g.is_minion_in_play(to) or not self.can_affect(to):
                return False
            g.move_card(card, ("attached", to))
            where = self.name(to)
        else:
            if g.slot_or_none(to) is None:
                return False
            was_active = g.base_active(g.slot(to))
            g.move_card(card, ("base_action", to))
            where = g.base_name(to)
        source = state.host
        state.host = to
        g.log(f"{self.name(card)} is transferred to {where} ({self.name(self.card)}).")
        g.emit(Event("transferred", card=card, base=g.base_of(card), player=state.controller,
                     data={"from": source, "to": to, "by": self.card}))
        if state.host_kind == "base":
            g.note_cancel(to, was_active, card, state.controller)
        return True
        yield

    def power_until_end_of_turn(self, m: int, amount: int) -> None:
        self.game.lasting.append(Lasting("power", m, amount, self.me, ("turn_end",), self.card))

    def cancel_base_until_my_next_turn(self, uid: int) -> None:
        g = self.game
        was_active = g.base_active(g.slot(uid))
        g.lasting.append(Lasting("cancel_base", uid, 0, self.me, ("turn_start", self.me), self.card))
        g.note_cancel(uid, was_active, self.card, self.me)

    def reveal_hand_to(self, viewer: int, seat: int) -> None:
        g = self.game
        names = ", ".join(self.name(c) for c in g.players[seat].hand) or "no cards"
        g.log(f"{g.pname(viewer)} looks at {g.pname(seat)}'s hand.")
        g.log(f"{g.pname(seat)}'s hand: {names}.", to=(viewer, seat))

    def swap_base(self, uid: int, new_base: int) -> None:
        """Put `new_base` in the place of base `uid`; everything on it stays (Terraforming)."""
        g = self.game
        slot = g.slot(uid)
        old = slot.card
        g.move_card(new_base, ("base", uid))
        slot.card = new_base
        g.move_card(old, ("base_deck",))
        g.modifier_sources.pop(old, None)
        g.log(f"{g.name(new_base)} takes the place of {g.name(old)}.")

    def shuffle_base_deck(self) -> None:
        self.game.rng.shuffle(self.game.base_deck)
