# Cython's declarations for game.py, read only by the compiled build (native.py); Python ignores
# this file. Game compiled is an extension type whose attributes are C fields: its methods read
# `self.x` without the type and dictionary lookups a Python object needs (about a fifth of the
# instructions of a game). They must be exactly the attributes `Game.__init__` sets
# (tests/engine/test_native.py checks): one missing here would be kept in the instance's dict,
# slowly. `__dict__` keeps other attributes working (a subclass's, a test's), `__weakref__` weak
# references (tests that see a finished game freed).
cdef class Game:
    cdef dict __dict__
    cdef object __weakref__
    cdef public object _answer, _base_trigger_kinds, _bonuses, _cancelled, _cancelled_version
    cdef public object _card_options, _chain_counts, _depth, _digest_static, _discard_offerers
    cdef public object _discard_offers, _entries, _events, _flow, _here_bases, _index_kinds
    cdef public object _loc_texts, _local_upto, _localities, _minion_play_options, _modifiers
    cdef public object _modifiers_version, _moved_kinds, _next_uid, _option_texts, _play_plans
    cdef public object _play_rows, _powers, _powers_version, _protections, _protections_version
    cdef public object _seat_seen, _slot_of, _special_cards, _state_names, _static_views, _totals
    cdef public object _touched_bases, _trigger_index, _trigger_index_of, _turn_seen
    cdef public object _turn_start_bases, _window_cards, _window_cards_of, action_state
    cdef public object base_deck, base_discard, bases, bases_scored, breakpoint_sources, choices
    cdef public object config, current, decision_seq, defs, digest_version, disclosures
    cdef public object dropped_effects, end_reason, final_turn, hashes, host_cancellers, lasting
    cdef public object lazy_options, left_cancelled, loc, log_lines, minion_state
    cdef public object modifier_sources, owner, pending, phase, play_offering, play_on_until
    cdef public object players, protectors, reactive, registry, replacers, resolution, resolving
    cdef public object resolving_to, restrictors, rng, rng_version, scenario, scoring_stack, seed
    cdef public object shared_winners, special_checks, talented, time_called_turn, track_hashes
    cdef public object turn, turn_state, version, wide_readers, winner
    # Methods called thousands of times a game from Game itself: C calls when compiled (a
    # subclass's override, Big Base's, is still found).
    cpdef container(self, zone)
    cpdef _place_in(self, cid, zone, index)
    cpdef move_card(self, cid, zone, index=*)
    cpdef slot(self, uid)
    cpdef base_def(self, slot)
    cpdef name(self, cid)
    cpdef base_of(self, cid)
    cpdef controller(self, cid)
    cpdef base_active(self, slot)
    cpdef ability_active(self, cid, fresh=*)
    cpdef cancelled_cards(self)
    cpdef affects(self, source, source_player, target, kind=*)
    cpdef _board_moved(self, cid, zone)
    cpdef changed(self)
    cpdef power(self, cid)
    cpdef _new_power_version(self)
    cpdef _working_kept(self, since, kind)
    cpdef _count_base(self, slot)
    cpdef total_power(self, slot)
    cpdef log(self, text, to=*)
    cpdef pname(self, seat)
    cpdef emit(self, event)
    cpdef _take_events(self)
    cpdef _reactions_to(self, event)
    cpdef may_restrict(self)
    cpdef discard_offerers(self, seat)
    cpdef describe_minion(self, m)
