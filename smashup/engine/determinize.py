"""Determinizing: a fork in which every card hidden from one seat is dealt again at random,
consistent with everything that seat knows (`Game.determinize(seat, rng)`), for bots that search
and for "what if" analysis: the real game's hidden cards and secret never reach them.

What is dealt again (knowledge.py says what a seat knows): the cards of the other players'
hands, of every deck (its order, and which card lies where but for what the seat saw) and of the
base deck (but a card face up on it: Big Base's next base). What stays: every public zone, the
seat's own hand, the size of every pile, each card whose place the seat knows (a card shown and
left on top of a deck stays there; a card seen entering a hand and never seen leaving stays in
it), and each card whose pile it knows stays in that pile. A card is dealt only among the places
of its owner's hidden cards (a player's cards are only ever in that player's hand or deck; bases
in the base deck), uniformly over every deal consistent with the rest (`_deal_again`).

The determinized game gets a new secret (a keyed generator seeded from the caller's `rng`, so
its future shuffles are the caller's chance, not the real game's), keeps of the other seats'
knowledge only what every seat knows, and keeps none of what the seat may not read: other seats'
private log lines and disclosures, the record's hashes and choices (their option ids may name
hidden cards), a scenario's data. It has no record (`Game.record` refuses); it is forked from
its own snapshots (forks.py), the first taken where it is dealt or at its next quiet point.

Where it is dealt: at a quiet point (or a game over), the game there. Elsewhere the flow holds
what the choices since the last quiet point made (a question of another player listing that
player's hidden cards, an ability holding a card it looked at), so the deal is made on the copy
of the game at that quiet point (or as set up, before the first one), with everything the seat
knows *now* kept where it was then, and the choices since are replayed on it with its new
secret: the question is asked again from the new deal. The seat's view must then be what it is
in the real game (checked); when it is not (a choice since then depended on a hidden card the
new deal moved, or on a shuffle the new secret made otherwise: rare), the fallback deals in
place on an exact fork, keeping the cards the flow has touched since (moved, or named by the
open question) where they are: those few may be the real ones.

No rules here: the project's contract (DESIGN.md section 3, "Determinize from one seat's view").
"""
from __future__ import annotations

from . import forks
from .core import EngineError
from .forks import copy_state, fork, is_quiet, last_snapshot, replay_choices, start_at_quiet_point
from .knowledge import PILE, PLACE
from .rng import GAME_STREAM, KEYED, stream


class NotDealt(EngineError):
    """`determinize(..., exact=True)` found no deal consistent with the seat's view in its tries
    and would have had to keep cards where they really are (the fallback)."""


def determinize(game, seat: int, rng, knowledge: bool = True, exact: bool = False):
    """A fork of `game` in which every card hidden from `seat` is dealt again at random with
    `rng` (a random.Random; see the module's docstring). `knowledge` False: the determinized
    game does not go on tracking what each seat knows (its playouts are a few percent faster;
    it cannot be determinized or observed in turn). `exact` True: never the fallback, which may
    keep a few real hidden cards in place; `NotDealt` instead (what a bot or a hint asks for: it
    must never play on a real hidden card)."""
    made = _determinize(game, seat, rng, exact)
    if not knowledge:
        made.knowledge = None
        if made._snapshot is not None:
            made._snapshot[1].knowledge = None
    return made


def _determinize(game, seat: int, rng, exact: bool = False):
    if type(seat) is not int or not 0 <= seat < len(game.players):
        raise EngineError(f"no seat {seat!r} in this game")
    if game.knowledge is None:
        track_knowledge(game)
    if game.pending is None or is_quiet(game):
        if game.pending is None:
            return _dealt_at_quiet_point(game, seat, rng)
        # Restarted at the play phase, a new deal may make the flow go elsewhere than the real
        # game did: the open main decision tells every seat that its player holds a card they
        # may play now, which the deal does not know. Dealt a hand with none (their minion
        # played, only minions left; standard games and Big Base alike, about 1 deal in 100
        # for another seat than the player's), "end" is the only option, the phase ends by
        # itself and the copy asks the next player. The seat's view must be the same, else
        # another deal, then the fallback.
        wanted = game.view(seat)
        for _attempt in range(max(1, ATTEMPTS)):
            new = _dealt_at_quiet_point(game, seat, rng)
            if new.view(seat) == wanted:
                return new
        if exact:
            raise NotDealt(f"no deal consistent with seat {seat}'s view was found in {ATTEMPTS} tries")
        return _dealt_in_place(game, seat, rng, last_snapshot(game))
    snapshot = last_snapshot(game)
    if snapshot is not None:
        base, at, start = snapshot[1], snapshot[0], start_at_quiet_point
    elif game.determinized_for is None and game.scenario is None:
        base, at, start = _set_up(game), 0, _start
    else:
        base = None
    if base is not None:
        # Deals after which the choices since do not replay alike are those the seat's view
        # rules out (a question asked because a player held a Special): another is drawn.
        # After PLAIN_ATTEMPTS, a choice of another player naming cards the deal moved (the
        # top cards of their deck they looked at) is taken as the option in the same place of
        # the same question in the new deal (`_replay_mapped`).
        for attempt in range(ATTEMPTS):
            real = None
            if attempt >= PLAIN_ATTEMPTS:
                real = copy_state(base)
                start(real)
            made = _dealt_then_replayed(game, copy_state(base), at, seat, rng, start, real)
            if made is not None:
                return made
    if exact:
        raise NotDealt(f"no deal consistent with seat {seat}'s view was found in {ATTEMPTS} tries")
    return _dealt_in_place(game, seat, rng, snapshot)


