"""Superheroes (It's Your Fault!): Mild Mannered Citizens who step aside for power-5 heroes, and
actions that make a hero stronger or a villain's minion weaker. Catalog: iyf.yaml, Superheroes;
the rulebook's clarification on Mind Lady (the cancel outlasts her)."""
from smashup.engine import MINION, Faction

superheroes = Faction("Superheroes", set="iyf")

HERO = 5  # "a minion of power 5 or more"


def _mine_here(ctx, m) -> bool:
    return ctx.controller(m) == ctx.me and ctx.base_of(m) == ctx.here


def _bring_out(ctx, where, uid, prompt):
    """Search your deck for a minion that passes `where` and play it onto base `uid` as an extra
    minion, then shuffle your deck (Mild Mannered Citizen, Radioactive Exposure). A deck with a
    fitting minion gives one up (searching for a card that is there finds it); one the rules
    forbid there (Block the Path) stays in the deck."""
    searched = ctx.deck_size() > 0
    found = yield from ctx.search(prompt, where=lambda c: ctx.is_minion(c) and where(c),
                                  min_count=1, to=None)
    if found and uid in ctx.bases():
        yield from ctx.play_extra_now(MINION, base=uid, cards=found, optional=False)
    if searched:
        ctx.shuffle_deck()


# ------------------------------------------------------------------------------ minions -------
awesome_guy = superheroes.minion("Awesome Guy", power=5, text=(
    "Ongoing: your minions on this base cannot be destroyed by cards other players control."))


@awesome_guy.protection("destroy", from_="other_players_cards")
def awesome_guy_guards(ctx, m):
    # Other players' cards only: a base's ability (nobody's card) still destroys them.
    return _mine_here(ctx, m)


captain_amazing = superheroes.minion("Captain Amazing", power=5, text=(
    "Talent: each of your minions on this base gets +1 power until the end of the turn."))


@captain_amazing.talent_ability()
def captain_amazing_rallies(ctx):
    # AEG: the minions there now; one played here afterwards gets nothing.
    for m in ctx.minions(base=ctx.here, controller=ctx.me):
        ctx.add_power(m, 1)


mind_lady = superheroes.minion("Mind Lady", power=5, text=(
    "Talent: choose a minion another player controls; its abilities are cancelled until the "
    "start of your next turn."))


def _others_minions(ctx):
    return ctx.targets(where=lambda m: ctx.controller(m) != ctx.me, effect=ctx.cancel_abilities)


@mind_lady.talent_ability(usable=lambda ctx: bool(_others_minions(ctx)))
def mind_lady_overpowers(ctx):
    target = yield from ctx.choose_minion(ctx.one_of_each(_others_minions(ctx)),
                                          "Cancel the abilities of which minion?", intent="harm")
    if target is not None:
        # IYF clarification: the cancel lasts its whole time even if Mind Lady leaves play.
        ctx.cancel_abilities(target, until="start_of_your_next_turn")


the_burst = superheroes.minion("The Burst", power=5, text=(
    "Ongoing: after any player plays a minion on any base, you may move this minion to that "
    "base."))


def _burst_elsewhere(ctx, event) -> bool:
    return (event.base is not None and event.base in ctx.bases()
            and event.base != ctx.base_of(ctx.card))


@the_burst.trigger("minion_played", applies=_burst_elsewhere,
                   optional="Move The Burst to the base where that minion was played?")
def the_burst_rushes(ctx, event):
    if _burst_elsewhere(ctx, event):
        yield from ctx.move(ctx.card, event.base)


citizen = superheroes.minion("Mild Mannered Citizen", power=2, copies=5, text=(
    "Ongoing: at the start of your turn you may destroy this minion; if you do, search your deck "
    "for a minion of power 5 or more, play it onto the base this minion was on as an extra "
    "minion, and shuffle your deck."))


@citizen.trigger("turn_start", applies=lambda ctx, event: event.player == ctx.me,
                 optional="Destroy this Mild Mannered Citizen to bring out a hero from your deck?")
