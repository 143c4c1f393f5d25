# Cython's declarations for core.py, read only by the compiled build (native.py); Python ignores
# this file. Option compiled is an extension type: a game makes tens of thousands (every play,
# target and answer offered), and its fields are C fields, set and read without a type lookup.
# They must be exactly its __slots__ (tests/engine/test_native.py checks).
cdef class Option:
    cdef public object id, _label, card, base, value, alike, play

# Event, Play, Grant, PlayRecord and MinionState likewise (their fields exactly their __slots__):
# hundreds of each are made a game, by the rules and by the main decision's legality generator.
cdef class Event:
    cdef public object kind, card, base, player, data, by_card, by_player

cdef class Play:
    cdef public object seat, card, kind, zone, base

cdef class Grant:
    cdef public object kind, free, max_power, base, source, zones, condition, card, via, once

cdef class PlayRecord:
    cdef public object seat, card, kind, base, phase, extra, special, turn_seat, via, zone

cdef class MinionState:
    cdef public object controller, counters, attached, entered, memory

# Decision likewise: every choice reads the open question (Game.apply, the bots), and its
# methods asked for each choice are C calls where it is typed.
cdef class Decision:
    cdef public object id, seat, kind, prompt, _options, min_count, max_count, source, reveal
    cdef public object intent, subject, _lazy
    cpdef option(self, option_id)
    cpdef option_count(self)
    cpdef option_id(self, index)
    cpdef answered(self)
    cpdef _listed(self)
