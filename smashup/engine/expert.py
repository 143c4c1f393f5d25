"""The expert bot: information-set Monte Carlo tree search (ISMCTS) from one seat's view.

    result = search(game, seat, rng, budget)      # budget: anything with .stop(iteration)
    result.choice                                 # option ids answering game.pending
    expert_choice(game, seat, rng, budget)        # the same, as a bot (botregistry "expert")

**Never peeks.** The real game is read only for its open decision (the seat's own options, which
the seat sees) and through `Game.determinize(seat, rng)`: each iteration of the search plays on a
fresh game in which every card the seat cannot see (other hands, every deck's order, face-down
cards, the game's own random stream) is dealt again from the caller's `rng`, consistent with what
the seat has seen. So two games that look the same from the seat give the same answer for the same
`rng` (tests/engine/test_expert.py), and the hint (smashup/advice.py) is told nothing a player
could not know.

**The search** (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search", 2012,
the single-observer form): one tree whose nodes are information sets. An iteration

1. determinizes the game from the seat's view;
2. selects down the tree: at each decision (of any seat) the actions legal in this
   determinization are weighed by UCB1 with availability counts (an action's exploration term
   counts the visits in which it was legal, not the node's: other seats' options change from one
   determinization to the next), each seat maximizing its own reward; a node considers only its
   best `1 + widening * sqrt(visits)` actions by the heuristic bot's worth (`bots.option_values`:
   progressive widening, so a Play Cards decision of 40 plays spends its first iterations on the
   plays the heuristic bot likes, and the heuristic bot's favourite is tried first);
3. expands one action, then plays out with a cheap policy (the heuristic bot without its
   look-ahead, which would copy the game) for a round (`horizon_turns`: as many turns as there
   are players, so every other seat answers once), and stops there;
4. evaluates the position for every seat (`scores`: VP, plus the VP each base in play would give
   weighed by how near it is to its breakpoint, plus cards in hand; in Big Base the place by power
   on the board and the side bonuses, weighed by how near the period's scoring is) and turns the
   scores into rewards that share one win (a softmax with `temperature` in VP; a finished game
   gives its winners their share);
5. backs the rewards up: each action is credited with the reward of the seat that took it.

**Keys.** An action is keyed by what it does as the seat taking it sees it: an option about a card
in play keeps its id (a card in play is public and keeps its id in every determinization); one about
any other card names the card instead of its id ("m<Ninja Acolyte>@3"), so an opponent's play of a
card re-dealt to it under another id is the same action in every determinization, and two copies of
one card in a hand are one action. A node below an action is keyed by the next decision as its seat
sees it (seat, kind, the card that asks, how many to pick). Decisions with a single answer are
played without a node.

**Several options at once** (`max_count > 1`: discarding to the hand limit, "choose up to two"): the
tree picks them one at a time, each step a node whose actions are the options after the last one
picked (in the order of the options, so a set is reached one way only) and "done" once enough are
picked; the answer is sent when done. The playout answers such a question with its policy.

**Budget.** `budget.stop(i)` before every iteration: True ends the search (time or iteration cap);
it raises the caller's `Cancelled` when the decision was answered elsewhere, which this module lets
through after closing the determinized game it was playing, so nothing is left behind (the real
game is never changed: its digest and record are the same after a search, cancelled or not). A
decision with one legal answer is answered at once, without a search.
"""

from __future__ import annotations

import math
import random
import re
import time
from dataclasses import dataclass, field

from .bots import _vp_for, heuristic_choice, option_values, random_choice
from .determinize import NotDealt
from .turns import winners


@dataclass(frozen=True)
class Settings:
    """The search's constants, chosen by measurement with `manage.py bench_bots` (README "Bots")."""

    # UCB1's constant: rewards are shares of a win (0 to 1) that differ by a few hundredths.
    exploration: float = 0.02
    widening: float = 1.0  # a node weighs its best 1 + widening * sqrt(visits) actions
    # A playout stops once this many turns have begun after the root's (None: a round, as many
    # turns as players: every other seat answers once).
    horizon_turns: int | None = None
    playout: str = "heuristic"  # "heuristic" (without its look-ahead) or "random"
    temperature: float = 3.0  # VP: a lead of this much in the evaluation is e (2.7) times the odds
    hand_weight: float = 0.3  # the worth of a card in hand, in VP
    near_exponent: float = 2.0  # a base's VP count (total / breakpoint) ** this until it is ready
    seconds: float = 1.0  # the thinking time when the caller gives no budget


