"""The game's random generator (smashup/engine/rng.py): a keyed stream a player cannot predict from
what they see, the same `random.Random` interface for the engine, and old records replaying with the
Mersenne Twister they were played with (issue 12: the seed could be found from one's opening hand)."""
from __future__ import annotations

import _random
import copy
import hashlib
import json
import pickle
import random
from collections import Counter
from pathlib import Path

import pytest

import smashup.cards  # noqa: F401
from smashup.engine import ConfigError, Scenario, new_game, replay
from smashup.engine import rng as engine_rng
from smashup.engine import state as state_module
from smashup.engine.bots import random_choice
from smashup.engine.rng import KeyedRandom
from smashup.engine.simulate import play_game, simulate
from smashup.engine.testing import assert_refused

SECRET = "00112233445566778899aabbccddeeff" * 2  # 256 bits, as live play draws them
OTHER = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeefe"  # one bit differs
CONFIG = {"players": [{"factions": ["Aliens", "Ninjas"]}, {"factions": ["Pirates", "Robots"]}],
          "base_sets": "factions"}
# The config of the games stored before "each faction once per game": both seats Aliens and Ninjas.
# Their records replay (`shared_factions`), so the pinned deal below is of that config; its bases
# are the Core ones ("factions": what "all" dealt when the pin was taken).
MIRROR = {"players": [{"factions": ["Aliens", "Ninjas"]}, {"factions": ["Ninjas", "Aliens"]}],
          "base_sets": "factions"}
RECORDS = json.loads((Path(__file__).parent / "fixtures" / "rng_v1_records.json").read_text())["records"]


def state_hash(generator) -> str:
    return hashlib.sha256(repr(generator.getstate()).encode()).hexdigest()


def deal(game) -> tuple:
    """Where every card is after setup (decks, hands, bases in play, base deck) and who goes first."""
    return (tuple(tuple(p.deck) + tuple(p.hand) for p in game.players), tuple(game.loc),
            tuple(game.base_deck), game.current)


def opening(game) -> tuple:
    """What seat 0 sees at the start: its hand, the bases in play, who goes first."""
    return tuple(game.players[0].hand), tuple(s.card for s in game.bases), game.current


# ---------------------------------------------------------------------- old records --------------
@pytest.mark.parametrize("entry", RECORDS, ids=[e["name"] for e in RECORDS])
def test_a_record_made_before_the_keyed_generator_plays_the_same_game(entry):
    """The fixture was written by the code before this change (its "about" says which commit):
    no "rng" in the record means version 1, random.Random(seed): the same deal, the same shuffles,
    the same end, the generator in the same state."""
    record = entry["record"]
    assert "rng" not in record
    game = replay(copy.deepcopy(record), verify=False)
    assert game.rng_version == engine_rng.LEGACY and type(game.rng) is random.Random
    assert state_hash(game.rng) == entry["rng_state_hash"]  # the Mersenne Twister, bit for bit
    assert game.digest() == entry["final_digest"]
    assert [p.vp for p in game.players] == entry["final_vp"] and game.winner == entry["winner"]
    assert game.over == entry["over"]
    assert {k: v for k, v in game.record().items() if k != "hashes"} == {
        k: v for k, v in record.items() if k != "hashes"}  # written back the same: still no "rng"
    if "opening_hands" in entry:
        start = replay({**record, "choices": [], "hashes": []})
        assert [p.hand for p in start.players] == entry["opening_hands"]
        assert [s.card for s in start.bases] == entry["opening_bases"]


@pytest.mark.parametrize("entry", RECORDS, ids=[e["name"] for e in RECORDS])
def test_a_record_made_before_the_keyed_generator_replays_with_every_stored_hash(entry):
    """As live play rebuilds a stored game: every state hash of the record checked on the way
    (ReplayMismatch at the first drift)."""
    game = replay(copy.deepcopy(entry["record"]))
    assert game.hashes == entry["record"]["hashes"] and game.digest() == entry["final_digest"]


