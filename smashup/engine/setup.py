"""Building games: a new game from a config and a seed, a replay of a record, and the scenario
builder that puts a game in any position for tests and rulings checks."""
from __future__ import annotations

from . import forks, state
from .core import ACTION, MINION, ActionState, ConfigError, MinionState, PlayRecord, ReplayMismatch
from .digests import digest_version_of
from .game import Game
from .registry import REGISTRY, BaseDef, Registry
from .rng import LEGACY, version_for
from .state import PlayerState
from .turns import STARTING_HAND


def _registry(registry: Registry | None) -> Registry:
    if registry is None:
        import smashup.cards  # noqa: F401  (fills REGISTRY with every implemented card)

        return REGISTRY
    return registry


# What "every set" ("base_sets": "all") meant in a record made before new games wrote the sets out
# (`new_game`): the Core Set, the only one with bases then. A replay must deal the same base deck
# however many sets have bases now.
LEGACY_ALL_SETS = ("core",)

# The bases each set had when records began to name their bases (config "bases", `new_game`): an
# older record replays with these, so a base added to a set later does not change its base deck.
# A set not listed (It's Your Fault!, test registries' sets) had no bases then or never changes.
LEGACY_SET_BASES = {
    "core": ("The Homeworld", "The Mothership", "Ninja Dojo", "Temple of Goju", "Jungle Oasis",
             "Tar Pits", "The Grey Opal", "Tortuga", "Factory 436-1337", "The Central Brain",
             "Cave of Shinies", "Mushroom Kingdom", "School of Wizardry", "The Great Library",
             "Evans City Cemetery", "Rhodes Plaza Mall"),
    "wwwt": ("Ancient Temple", "City of Gold", "Grandma's House", "Lake Minnetonka", "Palooza",
             "Out in the Woods", "Under the Bed"),
}


def every_base_set(registry: Registry) -> list[str]:
    return sorted({b.set for b in registry.bases.values()})


def base_sets_for(config: dict, registry: Registry) -> list[str]:
    """The base deck comes from the sets of the chosen factions (CR, "Build the Base Deck"),
    one copy of each set even if a faction was chosen twice; or a given list of sets. "all" is
    only in records made before new games named the sets (LEGACY_ALL_SETS)."""
    chosen = config["base_sets"]
    if chosen == "all":
        return list(LEGACY_ALL_SETS)
    if isinstance(chosen, list):
        return list(chosen)
    sets = []
    for player in config["players"]:
        for f in player["factions"]:
            s = registry.faction(f).set
            if s not in sets:
                sets.append(s)
    return sets


def base_deck_for(config: dict, registry: Registry) -> list[BaseDef]:
    """The bases the base deck is made of, in the order they are shuffled from: the ones a record
    names (config "bases"), else those of its sets as they were before records named them
    (LEGACY_SET_BASES), else, for a new game, those of its sets now."""
    if config.get("bases"):
        return [registry.base(name) for name in config["bases"]]
    return [b for b in registry.bases_of_sets(base_sets_for(config, registry))
            if b.set not in LEGACY_SET_BASES or b.name in LEGACY_SET_BASES[b.set]]