def _dealt_at_quiet_point(game, seat: int, rng):
    new = copy_state(game)
    fixed, piles = _what_seat_knows(new, seat)
    _deal_again(new, seat, rng, fixed, piles)
    _forget_secrets(new, seat, rng)
    if game.pending is not None:
        start_at_quiet_point(new)
    return new


# Deals tried on the last quiet point's copy before dealing in place (determinize), the first
# PLAIN_ATTEMPTS replaying the choices since as they are.
ATTEMPTS = 8
PLAIN_ATTEMPTS = 2


def _start(game) -> None:
    game.start()


def track_knowledge(game) -> None:
    """Track what each seat knows from now on, and learn what it knows already: the game is
    replayed from its record with knowledge tracked from its setup (once; the snapshot at its
    last quiet point is taken on the way, with it)."""
    if game.knowledge is not None:
        return
    if game.determinized_for is not None:
        raise EngineError("this determinized game was made without knowledge")
    record = game.record()
    record.pop("hashes", None)
    choices, at = record["choices"], game._quiet_at
    rebuilt = forks.REBUILD({**record, "choices": choices[:max(at, 0)]}, knowledge=True)
    snapshot = None
    if at >= 0:
        snapshot = (at, forks._pristine(rebuilt))
    replay_choices(rebuilt, choices[max(at, 0):])
    game.knowledge = rebuilt.knowledge
    game._snapshot = snapshot


def _set_up(game):
    """The game as set up, not started, with knowledge tracked (the base of a deal made before
    the first quiet point)."""
    record = game.record()
    record.pop("hashes", None)
    return forks.REBUILD({**record, "choices": []}, knowledge=True, start=False)


# ------------------------------------------------------------------ what the seat knows -------
def _hidden_zones(game, seat: int):
    """(zone, its cards) of every zone whose cards `seat` may not see."""
    for player in game.players:
        if player.seat != seat:
            yield ("hand", player.seat), player.hand
        yield ("deck", player.seat), player.deck
    yield ("base_deck",), game.base_deck


def _what_seat_knows(game, seat: int) -> tuple[set, dict]:
    """The hidden cards whose place `seat` knows (kept where they are), and those whose pile
    only it knows (card -> that pile)."""
    fixed, piles = set(game.public_deck_cards()), {}
    knowledge = game.knowledge
    for zone, cards in _hidden_zones(game, seat):
        for cid in cards:
            knows = knowledge.where(seat, cid, zone)
            if knows == PLACE:
                fixed.add(cid)
            elif knows == PILE:
                piles[cid] = zone
    return fixed, piles


def _known_then(base, game, seat: int) -> tuple[set, dict]:
    """`_what_seat_knows` at `base` (the game at an earlier point), with what the seat knows
    now in `game`: a card it sees now or whose place it knows stays where it was then, one whose
    pile it knows stays in that pile if it was there then (else where it was)."""
    fixed, piles = _what_seat_knows(base, seat)
    now = game.knowledge
    shown = game.public_deck_cards()
    hidden_now = {cid: zone for zone, cards in _hidden_zones(game, seat) for cid in cards}
    for zone, cards in _hidden_zones(base, seat):
        for cid in cards:
            if cid in fixed:
                continue
            where_now = hidden_now.get(cid)
            knows = None if where_now is None or cid in shown else now.where(seat, cid, where_now)
            if where_now is None or cid in shown or knows == PLACE or (
                    knows == PILE and where_now != zone):
                fixed.add(cid)
                piles.pop(cid, None)
            elif knows == PILE:
                piles[cid] = zone
    return fixed, piles


