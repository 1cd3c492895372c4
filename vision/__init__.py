"""Vision: frames -> Observation (frame sources, the settle gate, board geometry, reading)."""
