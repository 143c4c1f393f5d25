"""Big Base mode as a variant of the shared engine (python-chess style: a subclass of `Game`).

The rules are `shared/rules/003_*` (DESIGN.md section 4). What changes, and where:

- **What a base is** (`deal_bases`, `_show_base`): the four sides of the board are the bases in
  play (`self.bases`, uids in board order North, East, South, West). Each side is a base card of
  its own whose definition is the current base card's under the side's name, so the current base
  card's ability works on each side separately and every card module runs unchanged. The base
  card itself lies on the board (zone `("board",)`); the top of the base deck is face up.
- **Slots** (`enter_base`, `holders`): a player's cards on a side are in one slot; a slot holds one
  player's cards. A card arriving on a side where its controller has no cards takes a free slot
  (the controller picks when there are several) and announces `occupied`; the slot's ability
  answers that (`batch_extras`; what each ability does: slots.py). Actions attached to minions
  never occupy a slot.
- **Rounds** (`_rounds`, `take_turn`, `_round_end`): turns have only Start and Play Cards; after
  every player's turn, the board scores on the last round of a period, everyone draws 2 (first
  player first) and discards to 10, end-of-turn effects happen once, "until end of turn" effects
  end, and the base card rotates.
- **Scoring** (`score_board`): the board scores as one scoring (`_score_as_one`): every side's
  own before/when/after-scoring ability (each side has it separately) ordered with the Specials of
  cards in play, one round of Specials from hand, a Special used on one side; VP go by total
  power on the whole board from the board's table, plus the side bonus; then every card in play
  is put away, except those an ability keeps on the board.
- **End** (`_final_result`): after the last period the most VP wins; a tie plays tie-break rounds
  (scored with the tie-break table, nothing discarded) until one player leads.

Rulings chosen where the rules are open are written next to the code ("Ruling:") and gathered in
bigbase/RULINGS.md.
"""
from __future__ import annotations

import dataclasses
from functools import partial

from smashup.engine.config import normalize_config
from smashup.engine.core import (
    EXACT_CORNERS,
    ConfigError,
    Event,
    Option,
    card_option_id,
)
from smashup.engine.game import Game
from smashup.engine.hooks import INDEXES
from smashup.engine.reactions import run_item, run_pending
from smashup.engine.registry import REGISTRY
from smashup.engine.scoring import Scoring, step_items
from smashup.engine.turn_state import TurnState
from smashup.engine.turns import TIE_PLAY_ON_ROUNDS

from .board import Board, board_from_dict, board_to_dict, default_board
from .slots import slot_extras

BOARD_ZONE = ("board",)
# Tie-break rounds played before a game that cannot break its tie ends with the tied leaders
# sharing the win (a guard: the rules repeat "until there is a winner", which a board where
# nobody can gain power would never reach).
TIEBREAK_LIMIT = 10
# Attributes that are caches, not state (the digest skips them): definitions derived from the
# current base card.
BIG_BASE_NOT_STATE = frozenset({"_side_defs"})


