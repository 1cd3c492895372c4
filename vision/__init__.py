"""Vision: frames -> Observation (frame sources, the settle gate, board geometry, reading).

Imports only ``engine`` types, numpy and cv2. The reader: :class:`BoardProfile` (made by
``calibration``) and :func:`read` (frame, profile) -> ``engine.observation.Observation``.
"""

import os

# Numpy's BLAS would start a thread per core for the reader's small matrix products; beside the
# service's own threads (capture, vision, referee) on a Pi's four cores that oversubscribes the
# CPU and a read can take 20 times longer. Set before numpy loads; an explicit setting wins.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

from .geometry import BoardShape, Layout  # noqa: E402  (after the BLAS setting)
from .profile import BoardProfile, ProfileError  # noqa: E402
from .read import read  # noqa: E402

__all__ = ["BoardProfile", "BoardShape", "Layout", "ProfileError", "read"]
