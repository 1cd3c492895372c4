"""Vision: frames -> Observation (frame sources, the settle gate, board geometry, reading).

Imports only ``engine`` types, numpy and cv2. The reader: :class:`BoardProfile` (made by
``calibration``) and :func:`read` (frame, profile) -> ``engine.observation.Observation``.
"""

from .geometry import BoardShape, Layout
from .profile import BoardProfile, ProfileError
from .read import read

__all__ = ["BoardProfile", "BoardShape", "Layout", "ProfileError", "read"]