DEFAULT_SETTINGS = Settings()
DONE = "✓"  # the action that ends a choice of several options
NONE = "∅"  # the action that declines a choice of one (min_count 0)


# The calls that make the search's games (the engine's contract, issue 23). A scratch experiment
# may set others; the bot reads the real game only through these and its open decision.
def determinized(game, seat: int, rng: random.Random):
    # exact: never the determinize fallback, which may keep a few real hidden cards in place
    # (NotDealt instead: that iteration is not played).
    return game.determinize(seat, rng, exact=True)


# ---------------------------------------------------------------------------- the answer ----
@dataclass
class Line:
    """What the search learned about one answer at the root."""

    key: object
    ids: list[str]
    visits: int = 0
    reward: float = 0.0  # mean share of the win
    vp_gain: float = 0.0  # mean VP the seat gained before the playouts stopped
    score_gain: float = 0.0  # mean change of the seat's score (`scores`: VP and what the board promises)
    base: str | None = None  # the base where those VP came from most often


@dataclass
class SearchResult:
    choice: list[str]
    iterations: int = 0
    seconds: float = 0.0
    lines: list[Line] = field(default_factory=list)  # most visited first
    forced: bool = False  # one legal answer: no search

    @property
    def playouts_per_second(self) -> float:
        return self.iterations / self.seconds if self.seconds > 0 else 0.0

    @property
    def best(self) -> Line | None:
        return self.lines[0] if self.lines else None