class BigBaseGame(Game):
    """One game of Smash Up in Big Base mode. Build it with `new_game` and a config whose "mode"
    is "bigbase" (its "board" is a board as plain data; default: the project's default board)."""

    def __init__(self, config, seed, registry=REGISTRY, rng_version=None, shared_factions=False):
        super().__init__(config, seed, registry, rng_version, shared_factions)
        self.board: Board = board_from_dict(self.config["board"])
        self.current_base: list[int] = []  # the base card on the board (a zone of one card)
        # side uid -> the seat whose cards are in each slot (None: empty). An entry whose seat
        # has no card left on that side is an empty slot (`slot_of`).
        self.holders: dict[int, list] = {}
        self.round = 1
        self.period = 1
        self.first_player = 0
        self.tiebreak_rounds = 0  # tie-break rounds begun after the last period
        # (side uid, slot, seat) whose first minion played this round got its counter (ongoing
        # "first_minion_counter").
        self.round_marks: list[tuple] = []
        self.scorings: list[dict] = []  # what each scoring of the board gave, for views and logs
        self._side_defs: dict = {}
        # Seats that drew cards since their last offer to swap useless cards ("after any time you
        # draw cards", the Big Base rules; resolution 3): offered once the ability that drew has
        # resolved (`resolve`) or before the next Play Cards phase. State only while it holds a
        # seat (`state_fields`), so records made before it keep their hashes.
        self.swap_due: list[int] = []

    # ------------------------------------------------------------------ config and setup ------
    def normalize(self, config, registry):
        if not isinstance(config, dict):
            raise ConfigError("config must be a mapping")
        if config.get("mode") != "bigbase":
            raise ConfigError("a Big Base game's config has mode 'bigbase'")
        if config.get("end_after_bases") is not None:
            raise ConfigError("a Big Base game ends after its scoring periods, not after a "
                              "number of bases")
        out = normalize_config({k: v for k, v in config.items() if k not in ("mode", "board")},
                               registry)
        out["mode"] = "bigbase"
        board = config.get("board")
        out["board"] = board_to_dict(board_from_dict(default_board() if board is None else board))
        return out

    def deal_bases(self, bases) -> None:
        """Setup (the Big Base rules): the base deck shuffled, its top card face up on the board,
        and the next one face up on the deck."""
        if len(bases) < 2:
            raise ConfigError(f"Big Base needs at least 2 bases; the chosen sets have {len(bases)}")
        for bdef in bases:
            self.new_card(bdef, None, ("base_deck",))
        self.rng.shuffle(self.base_deck)
        self.move_card(self.base_deck[0], BOARD_ZONE)
        self.make_sides()

    def make_sides(self) -> None:
        """The four sides as bases in play, each with the current base card's ability."""
        bdef = self.defs[self.current_base[0]]
        slots = 3 + (1 if len(self.players) == 4 else 0)  # the virtual 4th slot at 4 players
        for side in self.board.sides:
            card = self.new_card(self._side_def(side.name, bdef), None, BOARD_ZONE)
            slot = self.new_slot(card)
            self.holders[slot.uid] = [None] * slots

    def _side_def(self, side_name: str, bdef):
        # One definition per (side, base card), kept for the whole game: the indexes of cards in
        # play are keyed by definition.
        key = (side_name, bdef.name)
        found = self._side_defs.get(key)
        if found is None:
            found = self._side_defs[key] = dataclasses.replace(bdef, name=side_name)
        return found

    def _show_base(self, base_card: int) -> None:
        """Every side takes the ability of `base_card` (now on the board)."""
        bdef = self.defs[base_card]
        for slot in self.bases:
            cid = slot.card
            for name, _wanted, _bases_too in INDEXES:
                getattr(self, name).pop(cid, None)
            self.defs[cid] = self._side_def(self.defs[cid].name, bdef)
            self._place_in(cid, ("base", slot.uid), None)

    def container(self, zone):
        if zone[0] == "board":
            return self.current_base
        return super().container(zone)

    def other_zones(self):
        return [(BOARD_ZONE, self.current_base)]

    def public_deck_cards(self):
        # The next base card is face up on the base deck (setup and step 4 of a round).
        return {self.base_deck[0]} if self.base_deck else set()

    def state_fields(self):
        fields = super().state_fields()  # not in the comprehension: compiled, it has no super()
        due = bool(self.swap_due)
        return [f for f in fields if f not in BIG_BASE_NOT_STATE and (due or f != "swap_due")]

    @property
    def base_card(self) -> int:
        return self.current_base[0]

    @property
    def next_base(self) -> int | None:
        return self.base_deck[0] if self.base_deck else None

    def side_name(self, uid: int) -> str:
        return self.defs[self.slot(uid).card].name

    # ------------------------------------------------------------------ slots ------------------
    def has_cards(self, uid: int, seat: int) -> bool:
        """Whether `seat` has cards on side `uid`: minions it controls or actions it played on
        the side (an action on another player's minion is in that minion's slot)."""
        slot = self.slot(uid)
        return (any(self.minion_state[m].controller == seat for m in slot.minions)
                or any(self.action_state[a].controller == seat for a in slot.actions))

    def slot_of(self, uid: int, seat: int) -> int | None:
        """The slot `seat`'s cards are in on side `uid`, or None when it has no cards there."""
        holders = self.holders[uid]
        if seat in holders and self.has_cards(uid, seat):
            return holders.index(seat)
        return None

    def free_slots(self, uid: int) -> list[int]:
        return [i for i, seat in enumerate(self.holders[uid])
                if seat is None or not self.has_cards(uid, seat)]

    def slot_ability(self, uid: int, index: int):
        """The ability of slot `index` of side `uid` (None: the virtual 4th slot or a plain one)."""
        side = self.board.sides[self.bases.index(self.slot(uid))]
        return side.slots[index] if index < len(side.slots) else None

    def slot_label(self, uid: int, index: int) -> str:
        ability = self.slot_ability(uid, index)
        words = ability.words() if ability is not None else "no ability"
        return f"{self.side_name(uid)} slot {index + 1} ({words})"

    def enter_base(self, card: int, uid: int, seat: int):
        """A card of `seat` arrives on side `uid`: into its slot there, or, when it has no cards
        there, into a free slot it picks (the only free one without asking). Entering an empty
        slot announces `occupied` (the slot's "on occupation" ability answers it)."""
        if self.slot_of(uid, seat) is not None:
            return
        free = self.free_slots(uid)
        if len(free) == 1:
            index = free[0]
        else:
            options = [Option(f"o{i}", self.slot_label(uid, i), base=uid) for i in free]
            chosen = yield from self.ask(
                seat, "slot", f"{self.name(card)} goes to which slot of {self.side_name(uid)}?",
                options, source=card,
                # A card played from a deck (Hoverbot) was revealed: the chooser may see it.
                reveal=[card] if self.loc[card][0] == "deck" else None)
            index = int(chosen[0].id[1:])
        holders = self.holders[uid]
        for i, holder in enumerate(holders):
            if holder == seat:
                holders[i] = None
        holders[index] = seat
        self.log(f"{self.pname(seat)} takes {self.side_name(uid)} slot {index + 1}.")
        self.emit(Event("occupied", card=card, base=uid, player=seat, data={"slot": index}))

    def play_minion(self, seat, cid, uid, *args, **kwargs):
        # Its slot first: "a card played on the base is played on one of the slots". A card
        # played is shown as it is played (what each seat knows: smashup/engine/knowledge.py).
        if self.knowledge is not None:
            self.knowledge.shown(self, [cid], None)
        yield from self.enter_base(cid, uid, seat)
        yield from super().play_minion(seat, cid, uid, *args, **kwargs)

    def _purge_holders(self) -> None:
        for uid, holders in self.holders.items():
            for i, seat in enumerate(holders):
                if seat is not None and not self.has_cards(uid, seat):
                    holders[i] = None

    def mode_problems(self) -> list[str]:
        problems = []
        for slot in self.bases:
            holders = self.holders.get(slot.uid, [])
            for seat in range(len(self.players)):
                if self.has_cards(slot.uid, seat) and holders.count(seat) != 1:
                    problems.append(f"seat {seat} has cards on {self.side_name(slot.uid)} "
                                    f"but holds {holders.count(seat)} slots there")
        if len(self.current_base) != 1:
            problems.append(f"{len(self.current_base)} base cards on the board")
        return problems

    def batch_extras(self, batch):
        return slot_extras(self, batch)

    # ------------------------------------------------------------------ rounds -----------------
    def _main(self):
        self.first_player = self.current  # chosen at setup (config "first_player" or at random)
        yield from self._mulligans()
        yield from self._swap_offers()
        yield from self._rounds("start")

    def _flow_from_play_phase(self):
        # A copy made at a quiet point (smashup/engine/forks.py): the round goes on from the
        # current player's Play Cards phase.
        return self._rounds("play")

    # The board is immutable data (frozen dataclasses): a fork shares it (forks.copy_state).
    FORK_FIELDS = {"board": "shared"}

    def order_from_first(self) -> list[int]:
        n = len(self.players)
        return [(self.first_player + i) % n for i in range(n)]

    def _rounds(self, phase: str):
        """Rounds of turns from the current player's turn (in `phase`) on, until the game ends."""
        while True:
            order = self.order_from_first()
            for seat in order[order.index(self.current):]:
                self.current = seat
                yield from self.take_turn(phase)
                phase = "start"
            over = yield from self._round_end()
            if over:
                return
            self.current = self.first_player

    def take_turn(self, phase: str = "start"):
        """A Big Base turn: Start Turn and Play Cards only. Scoring, drawing and the end of turn
        happen at the end of the round (`_round_end`)."""
        seat = self.current
        if phase == "start":
            self.turn += 1
            self.turn_state = self.new_turn_state(seat)
            self.phase = "start"
            self._chain_counts.clear()
            self.log(f"Turn {self.turn} (round {self.round}{self._period_words()}): "
                     f"{self.pname(seat)}.")
            self._expire_at_turn_start(seat)
            yield from self._start_of_turn(seat)
        if self.swap_due:  # cards drawn at the start of the turn
            yield from self._offer_due_swaps()
        self.phase = "play"
        yield from self._play_phase(seat)
        self.turn_state.grants.clear()

    def _period_words(self) -> str:
        if self.tiebreak_rounds:
            return f", tie-break round {self.tiebreak_rounds}"
        return f" of period {self.period}"

    @property
    def last_round_of_period(self) -> bool:
        return (self.tiebreak_rounds > 0 or self.time_called
                or self.round >= self.board.rounds_per_period)

    def _nobodys_turn(self) -> None:
        # "During scoring, it is no player's turn. For timing resolution, treat the First Player
        # as the current player" (the Big Base rules); likewise for the draw and the end of round.
        self.current = self.first_player
        self.turn_state = TurnState(None)
        self._chain_counts.clear()

    def _round_end(self):
        """Steps 2 to 4 of a round. Returns True when the game is over."""
        last = self.last_round_of_period
        self._nobodys_turn()
        if last:
            self.phase = "score"
            over = yield from self.score_board()
            if over:
                return True
        self.phase = "draw"
        for seat in self.order_from_first():
            yield from self._draw_phase(seat)
        yield from self._swap_offers()
        # Step 4: "at the end of the turn" abilities, once, then "until end of turn" ends.
        # Ruling: one `turn_end` event for the round (player None, data "end_of_round"), so an
        # ability that happens at the end of each turn happens once a round.
        self.phase = "end"
        self._chain_counts.clear()
        yield from self.resolve(self._emit_gen(
            Event("turn_end", player=None, data={"end_of_round": True})))
        self._expire_round()
        self._rotate_base()
        self.round_marks.clear()
        if last:
            if self.tiebreak_rounds or self.period >= self.board.periods or self.time_called:
                self.tiebreak_rounds += 1
            else:
                self.period += 1
            self.round = 1
            self._pass_first_player()
        else:
            self.round += 1
        return False

    def _expire_round(self) -> None:
        # "Until end of turn" and "until the end of your turn" effects last until the end of the
        # round (the Big Base rules); those not begun yet (Mark of Sleep's next turn) stay.
        self.lasting = [e for e in self.lasting
                        if not (e.started and e.ends is not None and e.ends[0] == "turn_end")]
        self.changed()  # power reads lasting effects (Game.version)

    def _rotate_base(self) -> None:
        """Discard the base card, put the top of the base deck on the board and turn the next one
        face up (an empty base deck takes the shuffled base discard pile)."""
        old = self.base_card
        self.move_card(old, ("base_discard",))
        new = self.draw_base()
        self.move_card(new, BOARD_ZONE)
        self._show_base(new)
        self.refill_base_deck()
        nxt = f"; next: {self.name(self.next_base)}" if self.next_base is not None else ""
        self.log(f"{self.name(new)} replaces {self.name(old)} on the board{nxt}.")

    def swap_base(self, uid, new_base, old_to=("base_deck",)):
        """An ability that changes the base card changes it for every side (the Big Base rules):
        `new_base` (from the base deck or the base discard pile) goes on the board, the old base
        card to `old_to` (the base deck for a swap, the base discard pile for a base destroyed
        and replaced). The sides stay ("abilities that affect base cards don't affect sides or
        slots"); every side now has the new card's ability."""
        old = self.base_card
        self.move_card(new_base, BOARD_ZONE)
        self.move_card(old, old_to)
        self._show_base(new_base)
        self.log(f"{self.name(new_base)} takes the place of {self.name(old)} on the board.")
        return [s.uid for s in self.bases]

    def add_base(self, new_base):
        """"If it plays an extra base, it replaces the current base instead" (the Big Base
        rules; DESIGN.md section 4): the added base becomes the base card, the old one is
        discarded. The sides stay."""
        return self.swap_base(None, new_base, old_to=("base_discard",))

    def _pass_first_player(self) -> None:
        """Ruling (the board file): the new First Player has the lowest VP (cards in play were
        just discarded, so "lowest total power" is read as VP); a tie goes to the tied player who
        comes first clockwise after the current First Player."""
        n = len(self.players)
        after = [(self.first_player + i) % n for i in range(1, n + 1)]
        low = min(p.vp for p in self.players)
        self.first_player = next(s for s in after if self.players[s].vp == low)
        self.current = self.first_player
        self.log(f"{self.pname(self.first_player)} becomes the First Player.")

    # ------------------------------------------------------------------ useless cards ----------
    def no_effect(self, cid: int) -> bool:
        """Whether a card has no effect in Big Base mode (registry flag
        `no_effect_in_big_base`; cards with power never are)."""
        defn = self.defs[cid]
        reason = getattr(defn, "no_effect_in_big_base", None)
        if reason is None or defn.is_minion:
            return False
        if reason == "breakpoint":
            return not any(getattr(self.registry.faction(f), "cares_about_breakpoints", False)
                           for p in self.players for f in p.factions)
        return True

    def draw(self, seat: int, count: int) -> list[int]:
        """Draw cards; from resolution 3 the player is then offered the swap of useless cards
        ("after any time you draw cards", the Big Base rules): noted here, offered once the
        ability that drew has resolved (a question cannot interrupt a draw)."""
        drawn = super().draw(seat, count)
        if drawn and self.resolution >= EXACT_CORNERS and seat not in self.swap_due:
            self.swap_due.append(seat)
        return drawn

    def resolve(self, gen, after=None):
        result = yield from super().resolve(gen, after)
        if self.swap_due and self._depth == 0:
            yield from self._offer_due_swaps()
        return result

    def _offer_due_swaps(self):
        """The swap offers owed to the players who drew since theirs (`draw`), from the First
        Player on."""
        seats = [s for s in self.order_from_first() if s in self.swap_due]
        self.swap_due.clear()
        yield from self._swap_offers(seats)

    def _swap_offers(self, seats=None):
        """At the start and after each draw, from the First Player on, each player may show the
        cards in hand that do nothing in Big Base, discard them and draw as many. Ruling: one
        offer per occasion; a card drawn to replace one waits for the next occasion (its own
        draw is no new occasion). From resolution 3, also after any other time a player draws
        (`draw`, `_offer_due_swaps`)."""
        if seats is None:
            seats = self.order_from_first()
            self.swap_due.clear()  # the occasion for every player
        for seat in seats:
            offered = [c for c in self.players[seat].hand if self.no_effect(c)]
            while offered:
                options = []
                seen = set()
                for c in offered:
                    key = self.alike_key(c)
                    if key not in seen:
                        seen.add(key)
                        options.append(Option(card_option_id("c", c), f"Swap {self.name(c)}",
                                              card=c))
                chosen = yield from self.ask(
                    seat, "swap", "Show a card that does nothing in Big Base, discard it and draw "
                    "a new one?", options, 0, 1)
                if not chosen:
                    break
                cid = chosen[0].card
                offered.remove(cid)
                self.move_card(cid, ("discard", seat))
                self.log(f"{self.pname(seat)} shows {self.name(cid)}, which does nothing in Big "
                         "Base, discards it and draws a new card.")
                self.draw(seat, 1)
                if seat in self.swap_due:  # this draw is the swap's own: no new occasion
                    self.swap_due.remove(seat)
                yield from self.resolve(self._emit_gen(Event(
                    "discarded", card=cid, player=seat, data={"from": "hand", "swap": True},
                    by_player=seat)))

    # ------------------------------------------------------------------ scoring ----------------
    def vp_table(self) -> tuple:
        period = self.board.tiebreak_period if self.tiebreak_rounds else self.period
        return self.board.vp_table(period)

    def score_board(self):
        """The board scores (the Big Base rules), as one scoring (`_score_as_one`): the sides'
        before-scoring abilities and the Specials, then the VP by total power on the board from
        the period's table and the side bonus, then when- and after-scoring abilities and
        Specials. Then every card in play is put away, except those an ability keeps, unless
        the game ends or stays tied after the last period. Returns True when the game is over.
        A record of resolution 2 scores each side as a base, its windows side by side."""
        period = (f"tie-break round {self.tiebreak_rounds}" if self.tiebreak_rounds
                  else f"period {self.period}")
        # "The Big Base scores." where the VP are given (`award_board`), after the Specials
        # before scoring (issue 26, finding 10).
        self.log(f"The Big Base is about to score ({period}).")
        scorings = [Scoring(slot, slot.card) for slot in self.bases]
        self.scoring_stack.extend(scorings)
        try:
            if self.resolution >= EXACT_CORNERS:
                yield from self._score_as_one(scorings)
            else:
                # Resolution 2 (records made before issue 24): each side scored as a base, its
                # own Special windows side by side.
                for sc in scorings:
                    yield from self._scoring_step("before_scoring", sc,
                                                  self.base_def(sc.slot).before_scoring)
                    yield from self.special_window("before_scoring", sc)
                self.award_board(scorings)
                for sc in scorings:
                    yield from self._scoring_step("when_scoring", sc,
                                                  self.base_def(sc.slot).when_scoring)
                for sc in scorings:
                    yield from self._scoring_step("after_scoring", sc,
                                                  self.base_def(sc.slot).after_scoring)
                    yield from self.special_window("after_scoring", sc)
            final = (self.tiebreak_rounds > 0 or self.period >= self.board.periods
                     or self.time_called)
            if final:
                if self._final_result():
                    return True
                # "If there is a tie, continue playing, but do not discard the cards from the board."
                return False
            yield from self._clear_board(scorings)
        finally:
            del self.scoring_stack[-len(scorings):]
        return False

    def _score_as_one(self, scorings: list[Scoring]):
        """The board scores as one scoring (the Big Base rules: "the steps of scoring are as in
        normal Smash Up", the board being one base; "during play, each side is considered to
        have the ability of the current base card. It works separately for each side"): one
        step 3, where the First Player orders every side's own before-scoring ability and the
        reactions to it among the Specials of cards in play, then one round of Specials from
        hand (Me First!); the VP; one "when scoring" step for every side; one step 6 as step 3.
        A Special is used on one side, its player choosing among those where it can be ("if an
        ability affects a base or plays a card to a base, choose one side to be the target"):
        `special_window` with the list of the sides' Scorings."""
        yield from self.special_window("before_scoring", scorings,
                                       self._board_step("before_scoring", scorings))
        self.award_board(scorings)
        pending = self._board_step("when_scoring", scorings)
        if pending:
            yield from run_pending(self, pending)
        yield from self.special_window("after_scoring", scorings,
                                       self._board_step("after_scoring", scorings))

    def _board_step(self, kind: str, scorings: list[Scoring]) -> list:
        """What a scoring step sets off on the board, to be ordered together: the base card's
        ability for the step, one ability that works separately for each side (resolved side by
        side, North to West, each side's events resolving after it), and the reactions to the
        step on every side."""
        pending, sides = [], []
        for sc in scorings:
            label = f"{self.name(self.base_card)} ({self.side_name(sc.slot.uid)})"
            for item in step_items(self, kind, sc, getattr(self.base_def(sc.slot), kind), label):
                (sides if item[0] == "x" else pending).append(item)
        if len(sides) > 1:
            label = f"{self.name(self.base_card)} (on each side)"
            pending.append(("x", label, self.base_card, partial(self._each_side, sides)))
        else:
            pending += sides
        return pending

    def _each_side(self, sides: list):
        for item in sides:
            yield from run_item(self, item)

    def award_board(self, scorings: list[Scoring]) -> None:
        """VP for 1st to 4th by total power on the board (ties share the best place they tie for
        and skip the next, as in normal scoring; a player needs a minion or 1 power there), plus
        the side bonus on each side to the most power there (tied players each get it; nobody on
        a side without power). Each side's Scoring gets that side's powers and places, which is
        what "the winner" of a base means to its abilities (The Mothership, Factory 436-1337)."""
        period = (f"tie-break round {self.tiebreak_rounds}" if self.tiebreak_rounds
                  else f"period {self.period}")
        self.log(f"The Big Base scores ({period}).")
        table = self.vp_table()
        seats = range(len(self.players))
        totals = {}
        for seat in seats:
            mine = [m for m in self.all_minions() if self.minion_state[m].controller == seat]
            power = sum(self.power(m) for m in mine)
            if mine or power > 0:
                totals[seat] = power
        places = {s: 1 + sum(1 for p in totals.values() if p > power)
                  for s, power in totals.items()}
        awards = {s: table[place - 1] for s, place in places.items()
                  if place <= len(table) and table[place - 1]}
        bonus = {s: 0 for s in seats}
        for sc in scorings:
            uid = sc.slot.uid
            powers = {}
            for seat in seats:
                mine = [m for m in sc.slot.minions if self.minion_state[m].controller == seat]
                power = sum(self.power(m) for m in mine)
                if mine or power > 0:
                    powers[seat] = power
            sc.powers = powers
            sc.places = {s: 1 + sum(1 for p in powers.values() if p > power)
                         for s, power in powers.items()}
            top = max(powers.values(), default=0)
            if top > 0 and self.board.side_bonus_vp:
                for seat, power in powers.items():
                    if power == top:
                        sc.awards[seat] = self.board.side_bonus_vp
                        bonus[seat] += self.board.side_bonus_vp
                        self.log(f"{self.pname(seat)} has the most power on "
                                 f"{self.side_name(uid)}.")
        for seat in self.seats_from_current():
            gained = awards.get(seat, 0) + bonus[seat]
            if gained:
                self.players[seat].vp += gained
                parts = []
                if seat in awards:
                    parts.append(f"{_ORDINAL[places[seat]]} with {totals[seat]} power")
                if bonus[seat]:
                    parts.append(f"{bonus[seat]} for sides")
                self.log(f"{self.pname(seat)} gains {gained} VP ({', '.join(parts)}).")
        self.bases_scored += 1
        self.scorings.append({
            "period": self.period, "tiebreak_round": self.tiebreak_rounds,
            "powers": {str(s): p for s, p in totals.items()},
            "places": {str(s): p for s, p in places.items()},
            "vp": {str(s): awards.get(s, 0) for s in seats},
            "side_bonus": {str(s): bonus[s] for s in seats},
        })

    def _final_result(self) -> bool:
        """After the last period's scoring (or a tie-break round's): one leader wins. A tie plays
        on; past TIEBREAK_LIMIT tie-break rounds (TIE_PLAY_ON_ROUNDS when time was called), the
        tied leaders share the win."""
        top = max(p.vp for p in self.players)
        leaders = [p.seat for p in self.players if p.vp == top]
        if len(leaders) == 1:
            self.winner = leaders[0]
            self.phase = "over"
            self.log(f"{self.pname(self.winner)} wins with {top} VP.")
            return True
        limit = TIE_PLAY_ON_ROUNDS if self.time_called else TIEBREAK_LIMIT
        names = " and ".join(self.pname(s) for s in leaders)
        if self.tiebreak_rounds >= limit:
            self.shared_winners = leaders
            self.winner = None
            self.phase = "over"
            self.log(f"The tie was not broken: {names} share the win with {top} VP.")
            return True
        self.log(f"{names} are tied with {top} VP: another round is played, and nothing is "
                 "discarded from the board.")
        return False

    def _clear_board(self, scorings: list[Scoring]):
        """After scoring, every card in play goes to its owner's discard pile, except where an
        ability sends it ("instead": a hand, a deck's bottom) or moves it to another side, where
        it stays on the board (Ruling: "those allowed to remain or go elsewhere because of an
        ability", the Big Base rules; First Mate, The Grey Opal)."""
        instead, terms, sent_by = {}, {}, {}
        for sc in scorings:
            for m, dest in sc.instead.items():
                if m not in instead:
                    instead[m] = dest
                    terms[m] = sc.terms.get(m, "placed")
                    sent_by[m] = sc  # the side whose scoring sent it (its `done_by`)
        moves = [(sent_by[m], m, instead[m][1]) for sc in scorings for m in sc.slot.minions
                 if isinstance(instead.get(m), tuple) and instead[m][0] == "move"
                 and instead[m][1] != sc.slot.uid]
        staying = set()
        if moves:
            def move_all():
                for sc, m, uid in moves:
                    # By the ability that sent it, done by its player (First Mate's, or the
                    # base's by the player it names: issue 24); resolution 2: the base's.
                    if (yield from sc.mover(self, m).move(m, uid)):
                        staying.add(m)

            yield from self.resolve(move_all())
        while self._left_to_clear(staying):
            yield from self.resolve(self._put_away_board(scorings, instead, terms, staying,
                                                         sent_by))
        self._purge_holders()

    def _left_to_clear(self, staying) -> bool:
        return any(m not in staying for s in self.bases for m in s.minions) or any(
            s.actions for s in self.bases)

    def _put_away_board(self, scorings, instead, terms, staying, sent_by):
        events = []
        by_side = {sc.slot.uid: sc for sc in scorings}
        to_decks = yield from self.order_deck_placements(
            [(m, instead[m]) for s in self.bases for m in s.minions
             if m not in staying and instead.get(m) in ("deck_top", "deck_bottom")],
            self.base_card)

        def discard(card, uid, scored):
            owner = self.owner[card]
            ctrl = self.controller(card)
            self.move_card(card, ("discard", owner))
            events.append(Event("discarded", card=card, base=uid, player=owner,
                                data={"scored": scored, "from": "play", "controller": ctrl},
                                by_card=scored))

        for slot in self.bases:
            scored = by_side[slot.uid].base_card if slot.uid in by_side else slot.card
            for m in [m for m in slot.minions if m not in staying]:
                for a in list(self.minion_state[m].attached):
                    discard(a, slot.uid, scored)
                dest = instead.get(m, "discard")
                if dest in ("hand", "deck_top", "deck_bottom"):
                    ctrl = self.minion_state[m].controller
                    if dest == "hand":
                        self.put_instead(m, dest)
                    events.append(sent_by[m].step_7_event(
                        terms.get(m, "placed"), m, ctrl,
                        {"to": dest, "scored": scored, "from": "play"}, base=slot.uid,
                        scored=scored))
                else:
                    discard(m, slot.uid, scored)
            for a in list(slot.actions):
                discard(a, slot.uid, scored)
        for m in to_decks:
            self.put_instead(m, instead[m])
        for event in events:
            self.emit(event)

    # ------------------------------------------------------------------ views ------------------
    def public_view(self) -> dict:
        data = super().public_view()
        data["mode"] = "bigbase"
        sides = []
        for slot in self.bases:
            uid = slot.uid
            slots = []
            for i in range(len(self.holders[uid])):
                ability = self.slot_ability(uid, i)
                holder = self.holders[uid][i]
                slots.append({
                    "index": i,
                    "ability": ability.words() if ability is not None else None,
                    "holder": holder if holder is not None and self.has_cards(uid, holder)
                    else None,
                })
            sides.append({"uid": uid, "name": self.side_name(uid), "slots": slots})
        power = {str(p.seat): sum(self.power(m) for m in self.all_minions()
                                  if self.minion_state[m].controller == p.seat)
                 for p in self.players}
        current = self.card_view(self.base_card)
        current["text"] = self.defs[self.base_card].text
        upcoming = None
        if self.next_base is not None:
            upcoming = self.card_view(self.next_base)
            upcoming["text"] = self.defs[self.next_base].text
        data["big_base"] = {
            "board": {"id": self.board.id, "name": self.board.name},
            "current_base": current,
            "next_base": upcoming,
            "round": self.round,
            "rounds_per_period": self.board.rounds_per_period,
            "period": self.period,
            "periods": self.board.periods,
            "tiebreak_round": self.tiebreak_rounds,
            "first_player": self.first_player,
            "vp_table": list(self.vp_table()),
            "side_bonus_vp": self.board.side_bonus_vp,
            "power_by_seat": power,
            "sides": sides,
            "last_scoring": self.scorings[-1] if self.scorings else None,
        }
        return data


_ORDINAL = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
