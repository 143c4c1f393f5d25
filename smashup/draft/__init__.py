"""The Kickin' It Queensberry faction draft as a pure state machine.

Rulebook (What Were We Thinking?, and the community rules page): put at least 2 factions per player in
the middle; randomly determine who chooses first; one choice each clockwise; when everyone has one,
the last player chooses a second and the choice continues in reverse order. With several copies of a
set two players may take the same faction if there are enough copies, but nobody takes the same
faction twice.

A draft of the players of one table (`one_table`: every draft the app runs, at a live table or a
tournament table) hands each faction out once whatever the copies: the app plays each faction once
per game (issue 9), so two players at one table never hold the same one. Copies then let several
tables of an event draft the same faction.

The state is a frozen dataclass of plain values (`to_dict` / `from_dict` round-trip through JSON);
every transition returns a new state, so a refused choice changes nothing. A per-table draft and a
per-event draft (everybody keeps two factions for the whole event) are the same draft over a
different list of players.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace

SETS = {
    "core": "Smash Up (Core Set)",
    "wwwt": "What Were We Thinking?",
    "iyf": "It's Your Fault!",
}

# The 17 factions of the three boxes, with the set they come in (names as in shared/cards/*.yaml).
FACTIONS = {
    "Aliens": "core",
    "Dinosaurs": "core",
    "Ninjas": "core",
    "Pirates": "core",
    "Robots": "core",
    "Tricksters": "core",
    "Wizards": "core",
    "Zombies": "core",
    "Explorers": "wwwt",
    "Grannies": "wwwt",
    "Rock Stars": "wwwt",
    "Teddy Bears": "wwwt",
    "Dragons": "iyf",
    "Mythic Greeks": "iyf",
    "Sharks": "iyf",
    "Superheroes": "iyf",
    "Tornados": "iyf",
}

BAN, PICK = "ban", "pick"
FACTIONS_EACH = 2


class DraftError(ValueError):
    """A choice or a setup the rules do not allow; the state is unchanged."""


@dataclass(frozen=True)
class Choice:
    player: Hashable
    faction: str
    auto: bool = False  # taken by the pick timer, not by the player


@dataclass(frozen=True)
class DraftState:
    players: tuple  # clockwise seat order
    pool: tuple[tuple[str, int], ...]  # (faction, copies), in display order
    seed: str | int
    first: Hashable  # who chooses first (recorded so the draft can be checked)
    first_by: str  # "random" (seeded) or "given" (e.g. the top seed of a cut)
    min_per_player: int = 2
    bans_per_player: int = 0
    bans: tuple[Choice, ...] = ()
    picks: tuple[Choice, ...] = field(default=())
    one_table: bool = False  # the players sit at one table: each faction is taken once

    def usable(self, copies: int) -> int:
        """How many players of this draft can take a faction with `copies` copies."""
        return min(copies, 1 if self.one_table else len(self.players))

    def to_dict(self) -> dict:
        return {
            "players": list(self.players),
            "pool": [[f, c] for f, c in self.pool],
            "seed": self.seed,
            "first": self.first,
            "first_by": self.first_by,
            "min_per_player": self.min_per_player,
            "bans_per_player": self.bans_per_player,
            "bans": [[c.player, c.faction, c.auto] for c in self.bans],
            "picks": [[c.player, c.faction, c.auto] for c in self.picks],
            "one_table": self.one_table,
        }

    @classmethod
    def from_dict(cls, data: Mapping) -> DraftState:
        return cls(
            players=tuple(data["players"]),
            pool=tuple((f, int(c)) for f, c in data["pool"]),
            seed=data["seed"],
            first=data["first"],
            first_by=data["first_by"],
            min_per_player=data["min_per_player"],
            bans_per_player=data["bans_per_player"],
            bans=tuple(Choice(*c) for c in data["bans"]),
            picks=tuple(Choice(*c) for c in data["picks"]),
            one_table=bool(data.get("one_table", False)),  # drafts stored before it: False
        )


def new_draft(
    players: Sequence[Hashable],
    seed: str | int,
    pool: Sequence[str] | Mapping[str, int] | None = None,
    copies: int = 1,
    bans_per_player: int = 0,
    min_per_player: int = 2,
    first: Hashable | None = None,
    one_table: bool = False,
) -> DraftState:
    """Start a draft. `pool`: faction names (each with `copies`) or {faction: copies}; default all 17.

    `first`: who chooses first; None draws them at random from the seed (the rulebook's way).
    `one_table`: the players sit at one table, so each faction is taken at most once (copies
    beyond one do not count).
    """
    players = tuple(players)
    if not players or len(set(players)) != len(players):
        raise DraftError("a draft needs at least one player and no player twice")
    if pool is None:
        pool = list(FACTIONS)
    counts = dict(pool) if isinstance(pool, Mapping) else {f: copies for f in pool}
    if any(int(c) < 1 for c in counts.values()):
        raise DraftError("every faction in the pool needs at least one copy")
    if min_per_player < FACTIONS_EACH:
        raise DraftError(f"the pool rule needs at least {FACTIONS_EACH} factions per player")
    n = len(players)
    # Each ban removes every copy of one faction. Check the worst case now, so that no sequence of
    # bans can leave less than the minimum pool to pick from.
    per_faction = 1 if one_table else n
    usable = sorted((min(c, per_faction) for c in counts.values()), reverse=True)
    left = sum(usable[bans_per_player * n :]) if bans_per_player * n < len(usable) else 0
    if left < min_per_player * n:
        beyond = "one (each faction once per table)" if one_table else "one per player"
        raise DraftError(
            f"the pool is too small: {n} players need at least {min_per_player * n} usable factions "
            f"after {bans_per_player * n} bans (copies beyond {beyond} do not count)"
        )
    if first is None:
        first = random.Random(f"{seed}:draft:first").choice(players)
        first_by = "random"
    elif first in players:
        first_by = "given"
    else:
        raise DraftError(f"{first!r} is not in this draft")
    return DraftState(
        players=players,
        pool=tuple((f, int(c)) for f, c in counts.items()),
        seed=seed,
        first=first,
        first_by=first_by,
        min_per_player=min_per_player,
        bans_per_player=bans_per_player,
        one_table=one_table,
    )


def turn_order(state: DraftState) -> list[tuple[Hashable, str]]:
    """Every step of the draft: bans clockwise from the first player, then the snake of picks."""
    i = state.players.index(state.first)
    clockwise = list(state.players[i:] + state.players[:i])
    steps = [(p, BAN) for _ in range(state.bans_per_player) for p in clockwise]
    return steps + [(p, PICK) for p in clockwise + clockwise[::-1]]


def current_step(state: DraftState) -> tuple[Hashable, str] | None:
    """(player, "ban" or "pick") of the next choice, or None when the draft is over."""
    steps = turn_order(state)
    done = len(state.bans) + len(state.picks)
    return steps[done] if done < len(steps) else None


def current_picker(state: DraftState) -> Hashable | None:
    step = current_step(state)
    return step[0] if step else None


def is_done(state: DraftState) -> bool:
    return current_step(state) is None


def factions_of(state: DraftState, player: Hashable) -> list[str]:
    return [c.faction for c in state.picks if c.player == player]


def result(state: DraftState) -> dict[Hashable, list[str]]:
    """Each player's factions (complete once `is_done`)."""
    return {p: factions_of(state, p) for p in state.players}


def base_sets(factions: Sequence[str]) -> list[str]:
    """The sets whose bases make the base deck (one copy of each set, as the rules say)."""
    return sorted({FACTIONS[f] for f in factions if f in FACTIONS})


def legal_picks(state: DraftState) -> list[str]:
    """The factions the current player may choose now (a ban or a pick), in pool order."""
    step = current_step(state)
    if step is None:
        return []
    player, kind = step
    return [f for f, _ in state.pool if _refusal(state, player, kind, f) is None]


def apply_ban(state: DraftState, player: Hashable, faction: str) -> DraftState:
    return _apply(state, player, faction, BAN, auto=False)


def apply_pick(state: DraftState, player: Hashable, faction: str) -> DraftState:
    """The state after `player` takes `faction`; DraftError (and nothing changes) if not allowed."""
    return _apply(state, player, faction, PICK, auto=False)


def default_choice(state: DraftState) -> str:
    """What the timer chooses when the current player runs out of time: a seeded random legal faction."""
    legal = legal_picks(state)
    if not legal:
        raise DraftError("the draft is over")
    done = len(state.bans) + len(state.picks)
    return random.Random(f"{state.seed}:draft:timer:{done}").choice(legal)


def apply_timeout(state: DraftState) -> DraftState:
    """The pick timer ran out: take the default choice for the current player, marked as automatic."""
    player, kind = current_step(state) or (None, None)
    if player is None:
        raise DraftError("the draft is over")
    return _apply(state, player, default_choice(state), kind, auto=True)


def _apply(state: DraftState, player: Hashable, faction: str, kind: str, auto: bool) -> DraftState:
    step = current_step(state)
    if step is None:
        raise DraftError("the draft is over")
    if player not in state.players:
        raise DraftError(f"{player!r} is not in this draft")
    if step[1] != kind:
        raise DraftError(f"the draft is at a {step[1]}, not a {kind}")
    if step[0] != player:
        raise DraftError(f"it is {step[0]!r}'s turn to {kind}, not {player!r}'s")
    refusal = _refusal(state, player, kind, faction)
    if refusal:
        raise DraftError(refusal)
    choice = Choice(player, faction, auto)
    if kind == BAN:
        return replace(state, bans=state.bans + (choice,))
    return replace(state, picks=state.picks + (choice,))


def _refusal(state: DraftState, player: Hashable, kind: str, faction: str) -> str | None:
    """Why `player` may not ban/pick `faction` now, or None if they may."""
    copies = dict(state.pool)
    if faction not in copies:
        return f"{faction!r} is not in the pool"
    banned = {c.faction for c in state.bans}
    if faction in banned:
        return f"{faction} was banned"
    held = {p: set(factions_of(state, p)) for p in state.players}
    left = {
        f: state.usable(c) - sum(1 for x in state.picks if x.faction == f)
        for f, c in copies.items()
        if f not in banned
    }
    if kind == BAN:
        del left[faction]
        n = len(state.players)
        if sum(left.values()) < state.min_per_player * n:
            return f"banning {faction} would leave less than {state.min_per_player} factions per player"
    else:
        if faction in held[player]:
            return f"{player!r} already has {faction}"
        if left[faction] < 1:
            if state.one_table:
                return f"{faction} is already at this table (each faction is in a game once)"
            return f"every copy of {faction} is taken"
        left[faction] -= 1
        held[player] = held[player] | {faction}
    if not _can_finish(held, left):
        return f"choosing {faction} would leave someone without a legal faction later"
    return None


def _can_finish(held: dict[Hashable, set], left: dict[str, int]) -> bool:
    """Can every player still get two different factions from the copies left?

    A max flow: players grouped by what they hold (everyone needing two is alike; everyone needing
    one is alike per faction held) -> factions (at most one copy per player) -> copies left. Grouping
    keeps the network at a few dozen nodes whatever the number of players.
    """
    groups: dict[frozenset, int] = {}
    for factions in held.values():
        if len(factions) < FACTIONS_EACH:
            key = frozenset(factions)
            groups[key] = groups.get(key, 0) + 1
    need = sum((FACTIONS_EACH - len(k)) * m for k, m in groups.items())
    if need == 0:
        return True
    names = [f for f, c in left.items() if c > 0]
    g_keys = list(groups)
    # Nodes: 0 source, 1..G groups, G+1..G+F factions, last sink.
    n_g, n_f = len(g_keys), len(names)
    sink = n_g + n_f + 1
    cap = [[0] * (sink + 1) for _ in range(sink + 1)]
    for i, key in enumerate(g_keys, 1):
        cap[0][i] = (FACTIONS_EACH - len(key)) * groups[key]
        for j, f in enumerate(names, n_g + 1):
            if f not in key:
                cap[i][j] = groups[key]
    for j, f in enumerate(names, n_g + 1):
        cap[j][sink] = left[f]
    return _max_flow(cap, 0, sink) >= need


def _max_flow(cap: list[list[int]], source: int, sink: int) -> int:
    """Edmonds-Karp on a small dense matrix (changes `cap` into the residual graph)."""
    flow = 0
    size = len(cap)
    while True:
        parent = [-1] * size
        parent[source] = source
        queue = [source]
        for u in queue:
            for v in range(size):
                if parent[v] < 0 and cap[u][v] > 0:
                    parent[v] = u
                    queue.append(v)
        if parent[sink] < 0:
            return flow
        push, v = float("inf"), sink
        while v != source:
            push = min(push, cap[parent[v]][v])
            v = parent[v]
        v = sink
        while v != source:
            cap[parent[v]][v] -= push
            cap[v][parent[v]] += push
            v = parent[v]
        flow += push
