"""The game's random numbers: a keyed generator that a player cannot predict from what they see.

Version 1 (every record without an ``"rng"`` entry): ``random.Random(seed)``, the Mersenne Twister,
with the small integer seeds live play used to draw (below 2**31). It stays only so that records made
with it replay exactly as they were played; a player who knew their opening hand could recover such a
seed by trying them all, and with it every hand and every future draw.

Version 2 (``"rng": 2`` in the record): ``KeyedRandom``, keyed BLAKE2b in counter mode.

- The secret seed is at least 128 bits (live play draws 256: 64 hex digits, ``secrets.token_hex(32)``).
  It is never shown while the game runs; only the record holds it.
- Each purpose has its own stream, named by a label ("game" for the engine's shuffles and draws; live
  play adds the lobby's faction draws, the table draft and each bot move). The stream's key is
  ``BLAKE2b-256(data=label, key=secret, person=PERSON)``, so streams are unrelated to each other and
  a stream's key tells nothing about the secret or the other streams.
- Block ``i`` of a stream is ``BLAKE2b-512(data=i as 8 bytes little-endian, key=stream key)``; the
  stream is the blocks one after the other, each read as a little-endian integer, its bits taken from
  the lowest. Keyed BLAKE2b is a pseudorandom function, so without the key its outputs are unrelated
  to each other: seeing any number of them (a hand, the board, a bot's moves) does not give the next
  one, nor the key. There is no state to recover from outputs, unlike the Mersenne Twister.
- It is a ``random.Random`` (it overrides ``random``, ``getrandbits``, ``getstate`` and ``setstate``),
  so ``shuffle``, ``randrange``, ``choice``, ``sample`` keep the standard library's unbiased
  algorithms (``_randbelow`` by rejection on ``getrandbits``) and the engine needs no other change.
  Same secret, same label, same calls: same numbers, on any machine (replay).
"""
from __future__ import annotations

import hashlib
import random
import re

from .core import ConfigError

# The generator versions a record may name ("rng": N); a record without one is version 1.
LEGACY = 1
KEYED = 2
VERSIONS = (LEGACY, KEYED)
CURRENT = KEYED

SECRET_BYTES = 32  # what callers should draw: 256 bits
MIN_SECRET_BYTES = 16  # the least a version 2 secret may have: 128 bits
MAX_SECRET_BYTES = 64  # BLAKE2b's largest key
GAME_STREAM = "game"  # the engine's own stream: deck and base deck shuffles, the first player

PERSON = b"smashup-rng-v2"  # BLAKE2b's personalisation: these keys are used for nothing else
BLOCK_BITS = 512
_HEX = re.compile(r"[0-9a-f]+")


def secret_bytes(secret: str) -> bytes:
    """The key of a version 2 secret: lowercase hex of 16 to 64 bytes. ConfigError otherwise."""
    if (
        not isinstance(secret, str)
        or len(secret) % 2
        or not MIN_SECRET_BYTES * 2 <= len(secret) <= MAX_SECRET_BYTES * 2
        or not _HEX.fullmatch(secret)
    ):
        raise ConfigError(
            f"a version {KEYED} seed is a secret of {MIN_SECRET_BYTES * 8} to {MAX_SECRET_BYTES * 8} "
            "bits written as lowercase hex digits"
        )
    return bytes.fromhex(secret)


def stream_key(secret: str, label: str) -> bytes:
    """The key of one purpose's stream: a keyed hash of its label under the secret."""
    if not isinstance(label, str) or not label:
        raise ConfigError("a random stream needs a label naming its purpose")
    return hashlib.blake2b(label.encode(), key=secret_bytes(secret), digest_size=32, person=PERSON).digest()