def test_a_version_1_record_cannot_name_a_secret_seed():
    """A record without "rng" is version 1, whose seeds are ints: a hex seed there is a damaged
    record, refused rather than played with another generator."""
    record = {"config": CONFIG, "seed": SECRET, "choices": []}
    with pytest.raises(ConfigError, match="version 1 seed is an integer"):
        replay(record)
    with pytest.raises(ConfigError, match="unknown random generator version"):
        replay({**record, "rng": 3})


# ---------------------------------------------------------------------- version 2 games ----------
def test_a_game_with_a_secret_uses_the_keyed_generator_and_says_so_in_its_record():
    game = new_game(CONFIG, SECRET, track_hashes=True)
    assert game.rng_version == engine_rng.KEYED and isinstance(game.rng, KeyedRandom)
    rng = random.Random(1)
    while game.pending is not None and len(game.choices) < 120:
        game.apply(game.pending.seat, game.pending.id, random_choice(game, rng))
    record = json.loads(json.dumps(game.record()))
    assert record["rng"] == 2 and record["seed"] == SECRET
    again = replay(record)
    assert again.digest() == game.digest() and again.rng.getstate() == game.rng.getstate()
    # Without its version the record would be read as version 1 and refused, never misplayed.
    with pytest.raises(ConfigError):
        replay({k: v for k, v in record.items() if k != "rng"})


def test_a_version_2_game_is_pinned():
    """Replays of stored version 2 games depend on every detail of the construction: pin it."""
    game = new_game(MIRROR, SECRET, shared_factions=True)
    assert opening(game) == ((23, 28, 21, 33, 12), (89, 87, 83), 0)
    assert hex(KeyedRandom(SECRET).getrandbits(64)) == "0xd48f8fcba9584ad4"
    assert hex(KeyedRandom(SECRET, "bot:3").getrandbits(64)) == "0x941fe0cbd4dc9834"


@pytest.mark.parametrize("seed, version, message", [
    (7, 2, "version 2 seed is a secret"),
    ("ab" * 15, None, "version 2 seed is a secret"),  # 120 bits: too few
    ("AB" * 16, None, "lowercase hex"),
    ("xy" * 16, None, "lowercase hex"),
    ("abc" * 11, None, "lowercase hex"),  # odd length
    ("ab" * 65, None, "lowercase hex"),  # longer than a BLAKE2b key
    (SECRET, 1, "version 1 seed is an integer"),
    (True, None, "version 1 seed is an integer"),
])
def test_a_weak_or_malformed_seed_is_refused(seed, version, message):
    with pytest.raises(ConfigError, match=message):
        new_game(CONFIG, seed, rng_version=version)


def test_the_seed_space_of_a_version_2_game_is_at_least_128_bits():
    assert engine_rng.MIN_SECRET_BYTES * 8 >= 128
    assert engine_rng.SECRET_BYTES * 8 == 256
    engine_rng.secret_bytes("ab" * engine_rng.MIN_SECRET_BYTES)  # the shortest accepted secret
    with pytest.raises(ConfigError):
        engine_rng.secret_bytes("ab" * (engine_rng.MIN_SECRET_BYTES - 1))


def test_scenarios_keep_small_int_seeds_and_may_use_a_secret():
    old = Scenario([("Aliens", "Ninjas"), ("Pirates", "Robots")]).build()
    assert old.rng_version == 1 and "rng" not in old.record()
    keyed = Scenario([("Aliens", "Ninjas"), ("Pirates", "Robots")], seed=SECRET)
    keyed.base("The Homeworld")
    game = keyed.build()
    assert game.rng_version == 2 and game.record()["rng"] == 2
    assert replay(game.record()).rng.getstate() == game.rng.getstate()


