"""Dragons (It's Your Fault!): bases made costly for the other players (weaker minions, cards
discarded, their abilities razed) and the breakpoint brought down to score them early."""
from smashup.engine import ACTION, MINION, Faction

dragons = Faction("Dragons", set="iyf")


def _arrives_by_another(ctx, event) -> bool:
    """A minion played on this card's base by another player, or moved there by another player
    (catalog notes, AEG: a move TO this base, not away from it; IYF clarification on Imperial
    Dragon: this very minion moved here by another player counts too, it arrives here). A move
    nobody performed (the rules) is no player's."""
    if event.base != ctx.here:
        return False
    who = event.player if event.kind == "minion_played" else event.by_player
    return who is not None and who != ctx.me


# ------------------------------------------------------------------------------ minions -------
great_wyrm = dragons.minion("Great Wyrm", power=5, text=(
    "Ongoing: when this base scores, each other player awarded VP for their place here gets 1 VP "
    "less."))


def _toll(ctx, scoring, seat):
    # Rulebook clarification (Great Wyrm, Ruins): only placement VP, never VP from abilities;
    # several Wyrms and Ruins each take their own 1 (catalog reading); never below 0 (the engine).
    return -1 if scoring.base == ctx.here and seat != ctx.me else 0


great_wyrm.modifies_placement_vp(_toll)


wyvern = dragons.minion("Wyvern", power=4, copies=2, text=(
    "On play: destroy a minion of power 3 or less here (if there is one, even one of yours). "
    "Talent: this base's breakpoint is 3 lower until the end of the turn."))


@wyvern.on_played
def wyvern_lands(ctx):
    # Mandatory (catalog: "even one of yours"). "A minion", not "another": a Wyvern weakened to 3
    # here (Wyrm's Desolation) qualifies too (our reading of the card's words).
    yield from ctx.choose_and(
        ctx.destroy, ctx.one_of_each(ctx.targets(base=ctx.here, where=ctx.power_at_most(3))),
        "Destroy a minion of power 3 or less here.")


@wyvern.talent_ability()
def wyvern_flattens(ctx):
    ctx.change_breakpoint(ctx.here, -3)


imperial_dragon = dragons.minion("Imperial Dragon", power=3, copies=3, text=(
    "Ongoing: after another player plays a minion here or moves a minion here, draw a card."))


@imperial_dragon.trigger("minion_played", applies=_arrives_by_another)
def imperial_dragon_tolls_a_play(ctx, event):
    ctx.draw(ctx.me, 1)


@imperial_dragon.trigger("moved", applies=_arrives_by_another)
def imperial_dragon_tolls_a_move(ctx, event):
    ctx.draw(ctx.me, 1)


hatchling = dragons.minion("Hatchling", power=2, copies=4, text=(
    "Ongoing: after another player plays a minion here or moves a minion here, that minion has "
    "-1 power until the end of the turn."))


@hatchling.trigger("minion_played", applies=_arrives_by_another)
def hatchling_snaps_at_a_play(ctx, event):
    ctx.add_power(event.card, -1)


@hatchling.trigger("moved", applies=_arrives_by_another)
def hatchling_snaps_at_a_move(ctx, event):
    ctx.add_power(event.card, -1)


# ------------------------------------------------------------------------------ actions -------
walls = dragons.action("Bring Down the Walls", copies=2, attach="base", intent="help", text=(
    "Play on a base. Special: before this base scores, you may play a minion from your hand "
    "here as an extra minion."))


def _walls_open(ctx, scoring):
    return scoring.base == ctx.here and any(
        ctx.can_play(c, ctx.here) for c in ctx.hand() if ctx.is_minion(c))


@walls.special("before_scoring", zone="play", usable=_walls_open,
               label="Bring Down the Walls: play an extra minion on the scoring base")
def walls_breached(ctx, scoring):
    yield from ctx.play_extra_now(MINION, base=ctx.here)


dangerous_ground = dragons.action("Dangerous Ground", attach="base", intent="harm", text=(
    "Play on a base. Ongoing: after another player plays a minion here, that player discards a "
    "card."))