# ------------------------------------------------------------------ the deal ------------------
def _deal_again(game, seat: int, rng, fixed: set, piles: dict) -> None:
    """Deal again every card hidden from `seat` but `fixed`, among the places of its owner's
    hidden cards (a card of `piles` among those of its pile), uniformly: for each pile, its
    cards take places in it at random, then the others the places left, at random. Every
    consistent deal is equally likely (each is one choice of those two steps)."""
    groups: dict = {}  # owner -> [(zone, index, card)] of its cards dealt again
    for zone, cards in _hidden_zones(game, seat):
        for i, cid in enumerate(cards):
            if cid not in fixed:
                groups.setdefault(game.owner[cid], []).append((zone, i, cid))
    loc = game.loc
    for spots in groups.values():
        in_zone: dict = {}  # zone -> positions (in `spots`) of that zone
        bound: dict = {}  # zone -> cards known to be in it
        loose = []
        for j, (zone, _, cid) in enumerate(spots):
            in_zone.setdefault(zone, []).append(j)
            if piles.get(cid) == zone:
                bound.setdefault(zone, []).append(cid)
            else:
                loose.append(cid)
        # The cards in card order before the draws, not in the order they lie: two games that
        # look the same from the seat (the same cards hidden, the same knowledge) get the same
        # deal from the same `rng`, whatever their hidden cards' real places (the expert's
        # never-peeks test, tests/engine/test_expert.py).
        dealt: list = [None] * len(spots)
        for zone, cards in bound.items():
            for cid, j in zip(sorted(cards), rng.sample(in_zone[zone], len(cards)), strict=True):
                dealt[j] = cid
        loose.sort()
        rng.shuffle(loose)
        rest = iter(loose)
        for j, (zone, i, _) in enumerate(spots):
            cid = dealt[j]
            if cid is None:
                cid = next(rest)
            game.container(zone)[i] = cid
            loc[cid] = zone


def _forget_secrets(game, seat: int, rng) -> None:
    """What the determinized game must not keep of the real one (see the module's docstring)."""
    secret = f"{rng.getrandbits(256):064x}"
    game.seed, game.rng_version = secret, KEYED
    game.rng = stream(secret, GAME_STREAM, KEYED)
    game.determinized_for = seat
    game.scenario = None
    game.hashes, game.track_hashes = [], False
    game.choices = [[who, decision_id, []] for who, decision_id, _ in game.choices]
    game.log_lines = [line for line in game.log_lines if line[1] is None or seat in line[1]]
    game.disclosures = [(cid, to) for cid, to in game.disclosures if to is None or seat in to]
    knowledge = game.knowledge
    kept = knowledge.public(len(game.players))
    kept.known[seat] = dict(knowledge.known.get(seat, {}))
    game.knowledge = kept
    game._digest_static, game._loc_texts = {}, None
    game._snapshot = None


# ------------------------------------------------------------------ away from quiet points -----
def _dealt_then_replayed(game, base, at: int, seat: int, rng, start, real=None):
    """Deal on `base` (the game at choice `at`, not started), start it and replay the choices
    since (with `real`, the real game at `at` started, `_replay_mapped`); None when the seat's
    view is then not what it is in `game`."""
    fixed, piles = _known_then(base, game, seat)
    _deal_again(base, seat, rng, fixed, piles)
    _forget_secrets(base, seat, rng)
    start(base)  # a determinized game keeps a snapshot at its first quiet point (game.py)
    try:
        if real is None:
            replay_choices(base, game.choices[at:])
        else:
            _replay_mapped(base, real, game.choices[at:])
    except EngineError:
        return None
    if (base.pending is None or base.pending.id != game.pending.id
            or base.pending.seat != game.pending.seat or base.view(seat) != game.view(seat)):
        return None
    return base


def _replay_mapped(dealt, real, choices) -> None:
    """Replay `choices` on `dealt` and on `real` (the real game at the same point) side by side:
    a choice whose options are not options of the dealt game's question (another player's
    choice among cards the deal moved) takes there the options in the same places of the same
    question, when both list as many options."""
    for who, decision_id, ids in choices:
        question = dealt.pending
        if question is None or question.id != decision_id:
            raise EngineError("the dealt game asks another question")
        chosen = ids
        if not all(question.option(i) is not None for i in ids):
            mine, theirs = [o.id for o in question.options], [o.id for o in real.pending.options]
            if len(mine) != len(theirs) or not set(ids) <= set(theirs):
                raise EngineError("the dealt game's question differs")
            chosen = [mine[theirs.index(i)] for i in ids]
        real.apply(who, decision_id, ids)
        dealt.apply(who, decision_id, chosen)


def _dealt_in_place(game, seat: int, rng, snapshot):
    """The fallback: an exact fork, dealt where it stands, keeping the cards its flow may hold:
    those moved since the last quiet point (or the start) and those the open question names."""
    new = fork(game)
    fixed, piles = _what_seat_knows(new, seat)
    if snapshot is not None:
        before = _places(snapshot[1], seat)
    elif game.determinized_for is None:  # the places at its first decision
        record = game.record()
        record.pop("hashes", None)
        before = _places(forks.REBUILD({**record, "choices": []}), seat)
    else:
        before = {}
    for cid, place in _places(new, seat).items():
        if before.get(cid) != place:
            fixed.add(cid)
    pending = new.pending
    for opt in pending.options:
        fixed.add(opt.card)
    fixed.update(pending.reveal)
    fixed.update((pending.source, pending.subject))
    _deal_again(new, seat, rng, fixed, piles)
    _forget_secrets(new, seat, rng)
    return new


def _places(game, seat: int) -> dict:
    return {cid: (zone, i) for zone, cards in _hidden_zones(game, seat)
            for i, cid in enumerate(cards)}