# ---------------------------------------------------------------------- the stream is keyed ------
def test_a_block_is_keyed_blake2b_of_its_counter():
    """The outputs are a keyed function (a MAC) of the block counter: without the key, knowing the
    label and the counter gives nothing."""
    secret = bytes.fromhex(SECRET)
    key = hashlib.blake2b(b"game", key=secret, digest_size=32, person=b"smashup-rng-v2").digest()
    blocks = [hashlib.blake2b(i.to_bytes(8, "little"), key=key, digest_size=64).digest() for i in range(2)]
    generator = KeyedRandom(SECRET, "game")
    assert generator.getrandbits(512) == int.from_bytes(blocks[0], "little")
    assert generator.getrandbits(512) == int.from_bytes(blocks[1], "little")
    # The label alone (the stream's name, which is public) is not its key.
    unkeyed = hashlib.blake2b((0).to_bytes(8, "little"), key=b"game", digest_size=64).digest()
    assert int.from_bytes(unkeyed, "little") != int.from_bytes(blocks[0], "little")


def test_the_same_counter_under_another_key_is_unrelated():
    """Secrets one bit apart give streams that differ in about half their bits (no locality that a
    search could climb), and so do two labels of one secret."""
    for a, b in [(KeyedRandom(SECRET), KeyedRandom(OTHER)),
                 (KeyedRandom(SECRET, "game"), KeyedRandom(SECRET, "bot:0"))]:
        for _ in range(8):
            x, y = a.getrandbits(512), b.getrandbits(512)
            assert 180 < bin(x ^ y).count("1") < 332


def test_same_secret_and_label_give_the_same_numbers():
    a, b = KeyedRandom(SECRET, "lobby:factions"), KeyedRandom(SECRET, "lobby:factions")
    deck_a, deck_b = list(range(40)), list(range(40))
    a.shuffle(deck_a)
    b.shuffle(deck_b)
    assert deck_a == deck_b
    assert [a.random() for _ in range(50)] == [b.random() for _ in range(50)]
    assert a.sample(range(100), 7) == b.sample(range(100), 7) and a.randint(1, 6) == b.randint(1, 6)


def untemper(value: int) -> int:
    """The Mersenne Twister's output function, inverted: an output gives one word of its state."""
    value ^= value >> 18
    value ^= (value << 15) & 0xEFC60000
    x = value
    for _ in range(5):
        x = value ^ ((x << 7) & 0x9D2C5680)
    value = x & 0xFFFFFFFF
    x = value
    for _ in range(3):
        x = value ^ (x >> 11)
    return x & 0xFFFFFFFF


def predicted_by_the_outputs(generator) -> tuple[list[int], list[int]]:
    """The classic attack on random.Random: 624 outputs give its whole state, so every later one."""
    seen = [generator.getrandbits(32) for _ in range(624)]
    clone = random.Random()
    clone.setstate((3, tuple(untemper(v) for v in seen) + (624,), None))
    return [clone.getrandbits(32) for _ in range(20)], [generator.getrandbits(32) for _ in range(20)]


def test_outputs_give_the_mersenne_twisters_next_output_but_not_the_keyed_streams():
    predicted, actual = predicted_by_the_outputs(random.Random(2**31 - 1))
    assert predicted == actual  # what made version 1 games open to anyone who watched long enough
    predicted, actual = predicted_by_the_outputs(KeyedRandom(SECRET))
    assert not set(predicted) & set(actual)


# ---------------------------------------------------------------------- the old attack ----------
def test_the_old_attack_finds_a_version_1_seed_from_one_hand_and_the_board():
    """The attack of issue 12, in miniature (seeds below 4096 instead of 2**31): seat 0 knows its five
    card ids, the bases and who goes first; trying every seed leaves the real one, and with it the
    other seat's hand and every draw to come."""
    victim = new_game(CONFIG, 2718)
    seen = opening(victim)
    found = [s for s in range(4096) if opening(new_game(CONFIG, s)) == seen]
    assert found == [2718]
    assert new_game(CONFIG, found[0]).players[1].hand == victim.players[1].hand


