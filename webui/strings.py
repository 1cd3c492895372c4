"""Texts the page scripts show, translated on the server and handed to the page as JSON."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from .reasons import reason_texts


def variant_names() -> dict[str, str]:
    """Each variant of ``engine.rules`` (by its name) as players say it in the page's language."""
    return {
        "backgammon": _("Backgammon"),
        "portes": _("Portes"),
        "uzun tavla": _("Tavla"),
        "plakoto": _("Plakoto"),
        "fevga": _("Fevga"),
        "long nardi": _("Long Nardi"),
        "short nardi": _("Short Nardi"),
        "caucasian nardi": _("Caucasian Nardi"),
        "tavli": _("Tavli"),
    }


def js_strings() -> dict[str, Any]:
    return {
        "white": _("White"), "black": _("Black"),
        "live": _("Live"),
        "stale_since": _("Stale since %(t)s: reconnecting…", t="{t}"),
        "to_roll": _("{p} to roll"), "to_play": _("{p} to play {d}"),
        "opening": _("Opening roll"), "doubled": _("{p} doubles to {v}: {o} to take or pass"),
        "beavered": _("{p} beavered: the cube is on {v}"),
        "resigned": _("{p} resigns ({v}): {o} to accept or refuse"),
        "review": _("Position under review"),
        "flagged": _("Illegal play flagged"), "confirm": _("Which play was it?"),
        "game_over": _("Game over: {p} wins {n} point(s)"),
        "match_over": _("Match over: {p} wins"), "no_match": _("No match running"),
        "match_to": _("Match to {n}"), "money": _("Money game"),
        "crawford": _("Crawford game"), "game": _("Game {n}"),
        "pips": _("Pips"), "cube": _("Cube"), "centered": _("centred"),
        "owned_by": _("owned by {p}"),
        "m_roll": _("{d}: {play}"), "m_dance": _("{d}: cannot move"),
        "m_double": _("Doubles to {v}"), "m_take": _("Takes"), "m_drop": _("Passes"),
        "m_beaver": _("Beavers to {v}"), "m_raccoon": _("Raccoons to {v}"),
        "m_resign": _("Resigns ({v})"), "m_accept": _("Accepts"), "m_reject": _("Refuses"),
        "m_win": _("Wins {v} point(s)"), "illegal": _("illegal"),
        "set_camera": _("The camera set the position"),
        "set_referee": _("The referee set the position"),
        "set_why": _("{who}: {r}"),
        "last_won": _("Game {n}: {p} won {v} point(s)"), "last_draw": _("Game {n}: a draw"),
        "res_mars": _("mars"), "res_koks": _("koks"), "res_mother": _("by the mother"),
        "res_drop": _("double passed"), "res_resign": _("resigned"),
        "r_single": _("single"), "r_gammon": _("gammon"), "r_backgammon": _("backgammon"),
        "done": _("Done"), "refused": _("Refused: {e}"), "remove": _("Remove"),
        "unreachable": _("Unreachable"), "no_moves": _("No moves yet"),
        "tap_corner": _("Tap corner {n} of 4"), "corners_done": _("Four corners: checking…"),
        "start_ok": _("The start position is seen correctly."),
        "start_bad": _("The start position is not seen correctly."),
        "saved": _("Profile saved."),
        "variants": variant_names(),
        "match_game": _("{m} · game {n}: {v}"), "head": _("head"),
        "pinned": _("pinned"),
        "reasons": reason_texts(),
        "ed_empty": _("empty"), "ed_point": _("Point {n}: {c}"), "ed_bar": _("{p}'s bar: {n}"),
        "ed_off": _("{p} off: {n}"), "ed_counts": _("White {w} of 15 · Black {b} of 15"),
        "ed_cube_kept": _("Position set. The cube cannot be corrected here: it stays at {v}."),
    }
