# Cython's declarations for state.py, read only by the compiled build (native.py); Python ignores
# this file. GameState compiled is an extension type whose attributes are C fields: the rule
# modules, which type their `game` as a GameState, read `game.x` without the type and dictionary
# lookups a Python object needs (about a fifth of the instructions of a game). They must be
# exactly the attributes `GameState.__init__` sets (tests/engine/test_native.py checks): one
# missing here would be kept in the instance's dict, slowly. `__dict__` keeps other attributes
# working (a subclass's, a test's), `__weakref__` weak references (tests that see a finished game
# freed). A field that only ever holds a dict or a list (or None) is declared so: `.get`, `[k]`,
# `in` and `.append` on it are direct C calls, not method lookups by name (20 Core games: 1,699M
# -> 1,648M instructions under callgrind). Compiled, assigning it another type raises TypeError
# (test_native checks games keep to the types).
# BaseSlot and PlayerState likewise (their fields exactly their __slots__): a base's minions and
# card, a player's piles, read as C fields wherever a slot or a player is typed.
from smashup.engine.core cimport MinionState
from smashup.engine.registry cimport _Declares

cdef class BaseSlot:
    cdef public object uid, card
    cdef public list minions, actions

cdef class PlayerState:
    cdef public object seat, name, factions, bot, vp, mulliganed
    cdef public list deck, hand, discard

cdef class GameState:
    cdef dict __dict__
    cdef object __weakref__
    cdef public object _answer, _base_trigger_kinds, _cancelled, _cancelled_version, _depth
    cdef public object _controls_known, _counting, _breakpoints_read
    cdef public set _power_flags
    cdef public object _discard_offerers, _discard_offers, _entries, _flow, _here_bases, _loc_texts
    cdef public object _local_upto, _modifiers, _modifiers_version, _moved_kinds, _next_uid
    cdef public object _powers_version, _protections_version, _quiet_at, _seat_seen, _snapshot
    cdef public object _state_names, determinized_for, knowledge
    cdef public object _touched_bases, _trigger_index_of, _turn_seen, _turn_start_bases
    cdef public object _window_cards, _window_cards_of, bases_scored, config, current, decision_seq
    cdef public object digest_version, end_reason, final_turn, lazy_options, pending, phase
    cdef public object play_on_until, registry, resolution, rng, rng_version, scenario, seed
    cdef public object time_called_turn, track_hashes, turn, turn_state, version, winner
    cdef public dict _bonuses, _card_options, _chain_counts, _digest_static, _index_kinds
    cdef public dict _localities, _minion_play_options, _option_texts, _play_plans, _play_rows
    cdef public dict _powers, _slot_of, _special_cards, _static_views, _totals, _trigger_index
    cdef public dict action_state, breakpoint_sources, host_cancellers, left_cancelled
    cdef public dict minion_state, modifier_sources, play_offering, protectors, reactive, replacers
    cdef public dict resolving_to, restrictors, talented, wide_readers
    cdef public list _events, _protections, base_deck, base_discard, base_scorings, bases, choices
    cdef public list defs
    cdef public list disclosures, dropped_effects, hashes, lasting, loc, log_lines, owner, players
    cdef public list resolving, scoring_stack, shared_winners, special_checks
    # The primitives called thousands of times a game: C calls when compiled (a subclass's
    # override, Big Base's `container`, and a test's instance attribute, `emit`, are still found).
    cpdef container(self, zone)
    cpdef _place_in(self, cid, zone, index)
    cpdef move_card(self, cid, zone, index=*)
    cpdef slot(self, uid)
    cpdef base_def(self, slot)
    cpdef name(self, cid)
    cpdef base_of(self, cid)
    cpdef controller(self, cid)
    cpdef _board_moved(self, cid, zone)
    cpdef changed(self)
    cpdef _powers_changed_on(self, uids)
    cpdef _new_power_version(self)
    cpdef _working_kept(self, since, kind)
    cpdef log(self, text, to=*)
    cpdef pname(self, seat)
    cpdef emit(self, event)
    cpdef _take_events(self)
