"""What the referee and its camera fusion share: the phases of a match, the refusal of a
command, and the fusion margins."""

from __future__ import annotations

import math

# Fusion: a reading is accepted when its log-likelihood beats the runner-up by this much
# (a factor of 20), and flagged illegal only when an unreachable reading beats every legal one.
MARGIN = math.log(20.0)
# The board "shows the start position" (set up for a game) when the start fits within this of the
# best reading of every region (about one region misread)
START_FIT = 2 * MARGIN


class CommandError(ValueError):
    """A command that is not possible now, with the reason in plain words."""


class Phase:
    IDLE = "idle"  # no match
    OPENING = "opening"  # waiting for the opening roll
    ROLL = "roll"  # ``turn`` may double or roll
    ROLLED = "rolled"  # ``turn`` has dice and is playing
    DOUBLED = "doubled"  # ``turn``'s opponent must take, drop or beaver
    BEAVERED = "beavered"  # the doubler may raccoon, or roll
    RESIGNED = "resigned"  # the resigner's opponent must accept or refuse
    FLAGGED = "flagged"  # an illegal play was seen and waits for its ending
    CONFIRM = "confirm"  # two legal plays fit the board about equally
    MATCH_OVER = "match_over"
