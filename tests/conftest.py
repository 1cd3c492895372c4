"""Test-suite wide fixtures.

The scene renderer caches its noise tiles by a key that ignores part of the blur asked for
(``tests.scenes.textures._BANK``), so a scene rendered after others may differ from the same
scene rendered in a fresh process. Each test module starts with an empty tile cache, so a
module renders the same scenes whether it runs alone or inside the whole suite.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.scenes import textures


@pytest.fixture(autouse=True, scope="module")
def _fresh_noise_tiles() -> Iterator[None]:
    textures._BANK.clear()
    yield
