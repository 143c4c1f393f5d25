"""Which plays are legal: the one play-legality generator behind `Game.legal_plays`.

Modelled on python-chess's `legal_moves`: plays are generated from what allows them (the grants:
the turn's free minion and action, banked extras, plays a card offers each turn, a grant an
effect gives to use at once), then filtered by what forbids them (`Game.forbids`, in
restrictions.py: restrictions of cards in play and lasting "cannot_play" effects). The main
decision, extra plays, plays made by abilities (`Ctx.play_minion`), Specials played from the hand
and, through the main decision, the bots all ask here.

Grant matching. When several grants fit a play, the player may use any; the rules let free and
extra plays be made in any order. So a play takes an unused grant if one fits (the most
restrictive one), and otherwise the grant of an earlier play of this turn, which moves to another
grant that fitted it when it was made (an augmenting path, as in bipartite matching). No legal
play is lost to which grant an earlier play used: given "an extra minion on base X" and "an extra
minion of power 2 or less", Collector on X leaves Invader on X legal. A grant given after a play
is never traded back to it (it did not fit the play when it was made).

Rules implemented here: the community page's "Phase 2: Play Cards" and "Playing Cards" (one
minion and one action a turn, in any order; extra plays; a minion onto a base, an action onto a
minion or a base it may attach to), WWWT "Terms and Restrictions" as applied to the plays listed
(restrictions.py's `play_barriers`), and the plays cards offer each turn or from a discard pile
(Tenacious Z, They're Coming To Get You). Playing the card chosen is playing.py's.
"""
from __future__ import annotations

import cython

from .core import ACTION, GRANT_CONDITIONS, MINION, EngineError, Grant, Option, Play, Spent
from .effects import Ctx
from .options import _play_option, _play_row
from .protections import ability_active, base_active
from .registry import _Declares
from .restrictions import may_restrict, play_barriers
from .state import BaseSlot, GameState, PlayerState


def _plan(defn) -> tuple:
    """How a card may be played, from its definition: (kind of play, whether it needs a host
    to attach to, whether that is its own kind, whether the card is a minion) for each kind it
    may use; none for a base or an action played only through its Special. The common ones are
    shared, not made per card."""
    if defn.kind == MINION:
        if not defn.playable_as:
            return _MINION_PLAN
        return (*_MINION_PLAN, *((k, False, False, True) for k in defn.playable_as))
    if defn.kind == ACTION and not defn.is_special_only:
        return _ATTACH_PLAN if defn.attach is not None else _ACTION_PLAN
    return ()


_MINION_PLAN = ((MINION, False, True, True),)
_ACTION_PLAN = ((ACTION, False, True, False),)
_ATTACH_PLAN = ((ACTION, True, True, False),)


_NO_KEYS = frozenset()  # `PlayFinder.used_turn` when no card offers a play (only read)


def grant_key(grant: Grant):
    """What a grant is within its turn, for matching: a banked grant is itself; a play a card
    offers each turn is that card's (or, once per name, that name's) play of the turn."""
    if grant.via is None:
        return id(grant)
    return ("turn", grant.source) if grant.once == "name" else ("turn", grant.via)


class RowLater:
    """A hand card's row of the main decision (`Game._play_row`) not made yet, every play of it
    standing (`PlayFinder.plays(rows_later=True)`): `count` Options, onto each base of `sig` for
    a minion, else one. Made when listed (`row`), or one Option alone when picked (`option`).
    Kept in the game's rows (`Game._play_rows`) in place of the row until the row is made: it
    holds no game nor table, so a fork's copy of the rows may share it."""

    __slots__ = ("cid", "kind", "key", "count", "sig")

    def __init__(self, cid: int, kind: str, key, count: int, sig: tuple):
        self.cid = cid
        self.kind = kind
        self.key = key
        self.count = count
        self.sig = sig

    @cython.locals(g=GameState, rows=dict)
    def row(self, game, seat: int) -> tuple:
        g = game
        rows = g._play_rows.get((self.sig, seat))
        if rows is None:
            rows = g._play_rows[self.sig, seat] = {}
        row = rows.get(self.key)
        if type(row) is not tuple:
            row = rows[self.key] = _play_row(g, seat, self.cid, self.kind, self.sig)
        return row

    @cython.locals(g=GameState, rows=dict)
    def option(self, game, seat: int, index: int):
        """The row's Option at `index`, as `row()[index]`: a minion's play onto that base alone
        (the same Option: `_play_row` makes each once); a row of one Option is made without
        being kept (the game's rows are not looked up for it)."""
        g = game
        if self.count == 1:
            return _play_row(g, seat, self.cid, self.kind, self.sig)[0]
        rows = g._play_rows.get((self.sig, seat))
        row = rows.get(self.key) if rows is not None else None
        if type(row) is tuple:
            return row[index]
        return _play_row(g, seat, self.cid, self.kind, self.sig, self.sig[index][0])[0]