@dangerous_ground.trigger("minion_played", applies=lambda ctx, e: e.base == ctx.here
                          and e.player is not None and e.player != ctx.me)
def dangerous_ground_burns(ctx, event):
    # The current wording: a discard after the play, not a cost (catalog: AEG removed the old
    # clarification). The player discards a card of their choice; an empty hand discards nothing.
    seat = event.player
    hand = ctx.hand(seat)
    if not hand:
        return
    chosen = yield from ctx.choose_cards(ctx.one_of_each(hand), "Dangerous Ground: discard a card",
                                         1, 1, seat=seat, intent="harm")
    ctx.discard_from_hand(seat, chosen)


def _claim_scoring_base(ctx, scoring):
    # "You may also play this onto a base just before it scores": played as a Special onto the
    # scoring base, where it stays like any action played on a base.
    yield from ctx.attach(scoring.base)


dragon_lands = dragons.action("Dragon Lands", attach="base", intent="help", text=(
    "Play on a base. Ongoing: your minions here have +1 power. Special: you may also play this "
    "on a base just before it scores."))


@dragon_lands.modifier(to="here", local=True)
def dragon_lands_emboldens(ctx, minion):
    return 1 if ctx.base_of(minion) == ctx.here and ctx.controller(minion) == ctx.me else 0


dragon_lands.special("before_scoring",
                     label="Play Dragon Lands on the scoring base")(_claim_scoring_base)


intimidating_presence = dragons.action("Intimidating Presence", attach="base", intent="harm",
                                       text=(
    "Play on a base. Ongoing: other players' minions here have -1 power. Special: you may also "
    "play this on a base just before it scores."))


@intimidating_presence.modifier(to="here", local=True)
def intimidating_presence_cows(ctx, minion):
    return -1 if ctx.base_of(minion) == ctx.here and ctx.controller(minion) != ctx.me else 0


intimidating_presence.special("before_scoring",
                              label="Play Intimidating Presence on the scoring base")(
    _claim_scoring_base)


@dragons.action("Flank Attack", text=(
    "Search your deck and discard pile for an action that is played on a base, and play it at "
    "once as an extra action. Your deck is shuffled if it was searched."))
def flank_attack(ctx):
    # One search of both zones (the search verb's shape, as The Monarch); a deck with cards in
    # it is searched, so it is shuffled even when the action came from the discard pile.
    searched_deck = ctx.deck_size() > 0
    found = yield from ctx.search(
        "Play which action on a base?", zones=("deck", "discard"), to=None,
        where=lambda c: ctx.is_action(c) and ctx.attaches_to(c) == "base")
    if found:
        # "Play it immediately": found, it must be played (if it can be).
        yield from ctx.play_extra_now(ACTION, cards=found, optional=False)
    if searched_deck:
        ctx.shuffle_deck()


@dragons.action("Burn It Down", text=(
    "Choose a base: destroy it and every action on it, and replace it with the top base of the "
    "base deck or a base of your choice from the base discard pile. Its minions stay, on the new "
    "base."))
def burn_it_down(ctx):
    uid = yield from ctx.choose_base(ctx.bases(), "Burn down which base?", intent="harm")
    if uid is None:
        return
    # Rulebook clarification: the top base is chosen unseen (taken only once chosen); the actions
    # on the base's minions stay (destroy_base leaves them).
    choices = [("deck", "The top base of the base deck (unseen)")]
    choices += [(b, ctx.name(b)) for b in ctx.base_discard_pile()]
    pick = yield from ctx.choose_one("Replace it with which base?", choices)
    replacement = ctx.top_base() if pick == "deck" else pick
    if replacement is not None:  # no base left anywhere: nothing can replace it
        yield from ctx.destroy_base(uid, replacement)


ruins = dragons.action("Ruins", copies=2, attach="base", intent="harm", text=(
    "Play on a base. Ongoing: when this base scores, each other player awarded VP for their place "
    "here gets 1 VP less."))
ruins.modifies_placement_vp(_toll)


dragons.action("Raze", attach="base", cancels_base=True, intent="harm", text=(
    "Play on a base. Ongoing: this base's abilities are cancelled."))