class KeyedRandom(random.Random):
    """A ``random.Random`` whose bits are keyed BLAKE2b in counter mode (see the module's docstring).

    The object holds its stream's key only (never the game's secret), its block counter and the bits
    of the last block not used yet. ``getstate()`` is (version, the stream's fingerprint, counter,
    unused bits, their number, gauss_next): it changes whenever a number is drawn, and names no key.
    """

    def __new__(cls, *args, **kwargs):
        # The C base seeds a Mersenne Twister in __new__; a fixed seed spares reading os.urandom for
        # a state that is never used (every method below draws from the keyed stream).
        return super().__new__(cls, 0)

    def __init__(self, secret: str, label: str = GAME_STREAM):
        self._init_stream(stream_key(secret, label), label)

    def _init_stream(self, key: bytes, label: str) -> None:
        self._key = key
        self._label = label
        self._prf = hashlib.blake2b(key=key, digest_size=BLOCK_BITS // 8)
        # A public name of the stream, to refuse a state saved from another stream in setstate.
        self._fingerprint = hashlib.blake2b(key, digest_size=8, person=b"smashup-rng-fp").hexdigest()
        self._counter = 0
        self._pool = 0
        self._bits = 0
        self.gauss_next = None

    def __reduce__(self):
        # copy, deepcopy and pickle: the same stream at the same point (random.Random's own reduce
        # would call the class with no secret).
        return (_restore_keyed, (type(self), self._key, self._label, self.getstate()))

    def __repr__(self) -> str:
        return f"<KeyedRandom stream {self._label!r} {self._fingerprint} at block {self._counter}>"

    def seed(self, *args, **kwargs):
        raise TypeError("a KeyedRandom is seeded by its secret and label; make a new one")

    def _block(self) -> int:
        prf = self._prf.copy()
        prf.update(self._counter.to_bytes(8, "little"))
        self._counter += 1
        return int.from_bytes(prf.digest(), "little")

    def getrandbits(self, k: int) -> int:
        """The next `k` bits of the stream, as an integer (the first bit is the lowest)."""
        if k <= self._bits:
            if k < 0:
                raise ValueError("number of bits must be non-negative")
            value = self._pool & ((1 << k) - 1)
            self._pool >>= k
            self._bits -= k
            return value
        pool, bits = self._pool, self._bits
        while bits < k:
            pool |= self._block() << bits
            bits += BLOCK_BITS
        self._pool = pool >> k
        self._bits = bits - k
        return pool & ((1 << k) - 1)

    def _randbelow(self, n: int) -> int:
        """A uniform int in [0, n): the standard library's rejection method on `getrandbits`
        (random.Random._randbelow_with_getrandbits), written out to spare a call per draw: every
        shuffle, choice and sample goes through here. Same bits, same results; the pool is read
        and written back once (its attributes cost more than the arithmetic)."""
        pool, bits = self._pool, self._bits
        if n == 1:
            # One bit at a time until a 0 bit (r < 1): every bit up to the lowest 0 bit of the
            # pool is taken at once. The pool holds exactly `bits` bits, so a lowest 0 bit at
            # `bits` means every bit left was a 1: all are taken and a new block is read.
            while True:
                zero = (~pool & (pool + 1)).bit_length() - 1
                if zero < bits:
                    self._pool = pool >> (zero + 1)
                    self._bits = bits - zero - 1
                    return 0
                pool, bits = self._block(), BLOCK_BITS
        k = n.bit_length()
        mask = (1 << k) - 1
        while True:
            while bits < k:  # getrandbits: whole blocks above the bits left
                pool |= self._block() << bits
                bits += BLOCK_BITS
            r = pool & mask
            pool >>= k
            bits -= k
            if r < n:
                self._pool = pool
                self._bits = bits
                return r

    def shuffle(self, x) -> None:
        """random.Random.shuffle (Fisher-Yates from the end, `_randbelow(i + 1)` for each place)
        with `_randbelow` written out and the pool kept in locals: the same bits, the same
        order. Every deck and base deck shuffle comes through here."""
        pool, bits = self._pool, self._bits
        for i in reversed(range(1, len(x))):
            n = i + 1
            k = n.bit_length()
            mask = (1 << k) - 1
            while True:
                while bits < k:  # getrandbits: whole blocks above the bits left
                    pool |= self._block() << bits
                    bits += BLOCK_BITS
                r = pool & mask
                pool >>= k
                bits -= k
                if r < n:
                    break
            x[i], x[r] = x[r], x[i]
        self._pool, self._bits = pool, bits

    def random(self) -> float:
        """A float in [0, 1): 53 bits of the stream, as CPython's own generator makes one."""
        return self.getrandbits(53) * 2.0**-53

    def randbytes(self, n: int) -> bytes:
        return self.getrandbits(n * 8).to_bytes(n, "little")

    def getstate(self) -> tuple:
        return (KEYED, self._fingerprint, self._counter, self._pool, self._bits, self.gauss_next)

    def setstate(self, state) -> None:
        """Go back to a state this same stream was in (undo, tests). A state of another stream or of
        another generator raises ValueError and changes nothing."""
        if not isinstance(state, tuple) or len(state) != 6 or state[0] != KEYED:
            raise ValueError("not a state of a version 2 keyed generator")
        _, fingerprint, counter, pool, bits, gauss_next = state
        if fingerprint != self._fingerprint:
            raise ValueError("this state belongs to another random stream")
        if not (
            isinstance(counter, int) and isinstance(pool, int) and isinstance(bits, int)
            and counter >= 0 and 0 <= bits < BLOCK_BITS and (counter or not bits) and 0 <= pool < (1 << bits)
        ):
            raise ValueError("a damaged random state")
        self._counter, self._pool, self._bits, self.gauss_next = counter, pool, bits, gauss_next


def _restore_keyed(cls, key: bytes, label: str, state: tuple) -> KeyedRandom:
    generator = cls.__new__(cls)
    generator._init_stream(key, label)
    generator.setstate(state)
    return generator


def version_for(seed, version: int | None = None) -> int:
    """The generator version of a game: `version` when given (checked against the seed), else the one
    the seed's form names: an int is a version 1 seed (old records, tests), a hex secret version 2."""
    if version is None:
        version = KEYED if isinstance(seed, str) else LEGACY
    if version not in VERSIONS:
        raise ConfigError(f"unknown random generator version {version!r} (known: {list(VERSIONS)})")
    if version == LEGACY and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise ConfigError(f"a version {LEGACY} seed is an integer")
    if version == KEYED:
        secret_bytes(seed)
    return version


def stream(seed, label: str, version: int | None = None) -> random.Random:
    """The generator of one purpose. Version 2: the keyed stream `label` of the secret. Version 1:
    ``random.Random(seed)`` for the game's own stream (as old records were played), and for any
    other purpose ``random.Random(f"{seed}:{label}")``."""
    version = version_for(seed, version)
    if version == KEYED:
        return KeyedRandom(seed, label)
    return random.Random(seed) if label == GAME_STREAM else random.Random(f"{seed}:{label}")


def derived_secret(text: str) -> str:
    """A version 2 secret computed from public text: for tools whose games must be reproducible
    from their arguments (``simulate --seed``), never for a game people play."""
    return hashlib.blake2b(text.encode(), digest_size=SECRET_BYTES, person=b"smashup-derived").hexdigest()