@cython.locals(made=RowLater)
def _row_later(cid: int, kind: str, key, count: int, sig: tuple) -> RowLater:
    """`RowLater(...)`, made without a call of its class (once per card, kind and bases)."""
    made = RowLater.__new__(RowLater)
    made.cid = cid
    made.kind = kind
    made.key = key
    made.count = count
    made.sig = sig
    return made


class PlayFinder:
    """One question about the legal plays of `seat` (see `Game.legal_plays`)."""

    __slots__ = ("game", "seat", "kinds", "cards", "explicit", "sources", "spent", "used_turn",
                 "unused", "zone_free", "cacheable", "by_card", "outright", "hand_outright",
                 "grant_kinds", "discard_too", "_known", "by_base", "_matched")

    @cython.locals(gr=Grant, game=GameState)
    def __init__(self, game, seat: int, grants=None, cards=None, kinds=None):
        self.game = game
        self.seat = seat
        self.kinds = kinds
        self.cards = cards
        self.explicit = explicit = grants is not None
        sources = spent = ()
        self.used_turn = _NO_KEYS
        if explicit:
            unused = list(grants)
        else:
            ts = game.turn_state
            if ts.seat != seat:
                unused = []
            else:
                unused = list(ts.grants)
                spent = ts.spent
                offering = game.play_offering
                if game.phase == "play" and (offering or discard_offers(game)):
                    self.used_turn = self._used_turn_keys()
                    unused += self._turn_grants()
                if offering:
                    sources = self._sources()
        self.sources = sources
        self.spent = spent
        self.unused = unused
        # Cards an effect names (a revealed deck top) are played from where they are.
        self.zone_free = explicit and cards is not None
        # Whether a grant may depend on more than the play's kind, zone, printed power, base and
        # card (a condition or a source reads the board): then answers are not cached.
        cacheable = not sources
        by_card = by_base = discard_too = False
        # (kind, zone) pairs that an unused general grant allows outright: the common case, the
        # turn's free plays from the hand, needs no matching per play.
        outright = set()
        hand_outright = set()
        # Matching moves earlier plays within their kind, so a play's kind needs a grant.
        grant_kinds = set()
        for gr in unused:
            kind = gr.kind
            grant_kinds.add(kind)
            zones = gr.zones
            if gr.condition is not None:
                cacheable = False
            elif gr.card is None and gr.max_power is None and gr.base is None:  # Grant.general
                for z in zones:
                    outright.add((kind, z))
                    if z == "hand":
                        hand_outright.add(kind)
            if gr.card is not None:
                by_card = True
            if gr.base is not None:
                by_base = True
            if "discard" in zones:
                discard_too = True
        for sp in spent:
            gr = sp.grant
            grant_kinds.add(gr.kind)
            if gr.condition is not None:
                cacheable = False
            if gr.card is not None:
                by_card = True
            if gr.base is not None:
                by_base = True
            if "discard" in gr.zones:
                discard_too = True
        self.cacheable = cacheable
        self.by_card = by_card
        # Without a grant for one base (nor a condition, nor a source: not cacheable), whether a
        # play is granted does not depend on its base: one answer serves every base.
        self.by_base = by_base
        self.outright = outright
        self.hand_outright = hand_outright
        self.grant_kinds = grant_kinds
        if not discard_too and sources:
            discard_too = any(s[1].zone == "discard" for s in sources)
        self.discard_too = discard_too
        self._known = {}
        self._matched = None  # (play, `match`'s answer) of the last play `granted` matched

    # ------------------------------------------------------------------ what allows plays -----
    @cython.locals(g=GameState, d=_Declares)
    def _used_turn_keys(self) -> set:
        g = self.game
        keys = set()
        for p in g.turn_state.plays:
            if p.via is not None and p.seat == self.seat:
                keys.add(("turn", p.via))
                d = g.defs[p.via]
                keys.add(("turn", d.name))
        return keys

    @cython.locals(g=GameState, d=_Declares)
    def _turn_grants(self) -> list[Grant]:
        """The plays cards offer `seat` this turn (`CardDef.grants_each_turn`), not used yet."""
        g = self.game
        seat = self.seat
        found = []
        defs = g.defs
        for cid in g.play_offering:
            d = defs[cid]
            if not d.turn_grants:
                continue  # it only widens where a play's card may come from (`_sources`)
            zone = g.loc[cid]
            if zone[0] == "base":
                # A base offers its play to whoever's turn it is, while its abilities work.
                if not base_active(g, g.slot(zone[1])):
                    continue
                here = zone[1]
            elif g.controller(cid) != seat or not ability_active(g, cid):
                continue
            else:
                here = g.base_of(cid)
            for tg in d.turn_grants:
                if tg.zone == "play":
                    self._offer(found, cid, tg, here)
        for cid in discard_offerers(g, seat):
            d = defs[cid]
            for tg in d.turn_grants:
                if tg.zone == "discard":
                    self._offer(found, cid, tg, None)
        return found

    @cython.locals(g=GameState, d=_Declares)
    def _offer(self, found: list, cid: int, tg, here: int | None) -> None:
        g = self.game
        d = g.defs[cid]
        name = d.name
        if ("turn", name if tg.once == "name" else cid) in self.used_turn:
            return
        if not tg.applies(Ctx(g, cid, self.seat, base=here)):
            return
        found.append(Grant(tg.kind, max_power=tg.max_power, base=here if tg.here else None,
                           source=name, zones=tg.zones, condition=tg.condition,
                           card=cid if tg.this_card else None, via=cid, once=tg.once))

    @cython.locals(g=GameState, defn=_Declares)
    def _sources(self) -> list:
        g = self.game
        found = []
        used = None
        for cid in g.play_offering:
            defn = g.defs[cid]
            if (not defn.play_sources or g.controller(cid) != self.seat
                    or not ability_active(g, cid)):
                continue
            for src in defn.play_sources:
                if src.once_per_turn:
                    if used is None:
                        used = self._used_turn_keys()
                    if ("turn", cid) in used:
                        continue
                found.append((cid, src, Ctx(g, cid, self.seat, base=g.base_of(cid))))
        return found

    def widened_by(self, grant: Grant, play: Play, own: int | None = None,
                   only_own: bool = False):
        """The card in play whose play source lets `grant` take `play`'s card from its zone, or
        None. `own`: the source an earlier play already uses (it may keep using it)."""
        g = self.game
        if own is not None:
            for src in g.defs[own].play_sources:
                if src.zone == play.zone and src.applies(
                        Ctx(g, own, self.seat, base=g.base_of(own)), play, grant):
                    return own
        if only_own:
            return None
        for cid, src, ctx in self.sources:
            if src.zone == play.zone and src.applies(ctx, play, grant):
                return cid
        return None

    @cython.locals(d=_Declares)
    def fits(self, grant: Grant, play: Play, own: int | None = None) -> bool:
        if grant.kind != play.kind:
            return False
        if grant.card is not None and grant.card != play.card:
            return False
        if grant.max_power is not None:
            d = self.game.defs[play.card]
            if d.power > grant.max_power:
                return False
        if grant.base is not None and grant.base != play.base:
            return False
        if (grant.condition is not None and play.base is not None
                and not GRANT_CONDITIONS[grant.condition](self.game, self.seat, play.base)):
            return False
        if (not self.zone_free and play.zone not in grant.zones
                and self.widened_by(grant, play, own) is None):
            return False
        return True

    def _preference(self, grant: Grant, play: Play):
        # As the engine always did: a banked grant that allows the card's zone, then a play a
        # card offers (Tenacious Z's own), then a grant widened by a card in play (They're
        # Coming To Get You); among those the most restrictive one.
        if grant.via is not None:
            tier = 1
        elif self.zone_free or play.zone in grant.zones:
            tier = 0
        else:
            tier = 2
        return (-tier, grant.restrictiveness())

    def _is_free(self, grant: Grant) -> bool:
        if grant.via is not None:
            return grant_key(grant) not in self.used_turn
        return any(x is grant for x in self.game.turn_state.grants)

    def match(self, play: Play):
        """(grant, moves) for `play`: the grant it would use, and the earlier plays that move to
        other grants so that it may ([(Spent, new grant)], in order); None if no grant can."""
        fitting = None
        for gr in self.unused:
            if self.fits(gr, play):
                if fitting is None:
                    fitting = gr
                elif type(fitting) is list:
                    fitting.append(gr)
                else:
                    fitting = [fitting, gr]
        if fitting is not None:
            if type(fitting) is not list:
                return fitting, []
            # The first most preferred, as max() gives (a loop: no closure in a C method).
            best = best_rank = None
            for gr in fitting:
                rank = self._preference(gr, play)
                if best is None or rank > best_rank:
                    best, best_rank = gr, rank
            return best, []
        if not self.spent:
            return None
        return self._rematch(play)

    def _rematch(self, play: Play):
        """`match` when no unused grant fits: an earlier play's grant, freed by moving plays."""
        owner = {grant_key(sp.grant): sp for sp in self.spent}
        seen = set()
        plays = self.game.turn_state.plays

        def moved(sp):
            """Moves that free `sp`'s grant: it takes another grant it could use, free or freed
            in turn; None if there is none."""
            record = plays[sp.play]
            made = Play(record.seat, record.card, record.kind, record.zone, record.base)
            own = record.via if record.via is not None and record.via != record.card else None
            for c in sp.could:
                key = grant_key(c)
                if key in seen or key == grant_key(sp.grant):
                    continue
                seen.add(key)
                # A banked grant fitted it when it was made (its condition was read then); one
                # that does not allow its zone needs the source it used then.
                if (c.via is None and not self.zone_free and record.zone not in c.zones
                        and (own is None or self.widened_by(c, made, own, only_own=True) is None)):
                    continue
                if self._is_free(c):
                    return [(sp, c)]
                held = owner.get(key)
                if held is not None:
                    rest = moved(held)
                    if rest is not None:
                        return [(sp, c), *rest]
            return None

        try:
            for sp in self.spent:
                key = grant_key(sp.grant)
                if key in seen or not self.fits(sp.grant, play):
                    continue
                seen.add(key)
                moves = moved(sp)
                if moves is not None:
                    return sp.grant, moves
            return None
        finally:
            # `moved` calls itself through its closure: a reference cycle that would keep this
            # finder, and so the game, alive until Python's cycle collector finds it.
            moved = None

    def way(self, play: Play) -> int | None:
        """What lets `play` take its card from where it is: None for a grant that allows that
        zone, else the card whose ability does (its own: Tenacious Z; a card in play: They're
        Coming To Get You)."""
        matched = self._matched
        # The main decision asks right after `granted` matched it.
        found = matched[1] if matched is not None and matched[0] is play else self.match(play)
        if found is None:
            return None
        grant = found[0]
        if grant.via is not None:
            return grant.via
        if self.zone_free or play.zone in grant.zones:
            return None
        return self.widened_by(grant, play)

    def fitting_now(self, play: Play) -> list[Grant]:
        """Every grant of this turn, unused or held by an earlier play, that fits `play` now."""
        return [gr for gr in self.unused + [sp.grant for sp in self.spent]
                if self.fits(gr, play)]

    # ------------------------------------------------------------------ the generator ---------
    @cython.locals(p=Play, d=_Declares)
    def granted(self, play: Play) -> bool:
        """Whether some grant allows `play` (with matching), before restrictions."""
        p = play
        if (p.kind, p.zone) in self.outright:
            return True
        key = None
        if self.cacheable:
            d = self.game.defs[p.card]
            key = (p.kind, p.zone, d.power, p.base if self.by_base else None,
                   p.card if self.by_card else None)
            known = self._known.get(key)
            if known is not None:
                return known
        found = self.match(play)
        self._matched = (play, found)
        ok = found is not None
        if key is not None:
            self._known[key] = ok
        return ok

    @cython.locals(g=GameState, defs=list, defn=_Declares, plans=dict, rows=dict, out=list,
                   seen=set, groups=list, sig=tuple, here=BaseSlot, player=PlayerState,
                   option=Option, play=Play, allowed=set, outright=set, hand_outright=set,
                   in_hand=cython.bint, granted=cython.bint, minion=cython.bint,
                   attaches=cython.bint, own=cython.bint, per_card=cython.bint, later=RowLater)
    def plays(self, candidates=None, first: bool = False, options: bool = False,
              onto: int | None = None, rows_later: bool = False) -> list:
        """The legal plays, from `candidates` ((card, zone) pairs; default: the hand, and the
        discard pile when a grant allows it). `first`: stop at the first one (is there any?).
        `options`: the main decision's Options of those plays instead (`Game.main_options`).
        `onto`: only a hand minion's plays onto that base, its Option made alone (a replay looks
        up one recorded play: `_MainOptions.find`; an ability asks about one base: `can_play`).
        A card's plays do not depend on the other candidates, but for copies in a discard pile
        (the first copy gives the play): `Game`'s lazy main decision relies on that.
        `rows_later` (with `options`): the Options in their order, but a hand card whose plays
        all stand is given as its row (a tuple of Options, `Game._play_row`), or as a `RowLater`
        when that row is not made yet: the main decision counts its options and the random bot
        picks one without making every Option (`_MainOptions`)."""
        if not self.unused and not self.spent:
            return []
        g = self.game
        defs = g.defs
        seat = self.seat
        allowed = self.grant_kinds
        if self.kinds is not None:
            allowed = allowed.intersection(self.kinds)
        barred = where = None
        if may_restrict(g):
            barrier = play_barriers(g, seat)
            if barrier is not None:
                barred, where = barrier
        outright = self.outright
        # A card's plays from the hand, with their Options, are the same every time the bases in
        # play are (`Game._play_row`): looked up, not built, then filtered by grants and
        # restrictions.
        bases = g.bases
        places = []  # a loop, not a comprehension: its slots typed
        for here in bases:
            places.append((here.uid, here.card))
        sig = tuple(places)
        rows = g._play_rows.get((sig, seat))
        if rows is None:
            rows = g._play_rows[sig, seat] = {}
        plans = g._play_plans
        hand_outright = self.hand_outright
        # Whether a grant allows a play does not depend on its base (`granted`'s key).
        per_card = self.cacheable and not self.by_base
        base_card = made = None
        out = []
        seen = set()
        if candidates is not None:
            groups = [((cid,), zone) for cid, zone in candidates]
        elif self.cards is not None:
            groups = [((cid,), g.loc[cid][0]) for cid in self.cards]
        else:
            # The hand, then the discard pile when a grant may take a card from there.
            player = g.players[seat]
            groups = [(player.hand, "hand")]
            if self.discard_too:
                groups.append((player.discard, "discard"))
        for cards, zone in groups:
            in_hand = zone == "hand"
            for cid in cards:
                plan = plans.get(cid)
                if plan is None:
                    plan = plans[cid] = _plan(defs[cid])
                for kind, attaches, own, minion in plan:
                    if kind not in allowed:
                        continue
                    granted = kind in hand_outright if in_hand else (kind, zone) in outright
                    if not granted and not self._could(cid, kind, zone):
                        continue
                    if attaches and not g.has_attach_host(seat, cid):
                        continue
                    if in_hand:
                        if not granted and per_card:
                            # Asked once for the card, not for each of its plays.
                            if minion and not sig:
                                continue
                            granted = self.granted(Play(seat, cid, kind, "hand",
                                                        sig[0][0] if minion else None))
                            if not granted:
                                continue
                        key = cid if own else (cid, kind)
                        if onto is not None:
                            row = _play_row(g, seat, cid, kind, sig, onto)  # not kept in `rows`
                        else:
                            row = rows.get(key)
                            # A row not made yet is kept as its `RowLater` (the same one
                            # listing after listing).
                            later = None
                            if row is not None and type(row) is not tuple:
                                later = row
                                row = None
                            # Whether there is any play (`first`) is answered without making
                            # a row.
                            if row is None and not first:
                                if rows_later and granted:
                                    if later is None:
                                        # The row `_play_row` would make: onto each base for a
                                        # minion, else one play of no base.
                                        later = rows[key] = _row_later(
                                            cid, kind, key, len(sig) if minion else 1, sig)
                                    if barred is None or (
                                            where is not None and later.count == 1
                                            and (sig[0][0] if minion else None) not in where):
                                        out.append(later)
                                        continue
                                row = rows[key] = _play_row(g, seat, cid, kind, sig)
                        if row is not None:
                            # The common case: a free or general play allows every target, and
                            # nothing may forbid one (an action's only play, nor where the
                            # barrier may forbid one).
                            if granted and (barred is None or (
                                    where is not None and len(row) == 1
                                    and row[0].play.base not in where)):
                                if rows_later:
                                    out.append(row)
                                elif options:
                                    out += row
                                else:
                                    out += [o.play for o in row]
                                if first and out:
                                    return out
                                continue
                            for option in row:
                                play = option.play
                                if not granted and not self.granted(play):
                                    continue
                                if (barred is not None and (where is None or play.base in where)
                                        and barred(play)):
                                    continue
                                out.append(option if options else play)
                                if first:
                                    return out
                            continue
                    defn = defs[cid]
                    for uid in ([s.uid for s in bases] if minion else (None,)):
                        if zone == "discard" and not self.explicit:
                            # Copies of one card in a discard pile are one play, not several.
                            alike = (defn.name, kind, uid)
                            if alike in seen:
                                continue
                        play = Play(seat, cid, kind, zone, uid)
                        if not granted and not self.granted(play):
                            continue
                        if (barred is not None and (where is None or uid in where)
                                and barred(play)):
                            continue
                        if zone == "discard" and not self.explicit:
                            seen.add(alike)
                        if options:
                            # Its value names what lets it come from there, as it always did
                            # (records hashed with digest 2 hold it): a grant (None), its own
                            # ability, a card in play.
                            if base_card is None:
                                base_card = dict(sig)
                                made = g._minion_play_options
                            on = base_card[play.base]
                            way = self.way(play)
                            # Made once, as a row from the hand is (`Game._play_row`).
                            okey = (cid, uid, on, kind, seat, zone, way)
                            option = made.get(okey)
                            if option is None:
                                option = made[okey] = _play_option(g, play, on, way)
                            out.append(option)
                        else:
                            out.append(play)
                        if first:
                            return out
        return out

    @cython.locals(d=_Declares, gr=Grant)
    def _could(self, cid: int, kind: str, zone: str) -> bool:
        """Whether some grant of this turn, unused or held by an earlier play, may fit a play of
        `cid` from `zone` as `kind` onto some base: `fits` without the base and the condition,
        so a card no grant is for (another card's own play from the discard pile, a minion
        above a power cap) is passed over without a play per base."""
        power = None
        for every in (self.unused, [sp.grant for sp in self.spent] if self.spent else ()):
            for gr in every:
                if gr.kind != kind or (gr.card is not None and gr.card != cid):
                    continue
                if gr.max_power is not None:
                    if power is None:
                        d = self.game.defs[cid]
                        power = d.power
                    if power > gr.max_power:
                        continue
                if self.zone_free or zone in gr.zones or self.sources:
                    return True
        return False

    # ------------------------------------------------------------------ making a play ---------
    def use(self, play: Play):
        """Give `play` its grant (before it is made): returns (extra, via, special) for its
        record. Earlier plays that move to other grants have their records follow."""
        game = self.game
        found = self.match(play)
        if found is None:
            raise EngineError(f"no play allows {game.name(play.card)} now")
        grant, moves = found
        ts = game.turn_state
        could = self.fitting_now(play)
        for sp, new in moves:
            record = ts.plays[sp.play]
            if new.via is None:
                _remove(ts.grants, new)
            sp.grant = new
            record.extra = not new.free
            if new.via is not None:
                record.via, record.special = new.via, new.card == new.via
            elif record.zone in new.zones:
                record.via, record.special = None, False
            # else it keeps the card in play that widened its grant (`moved` checked it may)
        if not moves and grant.via is None:
            _remove(ts.grants, grant)
        via = grant.via
        if via is None and play.zone not in grant.zones and not self.zone_free:
            via = self.widened_by(grant, play)
        if len(could) > 1:
            ts.spent.append(Spent(len(ts.plays), grant, could))
        return not grant.free, via, grant.via is not None and grant.card == grant.via


