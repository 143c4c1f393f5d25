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

import cython

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


# Every bit of a 64-bit word (`_Bits`: the lowest `k` of them, `_ONES >> (64 - k)`); a C
# constant compiled.
_ONES = cython.declare(cython.ulonglong, 0xFFFFFFFFFFFFFFFF)


class _Bits:
    """The bits of a keyed stream not drawn yet (see the module's docstring), 64 at a time: the
    word being read (`word`, its lowest `word_bits` bits unread) and the unread words of the
    last block (`words`, the next one last). Compiled (rng.pxd) it is an extension type whose
    word and counts are C integers, so a draw of a few bits is a few machine operations, not
    the shifts and masks of a 512-bit integer (every shuffle and bot pick: about 1,700
    instructions a draw before). Pure Python reads the same bits in the same order."""

    __slots__ = ("prf", "counter", "word", "word_bits", "words")

    def __init__(self, prf):
        self.prf = prf
        self.counter = 0
        self.word = 0
        self.word_bits = 0
        self.words = []

    def _next_word(self) -> None:
        # The next 64 bits: from the last block, or from the next block of the stream.
        if not self.words:
            prf = self.prf.copy()
            prf.update(self.counter.to_bytes(8, "little"))
            self.counter += 1
            block = prf.digest()
            # Its words from the highest down, so that `pop()` gives them lowest first.
            self.words = [int.from_bytes(block[i:i + 8], "little") for i in range(56, -8, -8)]
        self.word = self.words.pop()
        self.word_bits = 64

    @cython.locals(k=cython.int, wb=cython.int, need=cython.int, low=cython.ulonglong,
                   high=cython.ulonglong, r=cython.ulonglong)
    def take(self, k: int) -> int:
        """The next `k` bits (1 to 64) as an integer, the first bit the lowest."""
        wb = self.word_bits
        if k <= wb:
            r = self.word & (_ONES >> (64 - k))
            self.word = self.word >> k if k < 64 else 0
            self.word_bits = wb - k
            return r
        low = self.word
        need = k - wb
        self._next_word()
        high = self.word & (_ONES >> (64 - need))
        self.word = self.word >> need if need < 64 else 0
        self.word_bits = 64 - need
        return low | (high << wb)

    @cython.locals(n=cython.longlong, k=cython.int, m=cython.longlong, r=cython.ulonglong,
                   wb=cython.int)
    def below(self, n: int) -> int:
        """A uniform int in [0, n) for 1 <= n < 2**62: `KeyedRandom._randbelow`, the standard
        library's rejection method (`k` bits until a number below `n`). A draw from the word
        being read is written here, not called (`take`): most are."""
        if cython.compiled:
            k = 0  # n.bit_length(), in C integers
            m = n
            while m:
                k += 1
                m >>= 1
        else:
            k = n.bit_length()
        while True:
            wb = self.word_bits
            if k <= wb:
                r = self.word & (_ONES >> (64 - k))
                self.word = self.word >> k if k < 64 else 0
                self.word_bits = wb - k
            else:
                r = self.take(k)
            if r < n:  # for n == 1: one bit at a time until a 0 bit
                return r

    def state(self) -> tuple:
        """(the unread bits as one integer, the first the lowest; how many): getstate's."""
        pool = self.word
        bits = self.word_bits
        for word in reversed(self.words):
            pool |= word << bits
            bits += 64
        return pool, bits

    def set_state(self, counter: int, pool: int, bits: int) -> None:
        self.counter = counter
        first = bits % 64  # a Python int: `1 << first` must not be a C int's shift
        self.word = pool & ((1 << first) - 1)
        self.word_bits = first
        pool >>= first
        words = []
        for _ in range(bits // 64):
            words.append(pool & _ONES)
            pool >>= 64
        words.reverse()
        self.words = words


# The largest `n` `_Bits.below` draws below (a C integer compiled); larger ones are drawn as the
# standard library does, from `getrandbits`.
_SMALL = 1 << 62


class KeyedRandom(random.Random):
    """A ``random.Random`` whose bits are keyed BLAKE2b in counter mode (see the module's docstring).

    The object holds its stream's key only (never the game's secret), its block counter and the bits
    of the last block not used yet (`_Bits`). ``getstate()`` is (version, the stream's fingerprint,
    counter, unused bits, their number, gauss_next): it changes whenever a number is drawn, and names
    no key.
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
        self._src = _Bits(hashlib.blake2b(key=key, digest_size=BLOCK_BITS // 8))
        # A public name of the stream, to refuse a state saved from another stream in setstate.
        self._fingerprint = hashlib.blake2b(key, digest_size=8, person=b"smashup-rng-fp").hexdigest()
        self.gauss_next = None

    def __reduce__(self):
        # copy, deepcopy and pickle: the same stream at the same point (random.Random's own reduce
        # would call the class with no secret).
        return (_restore_keyed, (type(self), self._key, self._label, self.getstate()))

    def __repr__(self) -> str:
        return f"<KeyedRandom stream {self._label!r} {self._fingerprint} at block {self._src.counter}>"

    def seed(self, *args, **kwargs):
        raise TypeError("a KeyedRandom is seeded by its secret and label; make a new one")

    @cython.locals(src=_Bits)
    def getrandbits(self, k: int) -> int:
        """The next `k` bits of the stream, as an integer (the first bit is the lowest)."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        src = self._src
        if k <= 64:
            return src.take(k) if k else 0
        value = shift = 0
        while k > 64:
            value |= src.take(64) << shift
            shift += 64
            k -= 64
        return value | (src.take(k) << shift)

    @cython.locals(src=_Bits)
    def _randbelow(self, n: int) -> int:
        """A uniform int in [0, n): the standard library's rejection method on `getrandbits`
        (random.Random._randbelow_with_getrandbits): every shuffle, choice and sample goes
        through here. Same bits, same results."""
        if 0 < n < _SMALL:
            src = self._src
            return src.below(n)
        k = n.bit_length()
        while True:
            r = self.getrandbits(k)
            if r < n:
                return r

    @cython.locals(src=_Bits, i=cython.Py_ssize_t)
    def shuffle(self, x) -> None:
        """random.Random.shuffle (Fisher-Yates from the end, `_randbelow(i + 1)` for each place):
        the same bits, the same order. Every deck and base deck shuffle comes through here."""
        src = self._src
        for i in reversed(range(1, len(x))):
            r = src.below(i + 1)
            x[i], x[r] = x[r], x[i]

    def random(self) -> float:
        """A float in [0, 1): 53 bits of the stream, as CPython's own generator makes one."""
        return self.getrandbits(53) * 2.0**-53

    def randbytes(self, n: int) -> bytes:
        return self.getrandbits(n * 8).to_bytes(n, "little")

    def getstate(self) -> tuple:
        pool, bits = self._src.state()
        return (KEYED, self._fingerprint, self._src.counter, pool, bits, self.gauss_next)

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
        self._src.set_state(counter, pool, bits)
        self.gauss_next = gauss_next


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
