"""The app shell: CLI, config, the service that wires camera -> referee -> store -> web."""

import os

# One BLAS thread: see vision/__init__.py (the CLI imports numpy before vision in some commands).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