def _remove(grants: list, grant: Grant) -> None:
    # By identity: two equal grants are two permissions, and matching remembers which is which.
    for i, x in enumerate(grants):
        if x is grant:
            del grants[i]
            return


# ------------------------------------------------------------------ the game's questions ---------
# Methods of Game (game.py): `legal_plays` (what forbids a play: restrictions.py) and the plays a
# discard pile offers (Tenacious Z).


# One play-legality generator (python-chess's `legal_moves`, plays.py): `legal_plays` lists
# every legal play from the grants, filtered by `forbids`. The main decision, extra plays,
# plays by abilities (`Ctx.play_minion`), Specials from the hand and the bots all read it.
def legal_plays(game, seat: int, grants: list[Grant] | None = None, cards=None,
                kinds=None, onto: int | None = None) -> list[Play]:
    """Every legal play of `seat` now: with `grants` None, from this turn's grants (only in
    their own turn; plays cards offer each turn only in its Play Cards phase), each play
    matched to a grant so that no play is lost to which grant an earlier play used; else
    from `grants` (a play to make at once). `cards` limits the cards (and lets an effect
    offer cards from anywhere: a revealed deck top); `kinds` the kinds of play. From this
    turn's grants, copies of one card in a discard pile give one play (the main decision
    always offered one); a question asked at once marks them alike instead (`_mark_alike`),
    so a record that chose another copy replays. `onto`: a minion in hand is looked at only
    onto that base (its plays onto the others are not made; cards elsewhere still are)."""
    return PlayFinder(game, seat, grants, cards, kinds).plays(onto=onto)


