"""Synthetic camera scenes of a physical backgammon board, with exact truth (a test and benchmark
tool; not shipped in the package).

Quick use::

    from tests.scenes import render_sample, game_frames
    img, truth = render_sample(seed=7)            # one 1280x720 BGR image and its truth dict

    python -m tests.scenes dataset --n 500 --seed 7 OUT/
    python -m tests.scenes game --seed 3 OUT/

Geometry convention (see ``board`` and ``camera``): the board lies in its own plane, in
millimetres, origin at the centre of the *playing area* (both point fields and the bar between
them; the bear-off trays and the frame are outside it). The canonical board (orientation 0) has
its long side horizontal, x to the right, y down; white's home board (points 1-6) is
bottom-right with white's 1-point in the far right column; points 13-24 run along the top (13 at
the far left, 24 at the far right); black's point p is white's 25-p. Bear-off trays stand at the
right end (some styles have trays at both ends; the right ones are used: white's at the bottom,
black's at the top). White sits at the bottom edge and rolls into the right half; black sits at
the top and rolls into the left half. Heights are measured up from the playing surface.

Truth (every image; JSON-ready dict):

- ``position``: the position JSON of DESIGN.md (white's numbering; > 0 white, < 0 black).
- ``dice``: ``{"values": [a, b], "owner": "white"|"black", "cocked": bool}`` for the current roll
  or null; ``dice_pairs`` lists every pair on the board (both players' pairs may lie there) with
  per-die ``cocked_each`` and image ``centers_px``. A cocked die's value is its most nearly
  upward face.
- ``cube``: ``{"owner": "center"|"white"|"black", "value": 1|2|..|64, "face": number on top,
  "center_px": [u, v]}``: a centred cube has value 1 and shows 64.
- ``hand``: a hand or forearm covers part of the playing area in the image; ``held``: checkers
  in a hand (not in ``position``); ``hidden_regions``: the Observation regions (0..23 points in
  white's numbering, 24/25 white's/black's bar half, 26/27 white's/black's tray half) that a hand
  covers by 5 % or more of their area in the image (a reader may report them unseen).
- ``board_corners_px``: the playing area's four corners in image pixels, in the order top-left,
  top-right, bottom-right, bottom-left *of the canonical board* (so they also encode the board's
  orientation in the image), with lens distortion applied exactly as rendered.
- ``orientation_deg`` (the board's rotation in the image, 0 = canonical upright, 180 = upside
  down), ``camera`` (f, cx, cy, k1, k2, R, C_mm, tilt, azimuth, roll), ``board_mm``, ``style``,
  ``table``, ``props``, ``lighting``, ``seed``, ``width``, ``height``.

Modules: ``styles`` (board looks), ``textures`` (noise materials), ``camera`` (pinhole, distortion,
canvas), ``draw`` (canvas painting), ``board`` (geometry and the board), ``checkers``, ``dice``
(dice and cube), ``table`` (table and props), ``hands``, ``lighting``, ``scene`` (setup + state ->
image + truth), ``dataset`` (random stills), ``selfplay`` (games with cube and variants),
``footage`` (games as video), ``cli``.
"""

from .dataset import random_scene, render_sample, write_dataset
from .footage import game_frames, write_game
from .scene import Scene, Setup, State, random_setup
from .styles import STYLES

__all__ = [
    "STYLES",
    "Scene",
    "Setup",
    "State",
    "game_frames",
    "random_scene",
    "random_setup",
    "render_sample",
    "write_dataset",
    "write_game",
]