def test_a_version_2_deal_depends_on_the_secret_only_through_the_keyed_stream(monkeypatch):
    """Everything random in a game comes from its "game" stream: give the engine another secret's
    stream and the deal is that secret's deal. So what a seat sees is a function of the stream's
    outputs, which are a keyed function of the counter: guessing the secret means trying 2**128 or
    more keys (the least a version 2 seed may have), and no partial guess scores better than another."""
    def streams_of_other(seed, label, version):
        return KeyedRandom(OTHER, label)

    monkeypatch.setattr(state_module, "stream", streams_of_other)
    borrowed = new_game(CONFIG, SECRET)
    monkeypatch.undo()
    assert borrowed.seed == SECRET
    assert deal(borrowed) == deal(new_game(CONFIG, OTHER))
    assert deal(borrowed) != deal(new_game(CONFIG, SECRET))


def test_one_bit_of_the_secret_changes_the_whole_deal():
    """No bit of the secret can be found on its own from the opening: flipping any one of them
    gives another deal."""
    key = bytes.fromhex(SECRET)
    base = new_game(CONFIG, SECRET)
    for bit in range(0, 256, 7):
        flipped = bytearray(key)
        flipped[bit // 8] ^= 1 << (bit % 8)
        other = new_game(CONFIG, flipped.hex())
        assert other.players[0].deck + other.players[0].hand != base.players[0].deck + base.players[0].hand


def test_no_view_names_the_seed_or_a_stream_key():
    game = new_game(CONFIG, SECRET)
    rng = random.Random(4)
    key = engine_rng.stream_key(SECRET, "game").hex()
    for _ in range(60):
        for viewer in (None, 0, 1):
            text = json.dumps(game.view(viewer))
            assert SECRET not in text and SECRET[:32] not in text and key[:32] not in text
        game.apply(game.pending.seat, game.pending.id, random_choice(game, rng))
    assert SECRET not in repr(game.rng.getstate()) and SECRET not in repr(game.rng)
    assert key not in repr(game.rng.getstate()) and key not in repr(game.rng)


# ---------------------------------------------------------------------- random.Random interface --
def test_it_keeps_the_standard_unbiased_algorithms():
    # Its _randbelow (under shuffle, choice, sample, randrange) is the standard library's rejection
    # method on getrandbits, written out for speed: the same numbers from the same bits.
    mine, standard = KeyedRandom(SECRET, "below"), KeyedRandom(SECRET, "below")
    for n in (1, 2, 3, 6, 7, 8, 40, 1000, 2**40 + 3, 2**600 + 1):
        assert [mine._randbelow(n) for _ in range(200)] == [
            random.Random._randbelow_with_getrandbits(standard, n) for _ in range(200)]
    generator = KeyedRandom(SECRET, "statistics")
    counts = Counter(generator.randrange(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    chi2 = sum((c - 10_000) ** 2 / 10_000 for c in counts.values())
    assert chi2 < 20.5  # p > 0.001 with 5 degrees of freedom
    perms = Counter(tuple(generator.sample(range(3), 3)) for _ in range(12_000))
    assert len(perms) == 6 and all(1700 < c < 2300 for c in perms.values())
    floats = [generator.random() for _ in range(10_000)]
    assert all(0.0 <= f < 1.0 for f in floats) and 0.48 < sum(floats) / len(floats) < 0.52
    assert generator.getrandbits(0) == 0 and 0 <= generator.getrandbits(1000) < 2**1000
    with pytest.raises(ValueError):
        generator.getrandbits(-1)


def test_its_shuffle_and_one_bit_draws_take_the_standard_bits_in_the_standard_order():
    # `shuffle` (written out, the pool in locals) and `_randbelow(1)` (every bit up to the first
    # 0 taken at once) must leave the stream exactly where the library's algorithms leave it,
    # whatever else is drawn in between, across block boundaries: decks and bots depend on it.
    class Standard(KeyedRandom):
        def _randbelow(self, n):
            return random.Random._randbelow_with_getrandbits(self, n)

        def shuffle(self, x):
            random.Random.shuffle(self, x)

    steps = random.Random(7)
    for label in ("a", "b", "c"):
        mine, standard = KeyedRandom(SECRET, label), Standard(SECRET, label)
        for _ in range(4000):
            step = steps.randrange(5)
            if step == 0:
                n = steps.choice([1, 1, 1, 2, 5, 64, 2**70, 2**600 + 3])
                assert mine._randbelow(n) == standard._randbelow(n)
            elif step == 1:
                cards = list(range(steps.randrange(90)))
                copied = list(cards)
                mine.shuffle(cards)
                standard.shuffle(copied)
                assert cards == copied
            elif step == 2:
                bits = steps.randrange(700)
                assert mine.getrandbits(bits) == standard.getrandbits(bits)
            elif step == 3:
                assert mine.sample(range(40), 6) == standard.sample(range(40), 6)
            else:
                assert mine.randint(3, 3) == standard.randint(3, 3)
            assert mine.getstate() == standard.getstate()


def test_the_mersenne_twister_underneath_is_never_used():
    generator = KeyedRandom(SECRET)
    inner = _random.Random.getstate(generator)
    items = list(range(30))
    generator.shuffle(items)
    generator.sample(items, 5)
    generator.choice(items)
    generator.choices(items, k=5)
    generator.randrange(3, 300, 7)
    generator.randint(1, 6)
    generator.random()
    generator.uniform(1, 2)
    generator.gauss()
    generator.triangular()
    generator.expovariate(1.0)
    generator.randbytes(9)
    generator.getrandbits(77)
    assert _random.Random.getstate(generator) == inner
    with pytest.raises(TypeError):
        generator.seed(5)


def test_getstate_and_setstate_go_back_and_refuse_another_streams_state():
    generator = KeyedRandom(SECRET)
    generator.getrandbits(5)
    saved = generator.getstate()
    ahead = [generator.random() for _ in range(40)]  # crosses blocks
    assert generator.getstate() != saved
    generator.setstate(saved)
    assert generator.getstate() == saved and [generator.random() for _ in range(40)] == ahead
    other = KeyedRandom(SECRET, "bot:1")
    before = other.getstate()
    for bad in (saved, random.Random(1).getstate(), (2, "x"), saved[:2] + (-1,) + saved[3:]):
        with pytest.raises(ValueError):
            other.setstate(bad)
        assert other.getstate() == before


def test_copy_and_pickle_continue_the_same_stream():
    generator = KeyedRandom(SECRET)
    generator.getrandbits(100)
    for twin in (copy.deepcopy(generator), pickle.loads(pickle.dumps(generator)), copy.copy(generator)):
        assert twin.getstate() == generator.getstate()
        assert twin.getrandbits(600) == copy.deepcopy(generator).getrandbits(600)


def test_a_shuffle_changes_the_state_and_a_refused_choice_does_not():
    """Live play's undo compares the generator's states before and after a choice (play/undo.py),
    and testing.assert_refused compares them too: both must see a shuffle and nothing else."""
    game = new_game(CONFIG, SECRET)
    before = game.rng.getstate()
    game.rng.shuffle(game.players[0].deck)
    assert game.rng.getstate() != before
    assert_refused(game, ["no-such-option"])


# ---------------------------------------------------------------------- simulate -----------------
def test_simulate_plays_with_the_keyed_generator_and_its_records_replay():
    result = simulate(3, [2, 3], seed=5, keep_record=True)
    assert result["violations"] == 0 and result["rng"] == 2
    record = json.loads(json.dumps(result["record"]))
    assert record["rng"] == 2 and len(record["seed"]) == 64
    assert replay(record).digest() == replay(record).digest()
    # The same arguments give the same games; version 1 plays them as older simulations did.
    assert simulate(3, [2, 3], seed=5, check=False)["digest"] == result["digest"]
    old = simulate(3, [2, 3], seed=5, check=False, rng_version=1)
    assert old["digest"] != result["digest"] and old["rng"] == 1


def test_play_game_bots_use_keyed_streams_for_a_secret():
    game, problems = play_game({**CONFIG, "players": [dict(p, bot="random") for p in CONFIG["players"]]},
                               SECRET)
    assert not problems and game.over and game.rng_version == 2
