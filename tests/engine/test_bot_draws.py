"""The random bot draws from its generator exactly what `randint` then `sample` would (bots.py), so
seeded simulations and stored bot games are unchanged by its shortcut."""
from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from smashup.engine.bots import random_choice
from smashup.engine.core import Decision, Option
from smashup.engine.rng import stream


def reference(pending, rng) -> list[str]:
    count = rng.randint(pending.min_count, pending.max_count)
    return [o.id for o in rng.sample(pending.options, count)]


@pytest.mark.parametrize("make_rng", [lambda s: random.Random(s),
                                      lambda s: stream("ab" * 32, f"bot:{s}")])
def test_bots_draw_as_randint_and_sample(make_rng):
    for seed in range(40):
        ours, theirs = make_rng(seed), make_rng(seed)
        for n in (1, 2, 3, 7, 21, 22, 40):
            for low, high in ((1, 1), (0, 1), (1, 3), (0, n), (n, n)):
                if high > n:
                    continue
                d = Decision("d1", 0, "pick", "?", [Option(f"o{i}", str(i)) for i in range(n)],
                             low, high)
                game = SimpleNamespace(pending=d)
                assert random_choice(game, ours) == reference(d, theirs)
        assert ours.random() == theirs.random()  # the streams stayed in step
