"""Board styles: frame, playing surface, point colours, checker pairs, dice and proportions.

A style is a plain value; ``STYLES`` holds the named ones (at least the hard cases vision must
survive: black checkers on dark points, shiny metallic or pearl checkers, red against black).
Colours are written as ``#rrggbb`` and turned into BGR floats in 0..1 by :func:`bgr`.
"""

from __future__ import annotations

from dataclasses import dataclass, field


def bgr(hex_colour: str) -> tuple[float, float, float]:
    """``#rrggbb`` -> (b, g, r) floats in 0..1 (OpenCV order)."""
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) / 255.0 for i in (0, 2, 4))
    return (b, g, r)


@dataclass(frozen=True)
class CheckerLook:
    """One side's checkers: ``kind`` is plain | rimmed | marble | metal | pearl."""

    colour: str
    kind: str = "plain"
    rim: str | None = None  # colour of a ring near the edge (rimmed, metal bezels)
    vein: str | None = None  # second colour for marble / pearl
    gloss: float = 0.25  # strength of the specular highlight


@dataclass(frozen=True)
class Style:
    """Everything that makes one physical board look like itself."""

    name: str
    frame: str  # wood | leather
    frame_colour: str
    field: str  # felt | leather | suede | linen
    field_colour: str
    point_colours: tuple[str, str]
    point_texture: str  # felt | leather | linen | suede
    light: CheckerLook
    dark: CheckerLook
    bar_colour: str | None = None  # None: like the frame
    tray_colour: str = "#1a1a1a"
    trays: str = "right"  # right | both
    hinges: bool = True
    row_max: int = 5  # checkers in the first row of a point before a second layer
    field_h_ratio: float = 12.2  # field height in checker diameters
    dice: tuple[str, str] = ("#f4f1ea", "#141414")  # plain dice: body, pips
    notes: str = ""
    extra: dict[str, float] = field(default_factory=dict)


STYLES: dict[str, Style] = {
    s.name: s
    for s in (
        Style(
            name="tournament_black",
            frame="leather",
            frame_colour="#1c1c1e",
            field="felt",
            field_colour="#ece8da",
            point_colours=("#c4161c", "#141414"),
            point_texture="felt",
            light=CheckerLook("#f2f2ee", "rimmed", rim="#b9bcc0", gloss=0.2),
            dark=CheckerLook("#151515", "rimmed", rim="#c3c6ca", gloss=0.08),
            notes="black checkers on black points, white on cream: the common tournament board",
        ),
        Style(
            name="walnut_olive",
            frame="wood",
            frame_colour="#8a5a2b",
            field="felt",
            field_colour="#a9b38a",
            point_colours=("#b86a5c", "#6f7a62"),
            point_texture="felt",
            light=CheckerLook("#f3efe4", "plain", gloss=0.35),
            dark=CheckerLook("#c0182c", "marble", vein="#f0c8cc", gloss=0.45),
            trays="both",
            notes="wooden case, olive felt, marbled red against ivory",
        ),
        Style(
            name="tan_suede",
            frame="leather",
            frame_colour="#161618",
            field="suede",
            field_colour="#c9a86a",
            point_colours=("#3a2418", "#5e5a32"),
            point_texture="suede",
            light=CheckerLook("#e0392c", "plain", gloss=0.2),
            dark=CheckerLook("#2a2a2c", "plain", gloss=0.2),
            trays="both",
            hinges=False,
            notes="red against black on tan suede with dark points",
        ),
        Style(
            name="navy_pearl",
            frame="wood",
            frame_colour="#6e4a30",
            field="leather",
            field_colour="#262838",
            point_colours=("#e6dcc6", "#8c7a68"),
            point_texture="linen",
            light=CheckerLook("#ece6dc", "pearl", vein="#c9d3dc", gloss=0.55),
            dark=CheckerLook("#9a9a94", "pearl", vein="#d8d0c0", gloss=0.55),
            bar_colour="#262838",
            trays="both",
            hinges=False,
            notes="mother-of-pearl checkers, close in tone, on navy leather",
        ),
        Style(
            name="burgundy_metal",
            frame="wood",
            frame_colour="#3b2418",
            field="felt",
            field_colour="#5a1a22",
            point_colours=("#e8dcc0", "#17130f"),
            point_texture="leather",
            light=CheckerLook("#c8ccd2", "metal", rim="#eef0f4", gloss=0.8),
            dark=CheckerLook("#c79a3a", "metal", rim="#f0d890", gloss=0.8),
            notes="shiny gold and silver metallic checkers that reflect",
        ),
        Style(
            name="blue_maple",
            frame="wood",
            frame_colour="#c89a62",
            field="felt",
            field_colour="#2d5b8c",
            point_colours=("#f0ece0", "#b22a2a"),
            point_texture="felt",
            light=CheckerLook("#f4f4f0", "plain", gloss=0.3),
            dark=CheckerLook("#1e1e22", "plain", gloss=0.3),
            hinges=True,
            row_max=6,
            notes="light maple, blue felt; stacks of six before a second layer",
        ),
        Style(
            name="graphite_leather",
            frame="leather",
            frame_colour="#2b2b2d",
            field="leather",
            field_colour="#3c3d40",
            point_colours=("#101012", "#7d7f84"),
            point_texture="leather",
            light=CheckerLook("#e9e6df", "rimmed", rim="#8e8e8e", gloss=0.3),
            dark=CheckerLook("#0f0f10", "plain", gloss=0.35),
            notes="black checkers on black leather points: the hardest contrast",
        ),
        Style(
            name="green_oak",
            frame="wood",
            frame_colour="#a8743e",
            field="felt",
            field_colour="#1f5c3a",
            point_colours=("#efe6cc", "#8e1e1e"),
            point_texture="felt",
            light=CheckerLook("#efe7d2", "plain", gloss=0.3),
            dark=CheckerLook("#5a3218", "marble", vein="#8a5a30", gloss=0.35),
            trays="both",
            notes="classic club board: oak, green felt, ivory against brown",
        ),
    )
}


def style_names() -> list[str]:
    """The named styles in a fixed order."""
    return list(STYLES)