def use_grant(game, play: Play) -> tuple:
    """Give `play` (one of `legal_plays(seat)`) the grant it uses, moving earlier plays to
    other grants if that is needed; returns (extra, via, special) for its record."""
    return PlayFinder(game, play.seat).use(play)


def minion_targets_for_play(game, seat: int, cid: int) -> list[int]:
    """Bases a minion may be played on now (legal plays)."""
    return [p.base for p in legal_plays(game, seat, cards=[cid], kinds=(MINION,))]


@cython.locals(d=_Declares)
def discard_offers(game) -> frozenset:
    """Names of this game's cards that offer a play from a discard pile (Tenacious Z), so
    a game without one pays nothing for them."""
    if game._discard_offers is None:
        names = set()
        for d in game.defs:  # loops, not comprehensions: `d` typed, no closure in a C function
            for tg in d.turn_grants:
                if tg.zone == "discard":
                    names.add(d.name)
        game._discard_offers = frozenset(names)
        # The cards of those names, so a discard pile is not read card by card (`defs`
        # grows only while a game is set up: its length says whether this is still whole).
        game._discard_offerers = (len(game.defs), tuple([
            cid for cid, d in enumerate(game.defs) if d.name in game._discard_offers]))
    return game._discard_offers


def discard_offerers(game, seat: int) -> list[int]:
    """The cards in `seat`'s discard pile whose names offer a play from there
    (`discard_offers`), in the pile's order."""
    names = discard_offers(game)
    if not names:
        return []
    discard = game.players[seat].discard
    size, cards = game._discard_offerers
    if size != len(game.defs):
        return [cid for cid in discard if game.defs[cid].name in names]
    where = ("discard", seat)
    loc = game.loc
    found = []
    for cid in cards:  # a few cards: a loop, not a comprehension's call
        if loc[cid] == where:
            found.append(cid)
    if len(found) > 1:
        found.sort(key=discard.index)
    return found
