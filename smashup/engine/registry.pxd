# Cython's declarations for registry.py, read only by the compiled build (native.py); Python
# ignores this file. Trigger and Protection compiled are extension types: the rules read them for
# every event emitted (`_reactions_to`) and every power modifier and target (`affects`), as C
# fields where typed. Their fields must be exactly their __slots__ (tests/engine/test_native.py
# checks).
cdef class Trigger:
    cdef public object event, applies, run, optional_label, leaves_play, index

cdef class Protection:
    cdef public object kind, covers, from_, only, local

# CardDef and BaseDef likewise, and what they share (`_Declares`), read of every card in play
# wherever a definition is typed: `cdef _Declares d` for a card or a base, CardDef for a card.
cdef class _Declares:
    cdef public object name, kind, is_minion, is_action, faction, set, text, copies, power
    cdef public object triggers, specials, power_modifier, modifier_to, modifier_local
    cdef public object starting_breakpoint, breakpoint_modifier, protections, replacements
    cdef public object turn_grants, play_sources

cdef class CardDef(_Declares):
    cdef public object attach, attach_filter, on_play, talent, talent_usable
    cdef public object placement_vp_modifier, new_base_picker, new_base_follow_up, restrictions
    cdef public object restrictions_here, restrictions_elsewhere, cancels_base, cancels_host
    cdef public object host_ability
    cdef public object no_effect_in_big_base, is_special_only, playable_as, intent

cdef class BaseDef(_Declares):
    cdef public object breakpoint, vp, before_scoring, when_scoring, after_scoring
    cdef public object after_replaced, replace_from, at_turn_start