class _Budget:
    """A budget of `seconds` with no cancel check (when the caller gives none)."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.started = time.monotonic()

    def stop(self, iteration: int) -> bool:
        return iteration > 0 and time.monotonic() - self.started >= self.seconds


def expert_choice(game, seat: int, rng: random.Random, budget=None, settings: Settings | None = None):
    """The expert bot's answer to `game.pending` (`seat`'s decision): option ids."""
    return search(game, seat, rng, budget, settings).choice


# ---------------------------------------------------------------------------- actions -------
_CARD_ID = re.compile(r"^([a-z]+)(\d+)(.*)$")


def _option_key(game, option):
    """An option as the seat choosing it sees it, the same in every determinization."""
    card = option.card
    if card is None or card in game.minion_state or card in game.action_state:
        return option.id
    match = _CARD_ID.match(option.id)
    name = game.defs[card].name
    if match is None or int(match.group(2)) != card:
        return (option.id, name)
    return (match.group(1), name, match.group(3))


def _single_actions(game, decision) -> list[tuple[object, list[str]]]:
    """The answers of a choice of one option: (key, ids), alike options and same keys once."""
    actions, seen = [], set()
    for option in decision.options:
        if option.alike is not None:
            continue
        key = _option_key(game, option)
        if key in seen:
            continue
        seen.add(key)
        actions.append((key, [option.id]))
    if decision.min_count == 0:
        actions.append((NONE, []))
    return actions


def _step_actions(game, decision, picked: list) -> list[tuple[object, tuple | None]]:
    """One step of a choice of several options: (key, (index, option id, key)) of each option
    after the last picked (in the options' order; a copy of a card is keyed as its nth copy) that
    still leaves enough to pick, and (DONE, None) once enough are picked."""
    options = [o for o in decision.options if o.alike is None]
    keys, counts = [], {}
    for option in options:
        base = _option_key(game, option)
        counts[base] = counts.get(base, 0) + 1
        keys.append((base, counts[base]))
    after = picked[-1][0] + 1 if picked else 0
    room = len(options) - max(0, decision.min_count - len(picked) - 1)
    steps = [(keys[i], (i, options[i].id, keys[i])) for i in range(after, min(room, len(options)))]
    if len(picked) >= decision.min_count:
        steps.append((DONE, None))
    return steps


def _one_answer(game, decision) -> list[str] | None:
    """The decision's only legal answer, if it has only one."""
    options = [o for o in decision.options if o.alike is None]
    if decision.max_count > 1:
        if decision.min_count >= len(options):
            return [o.id for o in options]
        return None
    actions = _single_actions(game, decision)
    return actions[0][1] if len(actions) == 1 else None


def _signature(game, decision, picked=()):
    """A node's key below an action: the next decision as its seat sees it."""
    source = decision.source
    name = game.defs[source].name if source is not None else None
    return (
        decision.seat,
        decision.kind,
        name,
        decision.min_count,
        decision.max_count,
        tuple(step[2] for step in picked),
    )


# ---------------------------------------------------------------------------- the tree ------
class _Edge:
    __slots__ = ("visits", "available", "total", "below")

    def __init__(self):
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.below: dict = {}


class _Node:
    __slots__ = ("visits", "edges", "worth")

    def __init__(self):
        self.visits = 0
        self.edges: dict = {}
        # The searching seat's own decisions: each action's worth by the heuristic bot, kept (its
        # options and their worth read only what that seat sees, the same in every determinization).
        self.worth: dict | None = None


@dataclass
class _RootStats:
    vp: float = 0.0
    score: float = 0.0
    bases: dict = field(default_factory=dict)


# ---------------------------------------------------------------------------- evaluation ----
def scores(game, settings: Settings = DEFAULT_SETTINGS) -> list[float]:
    """Each seat's worth of the position in VP: its VP, plus what the board would give it (each
    base by its VP table for the seat's place there, weighed by (total / breakpoint) **
    `near_exponent` until the base is ready; Big Base: the board's table for the seat's place by
    power and the side bonuses, weighed by how far the period has gone), plus `hand_weight` per card
    in hand."""
    players = game.players
    hand_weight, exponent = settings.hand_weight, settings.near_exponent
    values = [float(p.vp) + hand_weight * len(p.hand) for p in players]
    if getattr(game, "board", None) is not None and hasattr(game, "vp_table"):
        _board_scores(game, values)
        return values
    for slot in game.bases:
        uid = slot.uid
        total = game.total_power(slot)
        if total <= 0:
            continue
        breakpoint = max(game.breakpoint(slot), 1)
        near = 1.0 if total >= breakpoint else (total / breakpoint) ** exponent
        powers = {p.seat: game.player_power(uid, p.seat) for p in players}
        for p in players:
            if powers[p.seat] > 0:
                values[p.seat] += near * _vp_for(game, uid, p.seat, powers)
    return values


def _board_scores(game, values: list[float]) -> None:
    """Big Base: the period's VP by total power on the board and the side bonuses, were the board
    to score now, weighed by the share of the period's rounds begun."""
    board = game.board
    weight = min(1.0, game.round / max(1, board.rounds_per_period))
    table = game.vp_table()
    seats = range(len(game.players))
    totals = {s: 0 for s in seats}
    for slot in game.bases:
        side = {s: 0 for s in seats}
        for m in slot.minions:
            controller = game.minion_state[m].controller
            side[controller] += game.power(m)
        for s in seats:
            totals[s] += side[s]
        top = max(side.values())
        if top > 0 and board.side_bonus_vp:
            for s in seats:
                if side[s] == top:
                    values[s] += weight * board.side_bonus_vp
    for s in seats:
        if totals[s] > 0:
            place = sum(1 for p in totals.values() if p > totals[s])
            if place < len(table):
                values[s] += weight * table[place]


def rewards(game, settings: Settings = DEFAULT_SETTINGS) -> list[float]:
    """Each seat's share of one win: a finished game's winners share it; otherwise a softmax of
    the scores over `temperature` VP."""
    n = len(game.players)
    if game.pending is None:
        won = winners(game)
        return [1.0 / len(won) if s in won else 0.0 for s in range(n)]
    values = scores(game, settings)
    top = max(values)
    temperature = settings.temperature
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


# ---------------------------------------------------------------------------- the search ----
class _Search:
    def __init__(self, game, seat: int, rng: random.Random, settings: Settings):
        self.seat = seat
        self.rng = rng
        self.settings = settings
        self.root = _Node()
        self.root_stats: dict = {}
        self.decision = game.pending
        self.root_turn = game.turn
        self.undealt = 0  # iterations with no deal consistent with the seat's view
        self.horizon = settings.horizon_turns or len(game.players)
        self.policy = random_choice if settings.playout == "random" else heuristic_choice

    # One iteration: determinize, select and expand, play out, back up.
    def iterate(self, game) -> None:
        det = determinized(game, self.seat, self.rng)
        det._bot_lookahead = True  # the heuristic bot copies no game inside the search
        try:
            path, first = self._descend(det)
            self._play_out(det)
            reward = rewards(det, self.settings)
            for edge, seat in path:
                edge.visits += 1
                edge.total += reward[seat]
            if first is not None:
                stats = self.root_stats.setdefault(first, _RootStats())
                stats.vp += det.players[self.seat].vp - self._root_vp
                stats.score += scores(det, self.settings)[self.seat] - self._root_score
                base = self._vp_base(det)
                if base is not None:
                    stats.bases[base] = stats.bases.get(base, 0) + 1
        finally:
            det.close()

    def _descend(self, det):
        """Selection and expansion in `det`. Returns the edges taken with their seats, and the
        root action's key."""
        self._root_vp = det.players[self.seat].vp
        self._root_score = scores(det, self.settings)[self.seat]
        self._scorings = len(det.base_scorings)
        node, path, first, picked = self.root, [], None, []
        settings = self.settings
        while True:
            d = det.pending
            if d is None or det.turn >= self.root_turn + self.horizon:
                return path, first
            if d.max_count > 1:
                actions = _step_actions(det, d, picked)
            else:
                actions = _single_actions(det, d)
            node.visits += 1
            ranked = self._ranked(node, det, d, actions)
            limit = 1 + int(settings.widening * math.sqrt(node.visits - 1))
            chosen, expanded = None, False
            edges = node.edges
            best_score = None
            log_visits = {}
            for key, what in ranked[:limit]:
                edge = edges.get(key)
                if edge is None:
                    edge = edges[key] = _Edge()
                edge.available += 1
                if edge.visits == 0:
                    if chosen is None or not expanded:
                        chosen, expanded = (key, what, edge), True
                    continue
                if expanded:
                    continue
                avail = log_visits.get(edge.available)
                if avail is None:
                    avail = log_visits[edge.available] = math.log(edge.available)
                score = edge.total / edge.visits + settings.exploration * math.sqrt(avail / edge.visits)
                if best_score is None or score > best_score:
                    best_score, chosen = score, (key, what, edge)
            key, what, edge = chosen
            path.append((edge, d.seat))
            if node is self.root:
                first = key
            if d.max_count > 1:
                if what is not None:
                    picked.append(what)
                done = what is None or len(picked) == d.max_count
                if not done:
                    if expanded:
                        self._answer(det, d, picked)
                        return path, first
                    node = edge.below.setdefault(_signature(det, d, picked), _Node())
                    continue
                ids = [step[1] for step in picked]
                picked = []
            else:
                ids = what
            det.apply(d.seat, d.id, ids)
            self._forced(det)
            if expanded or det.pending is None:
                return path, first
            node = edge.below.setdefault(_signature(det, det.pending), _Node())

    def _ranked(self, node, det, d, actions) -> list:
        """The actions, the heuristic bot's favourite first (equals in the options' order)."""
        if len(actions) <= 1:
            return actions
        worth = node.worth
        if worth is None or any(key not in worth for key, _ in actions):
            values = option_values(det)
            worth = {key: _worth(values, what) for key, what in actions}
            if d.seat == self.seat:
                node.worth = worth if node.worth is None else {**node.worth, **worth}
        return sorted(actions, key=lambda action: -worth[action[0]])

    def _answer(self, det, d, picked) -> None:
        """Answer a choice of several options begun in the tree: the options picked, then as many
        more of the policy's answer as it needs."""
        ids = [step[1] for step in picked]
        if len(ids) < d.min_count:
            for oid in self.policy(det, self.rng):
                if oid not in ids and len(ids) < d.min_count:
                    ids.append(oid)
            for option in d.options:
                if len(ids) >= d.min_count:
                    break
                if option.alike is None and option.id not in ids:
                    ids.append(option.id)
        det.apply(d.seat, d.id, ids)

    def _forced(self, det) -> None:
        """Play every decision that has one answer (no node for them)."""
        while det.pending is not None and det.turn < self.root_turn + self.horizon:
            d = det.pending
            only = _one_answer(det, d)
            if only is None:
                return
            det.apply(d.seat, d.id, only)

    def _play_out(self, det) -> None:
        stop = self.root_turn + self.horizon
        policy, rng = self.policy, self.rng
        while det.pending is not None and det.turn < stop:
            d = det.pending
            det.apply(d.seat, d.id, policy(det, rng))

    def _vp_base(self, det) -> str | None:
        """The base (its name) that gave the seat the most VP in this playout, if any."""
        best, best_vp = None, 0
        for scoring in det.base_scorings[self._scorings :]:
            vp = scoring["awards"].get(str(self.seat), 0)
            if vp > best_vp:
                best, best_vp = det.defs[scoring["base"]].name, vp
        return best

    # The answer: the most visited path of the root's decision.
    def answer(self, game) -> list[str]:
        d = self.decision
        node, picked = self.root, []
        while node is not None:
            edges = [(key, e) for key, e in node.edges.items() if e.visits > 0]
            if not edges:
                break
            key, edge = max(edges, key=lambda item: (item[1].visits, item[1].total / item[1].visits))
            if d.max_count <= 1:
                return _ids_for(game, d, key)
            if key == DONE:
                return [step[1] for step in picked]
            picked.append(next(step for k, step in _step_actions(game, d, picked) if k == key))
            if len(picked) == d.max_count:
                return [step[1] for step in picked]
            node = edge.below.get(_signature(game, d, picked))
        # No iteration went this far: the heuristic bot's answer (from a determinization, as every
        # reading of the game), completing what the tree picked.
        return self._heuristic_answer(game, [step[1] for step in picked])

    def _heuristic_answer(self, game, ids: list[str]) -> list[str]:
        d = self.decision
        try:
            det = determinized(game, self.seat, self.rng)
        except NotDealt:  # nothing to read the heuristic's answer from: a random legal one
            wanted = random_choice(game, self.rng)
        else:
            det._bot_lookahead = True
            try:
                wanted = _translate(det, game, heuristic_choice(det, self.rng))
            finally:
                det.close()
        if d.max_count <= 1 and not ids:
            return wanted
        for oid in wanted:
            if oid not in ids and len(ids) < d.max_count:
                ids.append(oid)
        for option in d.options:
            if len(ids) >= d.min_count:
                break
            if option.alike is None and option.id not in ids:
                ids.append(option.id)
        return ids

    def lines(self, game) -> list[Line]:
        d = self.decision
        out = []
        for key, edge in self.root.edges.items():
            if edge.visits == 0:
                continue
            stats = self.root_stats.get(key, _RootStats())
            base = max(stats.bases, key=stats.bases.get) if stats.bases else None
            if d.max_count > 1:
                ids = [] if key == DONE else _ids_of_steps(game, d, [key])
            else:
                ids = _ids_for(game, d, key)
            n = edge.visits
            out.append(Line(key, ids, n, edge.total / n, stats.vp / n, stats.score / n, base))
        out.sort(key=lambda line: (-line.visits, -line.reward))
        return out


def _ids_for(game, decision, key) -> list[str]:
    for action_key, ids in _single_actions(game, decision):
        if action_key == key:
            return ids
    raise KeyError(key)


def _ids_of_steps(game, decision, keys) -> list[str]:
    options = [o for o in decision.options if o.alike is None]
    counts, ids, wanted = {}, [], set(keys)
    for option in options:
        base = _option_key(game, option)
        counts[base] = counts.get(base, 0) + 1
        if (base, counts[base]) in wanted:
            ids.append(option.id)
    return ids


def _worth(values: dict, what) -> float:
    if not what:
        return 0.0  # done, or decline: worth what ending costs the heuristic bot
    oid = what[1] if type(what) is tuple else what[0]
    return values.get(oid, 0.0)


def _translate(det, game, ids: list[str]) -> list[str]:
    """Option ids of `det`'s open decision as the ids of the same options in `game`'s (the seat's
    own decision: its options are keyed alike in both)."""
    d_det, d = det.pending, game.pending
    if d.max_count <= 1:
        if not ids:
            return []
        option = d_det.option(ids[0])
        if option.alike is not None:
            option = d_det.option(option.alike)
        return _ids_for(game, d, _option_key(det, option))
    keys, counts = {}, {}
    for option in d_det.options:
        if option.alike is None:
            base = _option_key(det, option)
            counts[base] = counts.get(base, 0) + 1
            keys[option.id] = (base, counts[base])
    return _ids_of_steps(game, d, [keys[oid] for oid in ids if oid in keys])


def search(
    game, seat: int, rng: random.Random, budget=None, settings: Settings | None = None
) -> SearchResult:
    """Search `seat`'s open decision of `game` within `budget` (see the module's docstring)."""
    settings = settings or DEFAULT_SETTINGS
    decision = game.pending
    if decision is None or decision.seat != seat:
        raise ValueError("the open decision is not this seat's")
    started = time.monotonic()
    only = _one_answer(game, decision)
    if only is not None:
        return SearchResult(list(only), forced=True)
    budget = budget if budget is not None else _Budget(settings.seconds)
    state = _Search(game, seat, rng, settings)
    iteration = 0
    while not budget.stop(iteration):
        try:
            state.iterate(game)
        except NotDealt:  # rare, away from a quiet point: no deal fits the seat's view this time
            state.undealt += 1
        iteration += 1
    choice = state.answer(game)
    return SearchResult(
        choice, iterations=iteration, seconds=time.monotonic() - started, lines=state.lines(game)
    )
