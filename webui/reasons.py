"""The judge's reasons for an illegal play, in the page's language, by their stable code.

``engine.judge`` explains an illegal play with reasons that carry a machine ``code`` (see
``engine.judge.REASON_CODES``) and plain English words with the details (points, dice, plays).
The web app says each code's rule in the reader's language, in the terms players use; the
English details stay beside it for the referee (they name the checkers and points).
"""

from __future__ import annotations

from flask_babel import gettext as _


def reason_texts() -> dict[str, str]:
    """Every reason code -> the rule it breaks, in the current language."""
    return {
        "no_move_made": _("No move was made, although a play was possible"),
        "no_move_possible": _("No move was possible, yet checkers moved"),
        "wrong_side": _("The wrong player moved"),
        "must_use_both_dice": _("Both dice must be played when they can be"),
        "must_use_higher_die": _("When only one die can be played, the higher one must be played"),
        "must_use_all_doubles": _("All four moves of a double must be played when they can be"),
        "enter_from_bar_first": _("A checker on the bar must enter before any other checker moves"),
        "landed_on_blocked_point": _("A checker landed on a point held by the opponent"),
        "bear_off_not_home": _("Bearing off is allowed only with all checkers in the home board"),
        "bear_off_higher_point_occupied": _(
            "A higher die bears off only when no checker is on a higher point"),
        "bear_off_die_too_small": _("The dice do not reach to bear that checker off"),
        "checkers_appeared": _("Checkers appeared on the board"),
        "checkers_disappeared": _("Checkers disappeared from the board"),
        "moved_backwards": _("A checker moved backwards"),
        "opponent_moved": _("The opponent's checkers moved"),
        "hit_not_on_bar": _("A hit checker was not put on the bar"),
        "sent_to_bar_without_hit": _("A checker was put on the bar without being hit"),
        "too_many_pips": _("More pips were moved than the dice allow"),
        "dice_mismatch": _("A checker moved a distance the dice do not make"),
        "not_a_legal_play": _("Not a legal play for this roll"),
        "head_rule": _("Too many checkers left the head"),
        "six_block": _("Six points in a row are not allowed here"),
        "first_checker": _("Another checker moved before the first one had gone far enough"),
        "start_quarter_full": _("All six points of the start quarter may not be held"),
        "hitter_hidden": _("The hitting checker may not move on onto its own checkers"),
        "pinned_checker_moved": _("A pinned checker moved"),
        "bear_off_while_pinned": _("Bearing off is not allowed while a checker is pinned"),
    }