def new_game(config: dict, seed: int | str, registry: Registry | None = None,
             track_hashes: bool = False, rng_version: int | None = None,
             resolution: int | None = None, replaying: bool = False,
             shared_factions: bool = False, start: bool = True) -> Game:
    """Set up a standard game (CR "Setup") and run it to its first decision.

    `seed`: a secret of 128+ bits in hex for the keyed generator (version 2, what live play uses),
    or an int for the old Mersenne Twister (version 1: old records, tests). `rng_version` says which
    when given; by default the seed's form does (see rng.py). A new game's "all" bases become the
    list of every set with bases now, in its config and so in its record: a later set of bases
    does not change how it replays (`replaying`: a record's config is kept as it was). A config
    giving two players the same faction is refused (ConfigError) unless `shared_factions` (a
    replay of an older record)."""
    registry = _registry(registry)
    game = game_class(config)(config, seed, registry, rng_version, shared_factions)
    if not replaying:
        if game.config["base_sets"] == "all":
            game.config = {**game.config, "base_sets": every_base_set(registry)}
        if not game.config.get("bases"):  # named, so that bases added to a set later don't change it
            bases = registry.bases_of_sets(base_sets_for(game.config, registry))
            # normalized again, so its keys are in the order a replay's config will have
            game.config = game.normalize({**game.config, "bases": [b.name for b in bases]},
                                         registry)
    game.track_hashes = track_hashes
    if resolution is not None:  # a replayed record's (Game.resolution); else the current one
        game.resolution = resolution
    for seat, pc in enumerate(game.config["players"]):
        player = PlayerState(seat, pc["name"], pc["factions"], pc["bot"])
        game.players.append(player)
        for faction in pc["factions"]:
            for defn in registry.faction(faction).deck():
                game.new_card(defn, seat, ("deck", seat))
        game.rng.shuffle(player.deck)
    game.deal_bases(base_deck_for(game.config, registry))
    for player in game.players:
        game.draw(player.seat, STARTING_HAND)
    first = game.config["first_player"]
    game.current = first if first is not None else game.rng.randrange(len(game.players))
    game.log(f"{game.pname(game.current)} goes first.")
    # Not started (`start` False): the state as set up, for a determinized game dealt there
    # (determinize.py), whose flow `Game.start` begins.
    return game.start() if start else game


# Modes of play other than standard, by config "mode": the module that defines each (imported when
# a game of that mode is built). A mode module has `GAME_CLASS` (a Game subclass) and
# `build_scenario(data, registry, resolution)`.
MODE_MODULES = {"bigbase": "bigbase.rules"}


def mode_module(mode: str):
    import importlib

    if mode not in MODE_MODULES:
        raise ConfigError(f"unknown mode {mode!r}")
    return importlib.import_module(MODE_MODULES[mode])


def game_class(config) -> type[Game]:
    """The Game class of a config's mode (python-chess style: a variant is a subclass)."""
    mode = config.get("mode", "standard") if isinstance(config, dict) else "standard"
    if mode == "standard":
        return Game
    return mode_module(mode).GAME_CLASS


def replay(record: dict, registry: Registry | None = None, verify: bool = True,
           knowledge: bool = False, start: bool = True) -> Game:
    """Rebuild a game from its record. With stored hashes, a drift raises ReplayMismatch at the
    first choice whose resulting state differs. A record without "rng" was played with version 1.
    `knowledge`: the game tracks what each seat knows from its setup (knowledge.py). `start`
    False (a record of no choice, not a scenario's): the game as set up, not started."""
    if knowledge:
        tracked, state.TRACK_KNOWLEDGE = state.TRACK_KNOWLEDGE, True
        try:
            return replay(record, registry, verify, start=start)
        finally:
            state.TRACK_KNOWLEDGE = tracked
    registry = _registry(registry)
    if not start:
        if record["choices"] or "scenario" in record:
            raise ConfigError("only a new game's record of no choice is rebuilt unstarted")
        return new_game(record["config"], record["seed"], registry,
                        rng_version=record.get("rng", LEGACY),
                        resolution=record.get("resolution", 1), replaying=True,
                        shared_factions=True, start=False)
    # A record without "resolution" was played one event at a time (Game.resolution).
    resolution = record.get("resolution", 1)
    if "scenario" in record:
        game = build_scenario(record["scenario"], registry, resolution=resolution, shared_factions=True)
    else:
        # A record replays as it was played: games set up before "each faction once per game"
        # (every live table once held Aliens and Ninjas on both sides) must still replay.
        game = new_game(record["config"], record["seed"], registry,
                        rng_version=record.get("rng", LEGACY), resolution=resolution,
                        replaying=True, shared_factions=True)
    hashes = record.get("hashes") if verify else None
    if record.get("hashes"):
        # A record keeps the digest it was made with (v1 for records made before v2 existed).
        game.digest_version = digest_version_of(record["hashes"][0])
    if hashes:
        game.track_hashes = True
    # The main decision's options are listed only when read; each recorded choice is looked up
    # alone, refused exactly as against the full list (game._MainOptions).
    game.lazy_options = True
    try:
        for i, (seat, decision_id, ids) in enumerate(record["choices"]):
            game.apply(seat, decision_id, ids)
            if hashes and i < len(hashes) and game.hashes[-1] != hashes[i]:
                raise ReplayMismatch(f"state differs after choice {i + 1} ({decision_id})")
    finally:
        game.lazy_options = False
    return game