def citizen_changes(ctx, event):
    here = ctx.here  # where it was: once destroyed it is on no base
    if not (yield from ctx.destroy(ctx.card)):
        return  # "if you do": a protected or replaced destruction finds no hero
    yield from _bring_out(ctx, lambda c: ctx.printed_power(c) >= HERO, here,
                          "Which minion of power 5 or more do you play?")


# ------------------------------------------------------------------------------ actions -------
expanded_power = superheroes.action("Expanded Power", attach="minion", intent="help", text=(
    "Play on a minion. Ongoing: it has +1 power and cannot be destroyed by other players."))


@expanded_power.modifier(to="host", local=True)
def expanded_power_boost(ctx, m):
    return 1 if ctx.host_of(ctx.card) == m else 0


@expanded_power.protection("destroy", from_="other_players")
def expanded_power_guards(ctx, m):
    # "Other players": other than this action's controller, whoever controls the minion.
    return ctx.host_of(ctx.card) == m


@superheroes.action("Golden Age", copies=2, text=(
    "Put up to three minion cards from your discard pile on the bottom of your deck."))
def golden_age(ctx):
    minions = [c for c in ctx.discard_pile() if ctx.is_minion(c)]
    chosen = yield from ctx.choose_any_number(
        minions, "Put a minion from your discard pile on the bottom of your deck?",
        intent="help", max_count=3)
    ctx.put_on_deck(chosen, bottom=True)


@superheroes.action("Justice Friends", copies=2, text=(
    "Each of your minions in play with power 5 or more gets +2 power until the end of the turn."))
def justice_friends(ctx):
    # Which minions is settled first, then each gets its +2 (AEG: one played later gets none).
    heroes = [m for m in ctx.minions(controller=ctx.me) if ctx.power(m) >= HERO]
    for m in heroes:
        ctx.add_power(m, 2)


superheroes.action("My Only Weakness!", attach="minion", cancels_host=True, intent="harm",
                   text="Play on a minion. Ongoing: its abilities are cancelled.")


@superheroes.action("Not Really Dead", copies=2, text=(
    "Put up to two minions of power 2 or less from your discard pile into your hand."))
def not_really_dead(ctx):
    small = [c for c in ctx.discard_pile() if ctx.is_minion(c) and ctx.printed_power(c) <= 2]
    chosen = yield from ctx.choose_any_number(
        small, "Put a minion of power 2 or less from your discard pile into your hand?",
        intent="help", max_count=2)
    for c in chosen:
        ctx.place_in_hand(c)


@superheroes.action("Radioactive Exposure", text=(
    "Destroy one of your minions; if you do, search your deck for a minion with more power than "
    "it had, play it onto the same base as an extra minion, and shuffle your deck."))
def radioactive_exposure(ctx):
    mine = ctx.one_of_each(ctx.targets(controller=ctx.me, effect=ctx.destroy))
    m = yield from ctx.choose_minion(mine, "Destroy which of your minions?", intent="harm")
    if m is None:
        return
    # Catalog reading: the power it had when it was destroyed, strictly exceeded.
    had, here = ctx.power(m), ctx.base_of(m)
    if not (yield from ctx.destroy(m)):
        return
    yield from _bring_out(ctx, lambda c: ctx.printed_power(c) > had, here,
                          f"Which minion of power more than {had} do you play?")


secret_base = superheroes.action("Secret Base", attach="base", intent="help", text=(
    "Play on a base. Ongoing: your minions of power 3 or less here cannot be destroyed by other "
    "players."))


@secret_base.protection("destroy", from_="other_players")
def secret_base_hides(ctx, m):
    return _mine_here(ctx, m) and ctx.power(m) <= 3


@superheroes.action("Sidekick", text=(
    "Choose a base where you have a minion of power 5 or more. Play a minion of power 2 or less "
    "from your hand there as an extra minion."))
def sidekick(ctx):
    bases = [u for u in ctx.bases()
             if any(ctx.power(m) >= HERO for m in ctx.minions(base=u, controller=ctx.me))]
    small = [c for c in ctx.hand() if ctx.is_minion(c) and ctx.printed_power(c) <= 2]
    picked = yield from ctx.choose_play(small, bases, "Which minion, onto which base?",
                                        optional=False)
    if picked is not None:
        yield from ctx.play_minion(*picked)