# A fork taken before any snapshot rebuilds its game from the record (forks.py sits below us).
forks.REBUILD = replay


class Scenario:
    """Build a game in any position from plain data, then drive it with `apply`.

        s = Scenario([("Aliens", "Ninjas"), ("Pirates", "Robots")])
        home = s.base("The Homeworld")
        s.minion(home, "Invader", owner=1)
        s.hand(0, "Collector")
        game = s.build()              # seat 0's Play Cards phase, nothing played yet

    Everything is by card name; `game.find(name)` style lookups live in `find_cards`.
    The same data as a dict (`Scenario.to_dict`) is what `build_scenario` takes.

    The factions name each seat's pair and follow the game's rule: each faction once per game
    (ConfigError otherwise), so a test position is one a real game could reach. Cards are placed
    by name whatever the seat's factions, so no test needs two seats with one faction.
    """

    def __init__(self, factions, names=None, seed: int | str = 0, specials: str = "fast",
                 rng_version: int | None = None):
        self.data = {
            "players": [
                {"name": (names[i] if names else f"P{i}"), "factions": list(f), "hand": [],
                 "deck": [], "discard": [], "vp": 0}
                for i, f in enumerate(factions)
            ],
            "bases": [],
            "base_deck": [],
            "base_discard": [],
            "current": 0,
            "phase": "play",
            "played": {"minions": 0, "actions": 0},
            "seed": seed,
            "specials": specials,
        }
        version = version_for(seed, rng_version)
        if version != LEGACY:  # scenario data without "rng" is version 1, as records are
            self.data["rng"] = version

    def hand(self, seat, *names):
        self.data["players"][seat]["hand"].extend(names)
        return self

    def deck(self, seat, *names):
        """Cards on top of the deck, top first."""
        self.data["players"][seat]["deck"].extend(names)
        return self

    def discard(self, seat, *names):
        self.data["players"][seat]["discard"].extend(names)
        return self

    def vp(self, seat, amount):
        self.data["players"][seat]["vp"] = amount
        return self

    def base(self, name) -> int:
        """Put a base in play; returns its index (the base's uid in the built game is index+1)."""
        self.data["bases"].append({"name": name, "minions": [], "actions": []})
        return len(self.data["bases"]) - 1

    def minion(self, base_index, name, owner, controller=None, counters=0, attached=()):
        """A minion on a base. `attached` is a list of (action name, owner[, controller])."""
        self.data["bases"][base_index]["minions"].append({
            "name": name, "owner": owner,
            "controller": owner if controller is None else controller,
            "counters": counters, "attached": [list(a) for a in attached],
        })
        return self

    def base_action(self, base_index, name, owner, controller=None):
        self.data["bases"][base_index]["actions"].append(
            [name, owner, owner if controller is None else controller])
        return self

    def base_deck(self, *names):
        self.data["base_deck"].extend(names)
        return self

    def base_discard(self, *names):
        self.data["base_discard"].extend(names)
        return self

    def turn(self, current=0, phase="play", minions_played=0, actions_played=0):
        self.data["current"] = current
        self.data["phase"] = phase
        self.data["played"] = {"minions": minions_played, "actions": actions_played}
        return self

    def end_after_bases(self, limit, scored=0):
        """The tournament option: the game ends after `limit` scored bases; `scored` already did."""
        self.data["end_after_bases"] = limit
        self.data["bases_scored"] = scored
        return self

    def to_dict(self) -> dict:
        return self.data

    def build(self, registry: Registry | None = None) -> Game:
        return build_scenario(self.data, registry)


def build_scenario(data: dict, registry: Registry | None = None,
                   resolution: int | None = None, shared_factions: bool = False) -> Game:
    """Build a game from scenario data (see `Scenario`) and run it to its first decision.
    `shared_factions`: a replayed record made before "each faction once per game"."""
    registry = _registry(registry)
    if data.get("mode", "standard") != "standard":
        return mode_module(data["mode"]).build_scenario(data, registry, resolution)
    config = {
        "players": [{"name": p["name"], "factions": p["factions"], "bot": p.get("bot")}
                    for p in data["players"]],
        "specials": data.get("specials", "fast"),
        "mulligan": False,
    }
    if data.get("end_after_bases") is not None:
        config["end_after_bases"] = data["end_after_bases"]
    game = Game(config, data.get("seed", 0), registry, data.get("rng", LEGACY), shared_factions)
    if resolution is not None:  # a replayed record's (Game.resolution)
        game.resolution = resolution
    game.scenario = data
    game.bases_scored = data.get("bases_scored", 0)
    for seat, pd in enumerate(data["players"]):
        player = PlayerState(seat, game.config["players"][seat]["name"], pd["factions"])
        player.vp = pd.get("vp", 0)
        game.players.append(player)
    for seat, pd in enumerate(data["players"]):
        for zone in ("deck", "hand", "discard"):
            for name in pd.get(zone, []):
                game.new_card(registry.card(name), seat, (zone, seat))
    for bd in data["bases"]:
        bcard = game.new_card(registry.base(bd["name"]), None, ("base_deck",))
        slot = game.new_slot(bcard)
        for md in bd.get("minions", []):
            m = game.new_card(registry.card(md["name"]), md["owner"], ("hand", md["owner"]))
            game.move_card(m, ("minion", slot.uid))
            game.minion_state[m] = MinionState(md.get("controller", md["owner"]),
                                               md.get("counters", 0), entered=game.enter_play())
            for ad in md.get("attached", []):
                _attach(game, registry, ad, ("attached", m), "minion", m)
        for ad in bd.get("actions", []):
            _attach(game, registry, ad, ("base_action", slot.uid), "base", slot.uid)
    for name in data.get("base_deck", []):
        game.new_card(registry.base(name), None, ("base_deck",))
    for name in data.get("base_discard", []):
        game.new_card(registry.base(name), None, ("base_discard",))
    return game.start(game._turns(scenario_turn(game, data)))


def _attach(game, registry, ad, zone, host_kind, host):
    name, owner = ad[0], ad[1]
    controller = ad[2] if len(ad) > 2 else owner
    a = game.new_card(registry.card(name), owner, ("hand", owner))
    game.move_card(a, zone)
    game.action_state[a] = ActionState(controller, host_kind, host)


def scenario_turn(game, data: dict) -> str:
    """Set up the turn a scenario starts in (whose it is, the plays already made) and return its
    phase: "start" begins the first turn from its start, any other phase is entered directly."""
    game.current = data.get("current", 0)
    game.turn = 1
    phase = data.get("phase", "play")
    if phase != "start":
        game.turn_state = game.new_turn_state(game.current)
        played = data.get("played", {})
        _use_free_plays(game, played.get("minions", 0), played.get("actions", 0))
        game.phase = phase
    else:
        game.turn = 0
    return phase


def _use_free_plays(game, minions, actions):
    # The scenario says this many cards were played before it starts: their grants are used and
    # the turn's log of plays holds them (with no card).
    seat = game.turn_state.seat
    for kind, count in ((MINION, minions), (ACTION, actions)):
        for _ in range(count):
            for g in game.turn_state.grants:
                if g.kind == kind:
                    game.turn_state.grants.remove(g)
                    break
            game.turn_state.plays.append(PlayRecord(seat, None, kind, None, "play", False, False,
                                                    seat))


def find_cards(game: Game, name: str, zone: str | None = None) -> list[int]:
    """Card ids with this name (optionally in one kind of zone: "hand", "minion", ...)."""
    return [c for c, d in enumerate(game.defs)
            if d.name == name and (zone is None or game.loc[c][0] == zone)]
