"""Every movement rule sentence of the seed rule texts, each a test on a hand-built position.

Seed texts (``/work/shared/rules/``): 000_265a11d270093e06.txt (Catalan Wikipedia,
"Backgammon"), 001_9738b3da57545a04.txt (Spanish rules page), 002_cab60496044ab6a5.txt (Italian
"Le regole del backgammon corto") and 004_87b5a2cbd0b12fe1.txt (Spanish international tournament
rules). Each test's docstring quotes its sentence in the original language with an English gloss.
Where the texts differ, the tournament rules (004) win for standard backgammon:

- 001 says a checker enters "en un pico vacío" (on an empty point) and, in its 6-4 example, that
  the 6-point "no está vacío"; the tournament rule is that any open point will do (empty, own
  checkers, or one opposing checker, which is hit): see ``test_es_enter_on_opponents_4_or_6``.
- 001 asks the intermediate points of a one-checker move to be "desocupados" (unoccupied); in
  the tournament rule one legal intermediate stop is enough and a blot there is hit:
  ``test_es_dice_independent_5_3`` (and 002: "in almeno un ordine valido").
- 000's example for a larger die ("peces a la fletxa 4a i a la 3a ... amb un dau 4") is really an
  exact-die case; the larger-die rule itself is tested with 004's wording.

Expected plays are derived by hand (the reasoning is in the comments) and every set is also
checked against GNU Backgammon and replayed step by step against the written rules
(``tests.engine.handbuilt.assert_plays``).

Sentences not tested here:

Covered by the referee issue (opening roll, turns, game end, scoring, cube, match, etiquette):
- 000: "Cada jugador tira un dau. Si hi ha empat tornen a tirar. El jugador amb el dau més alt
  tria color i comença a jugar." / "Els jugadors tiren els daus i mouen les seves peces
  alternadament." / "Guanya el jugador que fa sortir primer totes les seves peces." / section
  "Final de la partida" (hit or simple game, gammon, backgammon) / section "Les apostes i el dau
  de doblar" (doubling cube 2..64, double, drop or take, redouble, cube ownership) / "A més, si es
  juga apostant, es fa servir un altre dau més, anomenat dau de doblar".
- 001: "Para comenzar una partida, cada jugador arroja un dado automáticamente y el que logra
  sacar el número más alto comienza a jugar, con un movimiento de tantos lugares como indique el
  dado arrojado. Cada nueva partida deberá iniciarse de esta manera." / "Una vez que la ronda
  haya comenzado, el oponente hará rodar los dos dados ..." / "El primer jugador que saque todas
  sus fichas del tablero será el ganador." / "En las Mesas Libres se juega, también, con un dado
  doblador ..." / "Solamente en Mesas Libres se puede jugar un match ... (15 puntos, como
  máximo)." / sections "Dado Doblador", "Gammon y Backgammon", "Reglas Opcionales" (Jacoby,
  Crawford, Beaver, Doble Automático).
- 002: "Nella prima partita di una serie, l'ordine viene stabilito lanciando un dado ciascuno. Se
  i valori sono uguali, il sorteggio viene ripetuto. Il giocatore con il numero più alto inizia
  la partita e non deve effettuare un secondo lancio di due dadi: i valori di entrambi i dadi
  usciti durante il sorteggio vengono usati subito come prima mossa." / the site setting "1°
  turno nella serie" / "Fine della partita: Oin, Mars e Cox" / "Il pulsante 'Arrendersi' ..." /
  "Variante con pareggio" (a site option, not standard backgammon) / "Cubo di Dave" (the
  doubling cube, its maximum, balance rules).
- 004: "Para empezar, cada jugador lanza un dado. La cifra más alta juega primero y usa la
  combinación de los dos dados lanzados como apertura. (En algunas reglas de torneo, los dobles en
  este lanzamiento inicial se vuelven a tirar.) Después los jugadores se alternan, lanzando los
  dos dados desde el cubilete al cuadrante derecho del tablero." / "El primer jugador que saca
  las quince fichas gana la partida." / sections 7-10 (simple, gammon, backgammon; doubling cube;
  matches and the Crawford rule; money play, Jacoby, beavers, raccoons) / section 12 (etiquette:
  dice flat in the right-hand board, visible cube turns, "jugada terminada", clocks).

Variant sentences (covered by the variants issue, not standard backgammon):
- 002: "Backgammon corto standard e caucasico" (the Caucasian rule on hiding the hitting checker).
- 004: section 11 "Variantes regionales": Plakoto (pinning, no bar, all fifteen on one point),
  Fevga (one checker blocks, same direction), Tavla (Kırık Tavla, Gül Bar), long Nardi (all on
  point 24, strict blocking), Jacquet and Trictrac. Portes, Uzun Tavla and short Nardi are
  standard backgammon ("mecánicamente idéntico", "equivale al backgammon estándar"): the tests
  below are theirs too.

Not rules of play: history and introductions; 000's strategy section ("Algunes consideracions
tàctiques": distribution, vulnerability, when to hit, blocking, back game) except its sentences
on entering with a double and on the prime, which state movement facts and are tested; board
terminology (001: "Los picos aparecen de manera alternada ...", "Las casas interiores están
separadas de las casas exteriores por una banda llamada barra"; 002: "Il campo è suddiviso
convenzionalmente in casa, tavola esterna ..."); equipment the camera sees, not the engine (001:
"Cada jugador posee un par de dados y un cubilete para mezclarlos."); 001's interface sentences
("Para mover una ficha, el jugador hace clic en ella ..."); 004's board sizes, strategic point
names and which way round each side runs on the physical board ("Blanco ... mueve en sentido
contrario a las agujas del reloj; Negro ... en el sentido de las agujas del reloj": camera
calibration, not the engine).
"""

from __future__ import annotations

import itertools

import pytest

from engine import (
    BAR,
    BLACK,
    OFF,
    STANDARD,
    WHITE,
    DiceError,
    Position,
    PositionError,
    Side,
    legal_plays,
)
from engine.moves import result_keys
from tests.engine.handbuilt import assert_plays, index, mover, own, replay
from tests.gnubg_oracle import find_plays, gnubg_match, to_gnubg_board

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]  # the 21 different rolls
START_LAYOUT = {24: 2, 13: 5, 8: 3, 6: 5}
HOME_BOARD = {p: 2 for p in range(1, 7)}  # six closed points


def close(*points: int) -> dict[int, int]:
    """Two opposing checkers on each of ``points`` (in the mover's numbering)."""
    return {p: 2 for p in points}


def sweep(pos: Position, side: Side) -> dict[tuple[int, int], list]:
    """All 21 rolls: plays replayed against the written rules and compared with gnubg."""
    out = {}
    for dice in ROLLS:
        plays = legal_plays(pos, side, dice)
        for play in plays:
            replay(pos, side, dice, play.steps, play.after)
        theirs = find_plays(to_gnubg_board(pos, side), dice)
        problem = gnubg_match(result_keys(pos, side, dice), theirs, pos, side)
        assert problem is None, f"{dice}: {problem}"
        out[dice] = plays
    return out


# --------------------------------------------------------------------------------------------
# 000_265a11d270093e06.txt: Catalan Wikipedia
# --------------------------------------------------------------------------------------------


def test_ca_fifteen_checkers_each() -> None:
    """000_265a11d270093e06.txt: "Cada jugador té quinze peces del seu color (blanc o negre)."

    (Each player has fifteen checkers of their colour.)
    """
    start = STANDARD.start
    assert start.count(WHITE) == start.count(BLACK) == 15
    for dice in ROLLS:
        for play in legal_plays(start, WHITE, dice):
            assert play.after.count(WHITE) == play.after.count(BLACK) == 15


def test_ca_two_six_sided_dice() -> None:
    """000_265a11d270093e06.txt: "Es juga amb dos daus de sis cares, numerades del 1 al 6."

    (It is played with two six-sided dice, numbered 1 to 6.)
    """
    for bad in [(0, 3), (7, 1), (1, 2, 3), (4,)]:
        with pytest.raises(DiceError):
            legal_plays(STANDARD.start, WHITE, bad)  # type: ignore[arg-type]
    for dice in ROLLS:
        assert legal_plays(STANDARD.start, WHITE, dice)


def test_ca_board_of_24_points() -> None:
    """000_265a11d270093e06.txt: "El tauler té vint-i-quatre caselles o fletxes."

    (The board has twenty-four points.)
    """
    assert len(STANDARD.start.points) == 24
    for n in (23, 25):
        with pytest.raises(PositionError):
            Position((0,) * n)


def test_ca_points_numbered_24_to_1_in_the_moving_direction() -> None:
    """000_265a11d270093e06.txt: "Convencionalment, per descriure les posicions, ... les fletxes
    de l'itinerari d'un jugador es numeren del 24 al 1, entenent que cada jugador mou les seves
    peces des de les fletxes amb números més alts cap a les de números més baixos."

    (Each player's route is numbered 24 down to 1; every player moves from higher numbers to
    lower ones.)
    """
    for side in Side:
        for dice in ROLLS:
            for play in legal_plays(STANDARD.start, side, dice):
                assert all(s.dst < s.src for s in play.steps), play
    # and on the board itself: black's 24-point is white's 1-point, so black runs the other way
    (play,) = [p for p in legal_plays(STANDARD.start, BLACK, (6, 5)) if p.notation == "24/13"]
    assert play.after.points[0] == -1 and play.after.points[11] == -6


def test_ca_start_position_2_5_3_5() -> None:
    """000_265a11d270093e06.txt: "Es pot descriure la posició de principi de partida d'un
    jugador dient que té 2 peces a la fletxa 24, 5 a la fletxa 13, 3 a la fletxa 8, i 5 a la
    fletxa 6."

    (At the start each player has 2 checkers on the 24-point, 5 on the 13, 3 on the 8 and 5 on
    the 6.)
    """
    start = STANDARD.start
    for side in Side:
        for point in range(1, 25):
            n = max(0, start.points[index(side, point)] * side.sign)  # own checkers
            assert n == START_LAYOUT.get(point, 0), (side, point)
        assert start.bar(side) == start.off(side) == 0


CATALAN_DIAGRAM = """\
 |x...o. |.| o....x|
 |x...o. |.| o....x|
 |x...o. |.| o.....|
 |x..... |.| o.....|
 |x..... |.| o.....|
 |       |.|       |
 |o..... |.| x.....|
 |o..... |.| x.....|
 |o...x. |.| x.....|
 |o...x. |.| x....o|
 |o...x. |.| x....o|"""


def test_ca_start_diagram() -> None:
    """000_265a11d270093e06.txt: "Al principi de la partida les peces negres (representades
    aquí amb 'o') i blanques (representades amb 'x') es disposen d'aquesta manera:" (the diagram,
    copied above) and "A la figura, el quadre de dalt a la dreta és l'inici de l'itinerari de les
    blanques ... el quadre de sota a la dreta és l'inici de l'itinerari de les negres".

    (At the start black ('o') and white ('x') stand as drawn; white's route starts top right,
    black's bottom right.) Top row left to right is white's 13..24, bottom row white's 12..1.
    """
    rows = [line.split("|") for line in CATALAN_DIAGRAM.splitlines()]
    cells = [(r[1].strip() + r[3].strip()) for r in rows]
    drawn = [0] * 24
    for r, row in enumerate(cells):
        if not row:
            continue
        assert len(row) == 12
        for c, ch in enumerate(row):
            point = 13 + c if r < 5 else 12 - c  # white's numbering
            drawn[point - 1] += {"x": 1, "o": -1, ".": 0}[ch]
    assert tuple(drawn) == STANDARD.start.points


def test_ca_checkers_move_by_the_dice() -> None:
    """000_265a11d270093e06.txt: "Les peces es mouen de fletxa en fletxa segons els punts que
    marquen els daus."

    (Checkers move point by point by the numbers the dice show.)
    """
    for side in Side:
        for dice in ROLLS:
            for play in legal_plays(STANDARD.start, side, dice):
                assert all(s.src - s.dst == s.die for s in play.steps)
                want = [dice[0]] * 4 if dice[0] == dice[1] else sorted(dice)
                assert sorted(s.die for s in play.steps) == want


def test_ca_bring_all_home_then_bear_off() -> None:
    """000_265a11d270093e06.txt: "El joc consisteix primer en portar totes les peces del color
    propi al quadre interior propi, per després poder-les fer sortir del tauler."

    (The game is first to bring all one's checkers into the home board, and then to bear them
    off.)
    """
    # 6-5 with two on 6 and two on 5: off they come; with one of them on 7 instead, the 7 must
    # come home first (7/1 or 7/2) and only the other die bears off
    assert_plays(mover(WHITE, {6: 2, 5: 2}), WHITE, (6, 5), {"6/off 5/off", "6/1 6/off"})
    # (6 first: 7/1, then 6/1 or 5/off; 5 first: 7/2 then 6/off, or 6/1 then 7/1)
    assert_plays(mover(WHITE, {7: 1, 6: 1, 5: 2}), WHITE, (6, 5),
                 {"7/1 6/1", "7/1 5/off", "7/2 6/off"})


def test_ca_different_dice_two_checkers_or_one_in_two_steps() -> None:
    """000_265a11d270093e06.txt: "Si els punts dels dos daus són diferents el jugador pot moure:
    O bé dues peces diferents, una per cada dau. O bé una sola peça en dues passes, en aquest cas
    la fletxa destinació de la primera passa també ha de ser oberta".

    (With different numbers: two checkers one die each, or one checker in two steps, whose first
    landing point must also be open.)
    """
    # 4-2, checkers on 20 and 10: 20/16 10/8, 20/18 10/6, 20/14 (via 16 or 18), 10/4 (via 6 or 8)
    assert_plays(mover(WHITE, {20: 1, 10: 1}), WHITE, (4, 2),
                 {"20/16 10/8", "20/18 10/6", "20/14", "10/4"})
    # 18 closed: 20/18 goes, 20/14 still goes through 16
    assert_plays(mover(WHITE, {20: 1, 10: 1}, close(18)), WHITE, (4, 2),
                 {"20/16 10/8", "20/14", "10/4"})
    # 16 and 18 closed: the checker on 20 cannot start; the other one plays both dice
    assert_plays(mover(WHITE, {20: 1, 10: 1}, close(16, 18)), WHITE, (4, 2), {"10/4"})


def test_ca_doubles_four_moves_in_every_grouping() -> None:
    """000_265a11d270093e06.txt: "Si els punts dels dos daus són iguals (un doble), el jugador ha
    de comptar com si tingués quatre daus (i no dos), i pot moure: O bé una sola peça amb un
    moviment múltiple de quatre passes. O bé dues peces diferents, amb dues passes per cada peça.
    O bé dues peces diferents, amb una sola passa amb una, i un moviment múltiple de tres passes
    amb l'altra. O bé tres peces diferents, amb una sola passa amb dues, i un moviment múltiple de
    dues passes amb l'altra. O bé quatre peces diferents, amb una sola passa amb cadascuna."

    (A double counts as four dice: one checker four steps, two checkers two each, one and three,
    three checkers one-one-two, or four checkers one each.)
    """
    # four checkers 5 points apart on an empty board, 2-2: no checker can land on another's
    # start, so every way to share 4 steps among 4 checkers is a play: C(4+3, 3) = 35
    pos = mover(WHITE, {24: 1, 19: 1, 14: 1, 9: 1})
    plays = legal_plays(pos, WHITE, (2, 2))
    assert len(plays) == 35
    shapes = set()
    for play in plays:
        assert [s.die for s in play.steps] == [2, 2, 2, 2]
        where = {p: p for p in (24, 19, 14, 9)}  # point -> the checker (its start) standing there
        steps_by: dict[int, int] = {}
        for s in play.steps:
            checker = where.pop(s.src)
            where[s.dst] = checker
            steps_by[checker] = steps_by.get(checker, 0) + 1
        shapes.add(tuple(sorted(steps_by.values(), reverse=True)))
    assert shapes == {(4,), (2, 2), (3, 1), (2, 1, 1), (1, 1, 1, 1)}


def test_ca_open_point_empty_own_or_lone_opponent() -> None:
    """000_265a11d270093e06.txt: "Una fletxa és oberta (s'hi pot deixar una peça o fer-hi una
    passa en un moviment múltiple) només si: O bé és buida. O bé conté peces del color propi. O bé
    només conté una sola peça del color contrari (en anglès blot o exposed man) i en aquest cas
    aquesta peça és vulnerable i es pot capturar".

    (A point is open - to stop on or to pass through in a combined move - only if it is empty,
    holds own checkers, or holds a single opposing checker, which can then be hit.)
    """
    # 2-1: the checker on 10 goes via 9 (a blot: hit) or via 8 (empty) to 7 (own checkers); the
    # two on 7 cannot move (6 and 5 closed)
    pos = mover(WHITE, {10: 1, 7: 2}, {6: 2, 5: 2, 9: 1})
    plays = assert_plays(pos, WHITE, (2, 1), {"10/9*/7", "10/7"})
    assert plays["10/9*/7"].after.bar_black == 1
    assert plays["10/7"].after.bar_black == 0


def test_ca_two_opposing_checkers_close_a_point() -> None:
    """000_265a11d270093e06.txt: "Per contra, si una fletxa conté dues o més peces del contrari,
    la fletxa és ocupada i no és oberta (no s'hi pot pas deixar una peça pròpia ni tampoc fer-hi
    una passa en un moviment múltiple)."

    (A point with two or more opposing checkers is closed: no stopping there, not even as a step
    of a combined move.)
    """
    # 2-1 again but 9 and 8 closed: 10/7 (own point) cannot be reached through either
    pos = mover(WHITE, {10: 1, 7: 2}, {6: 2, 5: 2, 9: 2, 8: 3})
    plays = assert_plays(pos, WHITE, (2, 1), {""})
    assert plays[""].after == pos


def test_ca_must_use_both_dice_in_the_convenient_order() -> None:
    """000_265a11d270093e06.txt: "Un jugador està obligat a moure amb tots dos daus sempre que
    pugui. Si es juguen tots dos daus, es poden comptar en l'ordre que més convingui (per exemple,
    per aconseguir passar per entre fletxes ocupades pel contrari ...)".

    (Both dice must be played whenever possible, in whichever order suits, e.g. to get between
    closed points.)
    """
    # 6-2 from 20 with 14 closed: only 2 first (20/18/12) uses both dice; stopping on 18 is out
    plays = assert_plays(mover(WHITE, {20: 1}, close(14)), WHITE, (6, 2), {"20/12"})
    assert [s.die for s in plays["20/12"].steps] == [2, 6]


def test_ca_either_die_but_not_both_play_the_higher() -> None:
    """000_265a11d270093e06.txt: "Si un jugador només pot moure amb un qualsevol dels dos daus
    però no amb tots dos, llavors ha de moure amb el dau que marca més punts."

    (If either die can be played but not both, the higher must be played.)
    """
    # 6-5 from 20, 9 closed: 20/14 or 20/15 alone, never both
    assert_plays(mover(WHITE, {20: 1}, close(9)), WHITE, (6, 5), {"20/14"})


def test_ca_only_one_die_playable_play_it_lose_the_other() -> None:
    """000_265a11d270093e06.txt: "Altrament si només pot moure amb un dels daus però no amb
    l'altre, llavors mou amb el dau que pot i perd l'oportunitat de moure amb l'altre dau."

    (If only one particular die can be played, play it and lose the other.)
    """
    plays = assert_plays(mover(WHITE, {20: 1}, close(14, 9)), WHITE, (6, 5), {"20/15"})
    assert plays["20/15"].dice_used == 1


def test_ca_no_play_lose_the_turn() -> None:
    """000_265a11d270093e06.txt: "Si un jugador no pot fer cap jugada (per exemple, qualsevol
    dels moviments marcats pels daus el portaria a fletxes ocupades pel contrari) llavors passa i
    perd el seu torn."

    (A player who cannot move, e.g. every number lands on closed points, passes.)
    """
    pos = mover(WHITE, {20: 1}, close(15, 14))
    plays = assert_plays(pos, WHITE, (6, 5), {""})
    assert plays[""].after == pos and plays[""].dice_used == 0


def test_ca_bar_holds_the_captured_checkers() -> None:
    """000_265a11d270093e06.txt: "Al mig del tauler hi ha un espai que el divideix en dos
    anomenat barra, que es on es deixen les peces capturades".

    (The bar in the middle is where captured checkers are put.)
    """
    pos = mover(BLACK, {13: 1}, {8: 1})
    plays = assert_plays(pos, BLACK, (5, 4), {"13/8*/4", "13/4"})
    hit = plays["13/8*/4"].after
    assert hit.bar_white == 1 and hit.points[index(BLACK, 8)] == 0
    assert hit.count(WHITE) == 15


def test_ca_hit_a_lone_checker() -> None:
    """000_265a11d270093e06.txt: "Un jugador pot capturar una peça del contrari (en anglès hit a
    man) si està sola en una fletxa i per tant és vulnerable."

    (A player may hit an opposing checker that stands alone on a point.)
    """
    # 3-2 from 20 onto the blot on 15 (via 17 or 18)
    plays = assert_plays(mover(WHITE, {20: 1}, {15: 1}), WHITE, (3, 2), {"20/15*"})
    assert plays["20/15*"].after.bar_black == 1


def test_ca_hit_by_landing_or_in_passing() -> None:
    """000_265a11d270093e06.txt: "Per capturar una peça, el jugador pot o bé moure-hi una peça
    pròpia, o bé fer-hi una passa d'un moviment múltiple. Llavors aquesta peça capturada es desa a
    la barra central del tauler."

    (A blot is hit by moving onto it or by stopping on it in a combined move; it goes to the bar.)
    """
    # 5-1 from 20: via 15 (the blot, hit in passing) or via 19 (no hit)
    plays = assert_plays(mover(WHITE, {20: 1}, {15: 1}), WHITE, (5, 1), {"20/15*/14", "20/14"})
    assert plays["20/15*/14"].after.bar_black == 1
    assert plays["20/14"].after.bar_black == 0


def test_ca_nothing_moves_while_on_the_bar() -> None:
    """000_265a11d270093e06.txt: "Un jugador no pot fer cap altre moviment mentre tingui alguna
    peça capturada a la barra central."

    (No other move while a checker is on the bar.)
    """
    # 6-5, 19 closed: enter with the 5 (20), then the 6 by either checker; never 13 first
    plays = assert_plays(mover(WHITE, {13: 1}, close(19), me_bar=1), WHITE, (6, 5),
                         {"bar/20 13/7", "bar/14"})
    assert all(p.steps[0].src == BAR for p in plays.values())


def test_ca_enter_in_the_opponents_home_board() -> None:
    """000_265a11d270093e06.txt: "Les peces capturades s'han de tornar a fer entrar al joc al
    quadre del principi del seu itinerari (és a dir, dins del quadre interior contrari)."

    (Hit checkers re-enter in the first quarter of their route: the opponent's home board.)
    """
    pos = mover(WHITE, {13: 1}, me_bar=1)
    for dice in ROLLS:
        for play in legal_plays(pos, WHITE, dice):
            first = play.steps[0]
            assert first.src == BAR and 19 <= first.dst <= 24
            # white's 25-d is black's d: black's home board
            assert index(WHITE, first.dst) == index(BLACK, first.die)


def test_ca_entry_point_counted_from_the_routes_start() -> None:
    """000_265a11d270093e06.txt: "Per tornar a fer entrar una peça capturada al joc els punts
    d'un dels daus han de portar a una fletxa oberta dins del primer quadre de l'itinerari del
    jugador (comptant 1 per la primera fletxa, 2 per la segona, etcètera)."

    (A die enters on the open point that many points into the route: 1 the first, 2 the
    second...)
    """
    # two on the bar, 5-2: the second point of the route is 23, the fifth 20
    assert_plays(mover(WHITE, {}, me_bar=2), WHITE, (5, 2), {"bar/23 bar/20"})


def test_ca_both_entry_points_closed_pass() -> None:
    """000_265a11d270093e06.txt: "Si els punts de tots dos daus porten a fletxes ocupades, el
    jugador passa i ha d'esperar un altre torn per intentar tornar a entrar la peça capturada."

    (If both dice point to closed points, the player passes.)
    """
    assert_plays(mover(WHITE, {13: 1}, close(19, 20), me_bar=1), WHITE, (6, 5), {""})


def test_ca_after_entering_the_other_die_moves_any_checker() -> None:
    """000_265a11d270093e06.txt: "Quan una peça capturada es torna a entrar amb els punts d'un
    dels daus, els punts de l'altre dau es poden fer servir o bé per moure endavant la mateixa
    peça acabada d'entrar o bé per moure'n una altra de pròpia que ja era al joc".

    (After entering with one die, the other moves the same checker on or another one.)
    """
    assert_plays(mover(WHITE, {13: 1}, me_bar=1), WHITE, (4, 3),
                 {"bar/18", "bar/21 13/10", "bar/22 13/9"})


def test_ca_two_on_the_bar_need_two_open_points() -> None:
    """000_265a11d270093e06.txt: "Si un jugador té dues peces capturades només les pot tornar a
    fer entrar alhora si els dos daus porten a dues fletxes obertes. Si només una de les dues
    fletxes està oberta, s'entra una peça i el jugador ha d'esperar un altre torn per intentar
    tornar a entrar l'altra peça capturada."

    (Two on the bar both enter only if both dice point to open points; with one open, one enters
    and the other waits.)
    """
    assert_plays(mover(WHITE, {13: 1}, me_bar=2), WHITE, (4, 3), {"bar/22 bar/21"})
    plays = assert_plays(mover(WHITE, {13: 1}, close(21), me_bar=2), WHITE, (4, 3), {"bar/22"})
    assert plays["bar/22"].after.bar_white == 1


def test_ca_bear_off_once_all_are_home() -> None:
    """000_265a11d270093e06.txt: "Quan un jugador té totes les seves peces al seu quadre interior
    (el quart i darrer quadre del seu itinerari) pot començar a fer-les sortir del tauler."

    (Once all checkers are in the home board they may be borne off.)
    """
    assert_plays(mover(WHITE, {6: 2, 5: 2}), WHITE, (6, 5), {"6/off 5/off", "6/1 6/off"})
    # one checker still on 13: 2-1 cannot bear off from 2 or 1
    assert_plays(mover(WHITE, {13: 1, 2: 2, 1: 2}), WHITE, (2, 1), {"13/10", "13/11 2/1"})


def test_ca_borne_off_checkers_never_return() -> None:
    """000_265a11d270093e06.txt: "Les peces que s'han tret del tauler ja no hi tornen a entrar."

    (Checkers borne off never come back.)
    """
    pos = own({6: 1, 4: 2, 1: 2}, {6: 5, 8: 5, 13: 5})
    for dice, plays in sweep(pos, WHITE).items():
        for play in plays:
            assert all(s.src != OFF for s in play.steps)
            assert play.after.off_white >= pos.off_white, dice


def test_ca_no_bear_off_with_a_checker_on_the_bar_or_outside() -> None:
    """000_265a11d270093e06.txt: "Un jugador no pot fer sortir peces mentre en tingui alguna
    morta a la barra central o fora del seu quadre interior."

    (No bearing off while a checker is on the bar or outside the home board.)
    """
    on_bar = own({6: 2, 5: 2}, {13: 5, 12: 5, 11: 5}, bar_white=1)
    for plays in sweep(on_bar, WHITE).values():
        assert all(s.dst != OFF for p in plays for s in p.steps)
    outside = own({7: 1, 6: 2, 5: 2}, {13: 5, 12: 5, 11: 5})
    later = [p for plays in sweep(outside, WHITE).values() for p in plays
             if any(s.dst == OFF for s in p.steps)]
    # (replay asserted each bear-off waited for the 7 to come home, and some rolls do it)
    assert later and all(any(s.src == 7 for s in p.steps) for p in later)


def test_ca_hit_while_bearing_off_must_come_home_first() -> None:
    """000_265a11d270093e06.txt: "És a dir, si un jugador ja ha començat a fer sortir peces però
    n'hi maten una, llavors no pot continuar fent-ne sortir fins que aquesta hagi tornat a entrar i
    hagi fet altra vegada el recorregut fins al seu quadre interior."

    (A player hit during the bear-off cannot bear off again until that checker has re-entered
    and come all the way round to the home board.)
    """
    # 6-5 with one on the bar, ten off: enter, then no 6/off or 5/off
    pos = mover(WHITE, {6: 2, 5: 2}, {12: 5, 11: 5, 10: 5}, me_bar=1)
    assert_plays(pos, WHITE, (6, 5), {"bar/14", "bar/19 6/1"})


def test_ca_bear_off_by_the_dice_counting_from_the_last_point() -> None:
    """000_265a11d270093e06.txt: "Les peces es poden fer sortir del tauler segons els punts que
    marquen els daus (es compta 1 per la última fletxa, 2 per la segona fletxa abans de la
    sortida, etcètera)."

    (Checkers are borne off by the dice, counting 1 for the last point, 2 for the one before...)
    """
    # 3-1 with two on 3 and two on 1: 3/off and 1/off, or 3/2 and 3/off
    assert_plays(mover(WHITE, {3: 2, 1: 2}), WHITE, (3, 1), {"3/off 1/off", "3/2 3/off"})


def test_ca_double_six_bears_off_four_from_the_six() -> None:
    """000_265a11d270093e06.txt: "Per exemple, amb un doble 6 es poden fer sortir de cop quatre
    peces de la 6a fletxa abans de la sortida."

    (With double 6, four checkers come off the 6-point at once.)
    """
    plays = assert_plays(mover(WHITE, {6: 5}), WHITE, (6, 6), {"6/off(4)"})
    assert plays["6/off(4)"].after.off_white == 14


def test_ca_empty_point_move_a_higher_checker() -> None:
    """000_265a11d270093e06.txt: "Si la fletxa indicada pel dau és buida però al jugador li
    queden peces més endarrerides, llavors amb aquest dau ha de moure endavant alguna de les
    endarrerides, i no pot pas fer-lo servir per a moure o fer-ne sortir una de més avançada (per
    exemple, si un jugador té peces a la fletxa 6a i a la 3a, i la fletxa 4a és buida, amb un dau 4
    pot moure endavant una de la 6a, però no pot fer-ne sortir una de la 3a)."

    (If the die's point is empty but checkers stand further back, the die must move one of them;
    with checkers on 6 and 3 and the 4-point empty, a 4 moves the 6, never bears off the 3.)
    """
    # 4-2: the 4 is 6/2 (then the 2 is 3/1 or 2/off), or the 2 is 6/4 and the 4 then 4/off
    plays = assert_plays(mover(WHITE, {6: 1, 3: 1}), WHITE, (4, 2), {"6/2 3/1", "6/off"})
    for play in plays.values():
        assert not any(s.src == 3 and s.dst == OFF and s.die == 4 for s in play.steps)


def test_ca_larger_die_bears_off_the_rearmost_only() -> None:
    """000_265a11d270093e06.txt: "Si la fletxa indicada pel dau és buida i al jugador no li
    queda cap peça més endarrerida (el dau marca més punts dels necessaris per a fer sortir la peça
    més endarrerida que li queda), llavors amb aquest dau ha fer-ne sortir una de les de la fletxa
    més endarrerida on en tingui, i no pot pas fer-lo servir per a fer sortir una peça més avançada
    (per exemple, si un jugador té peces a la fletxa 4a i a la 3a, i no n'hi queda cap de més
    endarrerida, amb un dau 4 ha de fer-ne sortir una de la 4a, però no pot fer-ne sortir una de la
    3a)."

    (A die larger than needed bears off from the rearmost occupied point, never a more advanced
    one; with checkers on 4 and 3, a 4 bears off the 4, not the 3.)
    """
    # the text's example (4 and 3, a 4): 4-2 gives 4/off 3/1, or 4/2 then the 4 takes the 3
    plays = assert_plays(mover(WHITE, {4: 1, 3: 2}), WHITE, (4, 2), {"4/off 3/1", "4/2 3/off"})
    assert [s.die for s in plays["4/2 3/off"].steps] == [2, 4]
    # a larger die proper: 6-4 with two on 4 and two on 3 takes both from the 4
    assert_plays(mover(WHITE, {4: 2, 3: 2}), WHITE, (6, 4), {"4/off(2)"})


def test_ca_not_obliged_to_bear_off() -> None:
    """000_265a11d270093e06.txt: "Ara bé, un jugador no està obligat a fer sortir una peça si pot
    fer un altre moviment vàlid qualsevol."

    (A player need not bear off if another legal move exists.)
    """
    plays = assert_plays(mover(WHITE, {6: 1, 2: 1}), WHITE, (2, 1),
                         {"6/3", "6/4 2/1", "6/5 2/off"})
    assert plays["6/3"].after.off_white == plays["6/4 2/1"].after.off_white == 13


def test_ca_lower_die_first_may_be_chosen() -> None:
    """000_265a11d270093e06.txt: "En alguns casos, per fer sortir peces sense risc (sense deixar-ne
    altres de soles i vulnerables) pot ser millor jugar el dau més baix abans del més alt (cal jugar
    tots dos daus sempre que es pugui, però es pot triar l'ordre si totes dues combinacions són
    vàlides)."

    (Playing the lower die first can be safer; both dice must be played, in either valid order.)
    """
    # 4-1 with one on 4 and two on 3: 4/off 3/2 leaves two blots; 4/3 then 3/off keeps the point
    plays = assert_plays(mover(WHITE, {4: 1, 3: 2}), WHITE, (4, 1), {"4/off 3/2", "4/off"})
    assert [s.die for s in plays["4/off"].steps] == [1, 4]
    assert plays["4/off"].after.points[index(WHITE, 3)] == 2


def test_ca_example_6_3_with_one_on_5_and_two_on_2() -> None:
    """000_265a11d270093e06.txt: "Per exemple, si un jugador té una peça a la fletxa 5 i dues a la
    fletxa 2, i el jugador contrari en té una a la fletxa 1 i una a la barra, i els daus marquen
    daus 6-3, el jugador pot moure la de la fletxa 5 a la fletxa 2 amb el dau 3, i llavors fer-ne
    sortir una amb l'altre dau (el 6), deixant-ne dues segures a la fletxa 2 sense deixar-ne cap de
    vulnerable. Per contra, l'altre moviment possible, fer servir el 6-3 per fer sortir la de la
    fletxa 5 i una de les de la fletxa 2, en deixaria una de sola a la fletxa 2".

    (One on 5, two on 2, the opponent with one on the 1-point and one on the bar, 6-3: 5/2 then
    one off keeps two on 2; the only other play, 5/off 2/off, leaves a blot.)
    """
    pos = own({5: 1, 2: 2}, {24: 1, 6: 5, 5: 4, 4: 4}, bar_black=1)
    plays = assert_plays(pos, WHITE, (6, 3), {"5/off", "5/off 2/off"})
    assert [s.die for s in plays["5/off"].steps] == [3, 6]
    assert plays["5/off"].after.points[index(WHITE, 2)] == 2
    assert plays["5/off 2/off"].after.points[index(WHITE, 2)] == 1


def test_ca_entering_with_a_double_can_hit_four() -> None:
    """000_265a11d270093e06.txt: "En tornar a fer entrar una peça capturada l'avantatge del joc
    pot canviar molt ràpidament de mans si es té la sort d'entrar amb un doble i poder
    capturar-ne de cop fins a quatre de contràries."

    (Entering with a double can hit up to four opposing checkers at once.)
    """
    pos = mover(WHITE, {}, {24: 1, 23: 1, 22: 1, 21: 1}, me_bar=1)
    plays = assert_plays(pos, WHITE, (1, 1), {"bar/24*/23*/22*/21*"})
    assert plays["bar/24*/23*/22*/21*"].after.bar_black == 4


def test_ca_a_prime_cannot_be_passed() -> None:
    """000_265a11d270093e06.txt: "Barrera (en anglès prime): Si un jugador aconsegueix ocupar 6
    fletxes seguides forma una barrera (prime). Mentre mantingui aquesta estructura les peces
    endarrerides del contrari no en podran escapar."

    (Six closed points in a row form a prime; while it stands, the checkers behind it cannot
    escape.)
    """
    pos = mover(WHITE, {21: 1}, close(19, 18, 17, 16, 15, 14))
    for dice, plays in sweep(pos, WHITE).items():
        for play in plays:
            assert play.after.points[index(WHITE, 21)] + play.after.points[index(WHITE, 20)] == 1
        assert [p.notation for p in plays] == (["21/20"] if 1 in dice else [""])


# --------------------------------------------------------------------------------------------
# 001_9738b3da57545a04.txt: Spanish rules page
# --------------------------------------------------------------------------------------------


def test_es_board_24_points_in_four_quadrants() -> None:
    """001_9738b3da57545a04.txt: "El Backgammon es un juego para dos jugadores que se juega sobre
    un tablero que posee veinticuatro espacios triangulares llamados picos. ... se encuentran
    agrupados en cuatro cuadrantes de seis picos cada uno."

    (Twenty-four points in four quadrants of six.)
    """
    assert len(STANDARD.start.points) == 24 and STANDARD.home_size == 6
    with pytest.raises(PositionError):
        Position((0,) * 18)


def test_es_objective_all_home_then_off() -> None:
    """001_9738b3da57545a04.txt: "El objetivo del juego consiste en lograr ubicar todas tus
    fichas en tu casa interior para luego sacarlas del tablero."

    (The aim is to get all your checkers into your home board and then bear them off.)
    """
    for dice in ROLLS:  # from the start nothing can come off
        assert all(p.after.off_black == 0 for p in legal_plays(STANDARD.start, BLACK, dice))
    # black, all home with one on 2 and one on 1: 2-1 takes both off, or 2/1 and then the 2
    # takes a checker off the 1 (written 2/off: one checker left)
    assert_plays(mover(BLACK, {2: 1, 1: 1}), BLACK, (2, 1), {"2/off 1/off", "2/off"})


def test_es_white_moves_opposite_to_black() -> None:
    """001_9738b3da57545a04.txt: "Dirección en la cual se mueven las fichas negras. Las fichas
    blancas se mueven en dirección contraria."

    (The direction black moves in; white moves the opposite way.)
    """
    for dice in ROLLS:
        for side, way in ((WHITE, -1), (BLACK, 1)):  # white to lower indices, black to higher
            for play in legal_plays(STANDARD.start, side, dice):
                for step in play.steps:
                    move = index(side, step.dst) - index(side, step.src)
                    assert move == way * step.die, (side, play.notation)


def test_es_points_numbered_from_home_24_is_the_opponents_1() -> None:
    """001_9738b3da57545a04.txt: "Los picos se enumeran a partir de la casa interior de cada
    jugador. El último pico es el número veinticuatro y corresponde al pico número uno del
    oponente."

    (Points are numbered from each player's home; the 24-point is the opponent's 1-point.)
    """
    for p in range(1, 25):
        assert STANDARD.abs_index(WHITE, p) == STANDARD.abs_index(BLACK, 25 - p)
    # black's two checkers on its own 1-point close white's 24-point to an entering 1
    pos = own({}, {1: 2}, bar_white=1)
    assert_plays(pos, WHITE, (1, 1), {""})
    assert_plays(pos, WHITE, (2, 1), {"bar/22"})


def test_es_start_position() -> None:
    """001_9738b3da57545a04.txt: "El juego consta de quince fichas de color blanco y quince fichas
    de color negro y su posición inicial es la siguiente: dos fichas en el pico veinticuatro, cinco
    en el pico trece, tres en el pico ocho y cinco en el pico seis de cada jugador."

    (Fifteen white and fifteen black: two on the 24-point, five on the 13, three on the 8, five
    on the 6, for each player.)
    """
    assert STANDARD.start == own(START_LAYOUT, START_LAYOUT)


def test_es_checkers_always_move_to_lower_points() -> None:
    """001_9738b3da57545a04.txt: "Las fichas se mueven siempre hacia un pico de menor número."

    (Checkers always move towards a lower-numbered point.)
    """
    for side in Side:
        for dice in ROLLS:
            total = 4 * dice[0] if dice[0] == dice[1] else sum(dice)
            for play in legal_plays(STANDARD.start, side, dice):
                assert all(s.dst < s.src for s in play.steps)
                drop = STANDARD.start.pip_count(side) - play.after.pip_count(side)
                assert drop == total, (side, dice, play.notation)


def test_es_dice_tell_how_many_points() -> None:
    """001_9738b3da57545a04.txt: "Los dados indican cuantos picos, o pasos, deberán moverse las
    fichas."

    (The dice say how many points the checkers move.)
    """
    pos = mover(WHITE, {20: 1, 10: 1})
    for dice in ROLLS:
        for play in legal_plays(pos, WHITE, dice):
            assert all(s.src - s.dst == s.die for s in play.steps)


def test_es_only_to_an_open_point() -> None:
    """001_9738b3da57545a04.txt: "Una ficha podrá moverse solamente hasta un pico abierto, es
    decir, que no está ocupado por dos o más fichas del oponente."

    (A checker may only move to an open point: one not held by two or more opposing checkers.)
    """
    assert_plays(mover(WHITE, {20: 1}, {14: 3}), WHITE, (6, 6), {""})
    # a single one is no obstacle: hit, on to 8 and 2, and the last 6 bears off from the 2
    assert_plays(mover(WHITE, {20: 1}, {14: 1}), WHITE, (6, 6), {"20/14*/off"})


def test_es_may_pass_over_closed_points() -> None:
    """001_9738b3da57545a04.txt: "Una ficha puede pasar sobre picos ocupados y concluir su
    movimiento en un pico vacío, un pico ocupado por fichas propias o un pico ocupado por una sola
    ficha del oponente, caso en el cual, dicha ficha será enviada hacia la barra. Ninguna ficha
    podrá colocarse en un pico ocupado por dos o más fichas contrarias."

    (A checker may jump over closed points and end on an empty point, its own, or a blot, which
    goes to the bar; never on two or more opposing checkers.)
    """
    wall = close(19, 18, 17, 16)
    assert_plays(mover(WHITE, {20: 1}, wall), WHITE, (6, 5), {"20/9"})
    plays = assert_plays(mover(WHITE, {20: 1}, wall | {9: 1}), WHITE, (6, 5), {"20/9*"})
    assert plays["20/9*"].after.bar_black == 1
    assert_plays(mover(WHITE, {20: 1}, wall | {9: 2}), WHITE, (6, 5), {"20/14"})


def test_es_dice_independent_5_3() -> None:
    """001_9738b3da57545a04.txt: "El número indicado por uno de los dados permite un movimiento
    independiente del que podrá realizarse según el número indicado por el otro dado. Así, por
    ejemplo, si un jugador tira un 5 y un 3, puede mover una ficha cinco espacios hacia un pico
    libre y otra ficha, tres espacios hacia un pico libre; o mover una sola ficha 8 espacios en
    total hacia un pico libre, siempre que los picos intermedios que corresponden a los espacios
    tres o cinco desde el punto de partida estén también desocupados."

    (Each die is a separate move: with 5-3, one checker 5 and another 3, or one checker 8 as long
    as the intermediate point 3 or 5 away is free. Tournament rule: "free" means open, and one
    of the two orders is enough; a blot there is hit.)
    """
    me = {20: 1, 10: 1}
    assert_plays(mover(WHITE, me), WHITE, (5, 3),
                 {"20/15 10/7", "20/17 10/5", "20/12", "10/2"})
    assert_plays(mover(WHITE, me, {15: 2, 17: 1}), WHITE, (5, 3),
                 {"20/17*/12", "20/17* 10/5", "10/2"})
    assert_plays(mover(WHITE, me, close(15, 17)), WHITE, (5, 3), {"10/2"})


def test_es_double_six_four_moves_of_six() -> None:
    """001_9738b3da57545a04.txt: "Cuando un jugador tira dobles (saca el mismo número en ambos
    dados), juega dos veces el número que muestra cada uno de los dados. Así, un tiro de 6 y 6 le
    permite al jugador realizar cuatro movimientos de seis espacios con cualquier combinación de
    fichas."

    (Doubles are played twice over: 6-6 is four moves of six, by any combination of checkers.)
    """
    # two checkers on 24 and 23: shares 3+1, 2+2, 1+3 (4+0 and 0+4 would bear off from outside)
    plays = assert_plays(mover(WHITE, {24: 1, 23: 1}), WHITE, (6, 6),
                         {"24/6 23/17", "24/12 23/11", "24/18 23/5"})
    assert all([s.die for s in p.steps] == [6] * 4 for p in plays.values())


def test_es_both_numbers_and_not_one_that_blocks_the_other() -> None:
    """001_9738b3da57545a04.txt: "Los jugadores siempre deberán mover los dos números de un tiro,
    o los cuatro números de un tiro doble, siempre que sea posible, y no podrán jugar el número de
    un dado si ello implica impedir el movimiento indicado por el otro dado."

    (Both numbers, or all four of a double, must be played when possible; a die may not be played
    in a way that prevents the other.)
    """
    # 6-2, checkers on 20 and 4, 12 closed: 20/18 would leave the 6 unplayable (18/12 closed, 4
    # cannot bear off with one outside); so 20/14 with the 6 and 4/2 with the 2
    assert_plays(mover(WHITE, {20: 1, 4: 1}, close(12)), WHITE, (6, 2), {"20/14 4/2"})
    # and all four of a double: the 4 can move only once (no bear-off with the 20 out), so the
    # 20 moves three or four times
    plays = assert_plays(mover(WHITE, {20: 1, 4: 1}), WHITE, (2, 2), {"20/12", "20/14 4/2"})
    assert all(p.dice_used == 4 for p in plays.values())


def test_es_only_one_number_playable_play_it() -> None:
    """001_9738b3da57545a04.txt: "Cuando sólo pueda jugarse un único número, el jugador deberá
    jugar ese número obligatoriamente."

    (When only one number can be played, it must be played.)
    """
    # black this time: 6-5 from its 20 with its 14 and 9 closed
    assert_plays(mover(BLACK, {20: 1}, close(14, 9)), BLACK, (6, 5), {"20/15"})


def test_es_either_not_both_play_the_higher() -> None:
    """001_9738b3da57545a04.txt: "Si ambos números pueden moverse, pero el movimiento de uno de los
    dados implica impedir el movimiento del otro, el jugador deberá mover la ficha tantos espacios
    como indique el dado mayor."

    (If both numbers can be played but playing one prevents the other, play the higher.)
    """
    assert_plays(mover(WHITE, {20: 1}, close(11)), WHITE, (6, 3), {"20/14"})


def test_es_no_number_playable_lose_the_turn() -> None:
    """001_9738b3da57545a04.txt: "Si ningún número puede ser jugado, el jugador pierde su turno."

    (If no number can be played, the turn is lost.)
    """
    assert_plays(mover(WHITE, {13: 1}, close(22, 21), me_bar=1), WHITE, (4, 3), {""})


def test_es_doubles_as_many_as_possible() -> None:
    """001_9738b3da57545a04.txt: "En el caso de los dobles, si ninguno de los cuatro números
    pueden jugarse, se deberán mover tantos espacios como sea posible."

    (With doubles, if not all four numbers can be played, play as many as possible.)
    """
    plays = assert_plays(mover(WHITE, {20: 1}, close(11)), WHITE, (3, 3), {"20/14"})
    assert plays["20/14"].dice_used == 2


def test_es_blot_hit_goes_to_the_bar() -> None:
    """001_9738b3da57545a04.txt: "Se denomina ficha aislada a la única ficha que ocupa un pico
    (blot). Si la ficha del oponente cae en ese pico, la ficha aislada es capturada y colocada en
    la barra."

    (A lone checker is a blot; an opposing checker landing there captures it to the bar.)
    """
    plays = assert_plays(mover(BLACK, {13: 1}, {9: 1}), BLACK, (4, 2), {"13/9*/7", "13/7"})
    assert plays["13/9*/7"].after.bar_white == 1
    assert plays["13/7"].after.bar_white == 0


def test_es_two_hits_or_four_with_a_double() -> None:
    """001_9738b3da57545a04.txt: "Es factible que, en una misma jugada, se puedan capturar dos
    fichas aisladas (cada una con el número de un dado) y hasta un máximo de cuatro fichas, cuando
    se tira un doble."

    (One play may hit two blots, one per die, and up to four with a double.)
    """
    plays = assert_plays(mover(WHITE, {20: 1, 18: 1}, {15: 1, 16: 1}), WHITE, (5, 2),
                         {"20/15* 18/16*", "20/15*/13", "20/13", "18/16*/11", "18/11"})
    assert plays["20/15* 18/16*"].after.bar_black == 2
    four = {19: 1, 18: 1, 17: 1, 16: 1}
    plays = assert_plays(mover(WHITE, {20: 1}, four), WHITE, (1, 1), {"20/19*/18*/17*/16*"})
    assert plays["20/19*/18*/17*/16*"].after.bar_black == 4


def test_es_bar_checkers_enter_before_anything_else() -> None:
    """001_9738b3da57545a04.txt: "Cada vez que un jugador tenga una o más fichas sobre la barra,
    deberá ingresarlas en la casa interior de su oponente. De lo contrario, no podrá mover ninguna
    otra ficha."

    (Checkers on the bar must enter in the opponent's home board; until then nothing else moves.)
    """
    # two on the bar, 6-5, 19 closed: one enters with the 5; the 6 is lost (13/7 not allowed)
    plays = assert_plays(mover(WHITE, {13: 1}, close(19), me_bar=2), WHITE, (6, 5), {"bar/20"})
    assert plays["bar/20"].after.bar_white == 1


def test_es_enter_on_opponents_4_or_6() -> None:
    """001_9738b3da57545a04.txt: "Para ingresar una ficha, el jugador deberá colocarla en un pico
    vacío según lo que indique el número de uno los dados arrojados. Por ejemplo, si un jugador
    saca 4 y 6, podrá ingresar una ficha en los picos 4 ó 6 de su oponente, siempre y cuando
    dichos picos no estén ocupados por dos o más fichas contrarias. También se puede ingresar en
    un pico donde haya una ficha aislada; ésta será enviada a la barra."

    (A checker enters by a die on the opponent's 4 or 6 point with 6-4, unless two or more
    opposing checkers hold it; entering on a blot hits it. "Vacío" (empty) is too strict: by the
    tournament rules a point with the player's own checkers is open too.)
    """
    # opponent's 4 = white's 21, opponent's 6 = white's 19 (own() takes each side's numbering)
    assert_plays(own({}, {}, bar_white=2), WHITE, (6, 4), {"bar/21 bar/19"})
    assert_plays(own({}, {4: 1}, bar_white=2), WHITE, (6, 4), {"bar/21* bar/19"})
    assert_plays(own({19: 1}, {}, bar_white=2), WHITE, (6, 4), {"bar/21 bar/19"})
    assert_plays(own({}, {6: 2}, bar_white=2), WHITE, (6, 4), {"bar/21"})


def test_es_white_6_4_enters_on_blacks_4() -> None:
    """001_9738b3da57545a04.txt: "Si el jugador de blancas tira un 6/4 y tiene una ficha en la
    barra, deberá ingresar la ficha en el pico cuatro del jugador de negras, ya que el pico seis no
    está vacío. Si ninguno de los picos está vacío, el jugador pierde su turno."

    (White on the bar with 6-4 must enter on black's 4-point when the 6-point is not open; with
    neither open, the turn is lost.)
    """
    assert_plays(own({13: 1}, {6: 2}, bar_white=1), WHITE, (6, 4), {"bar/15", "bar/21 13/7"})
    assert_plays(own({13: 1}, {6: 2, 4: 2}, bar_white=1), WHITE, (6, 4), {""})


def test_es_enter_what_can_enter_lose_the_rest() -> None:
    """001_9738b3da57545a04.txt: "Si un jugador puede ingresar sólo algunas de sus fichas porque
    los números obtenidos en los dados no le permiten ingresar todas ellas, ubica una ficha en el
    tablero y pierde la posibilidad de jugar el movimiento correspondiente al otro dado."

    (If only some bar checkers can enter, one enters and the other die is lost.)
    """
    plays = assert_plays(mover(WHITE, {}, close(22), me_bar=2), WHITE, (5, 3), {"bar/20"})
    assert plays["bar/20"].dice_used == 1 and plays["bar/20"].after.bar_white == 1


def test_es_after_the_last_enters_the_other_die_must_move() -> None:
    """001_9738b3da57545a04.txt: "Si luego de haber ingresado la última ficha de la barra quedara
    un dado sin jugar, el jugador deberá utilizarlo para mover la misma ficha que ingresó o una
    distinta."

    (A die left after the last bar checker enters must move the same checker or another.)
    """
    plays = assert_plays(mover(WHITE, {8: 1}, me_bar=1), WHITE, (2, 1),
                         {"bar/22", "bar/24 8/6", "bar/23 8/7"})
    assert all(p.dice_used == 2 for p in plays.values())


def test_es_bear_off_once_all_fifteen_are_home() -> None:
    """001_9738b3da57545a04.txt: "Una vez que un jugador haya movido sus quince fichas hacia su
    casa interior, podrá comenzar a sacarlas."

    (Once all fifteen are in the home board, bearing off may begin.)
    """
    home = {5: 3, 4: 3, 3: 3, 2: 3, 1: 3}
    assert_plays(mover(WHITE, home), WHITE, (6, 6), {"5/off(3) 4/off"})
    # one still on 7: it comes home with the first 6, then the bear-off starts
    almost = {7: 1, 5: 2, 4: 3, 3: 3, 2: 3, 1: 3}
    assert_plays(mover(WHITE, almost), WHITE, (6, 6), {"7/1 5/off(2) 4/off"})


def test_es_die_bears_off_from_its_point() -> None:
    """001_9738b3da57545a04.txt: "El jugador deberá retirar del tablero la ficha correspondiente
    al número de pico que coincida con el número del dado arrojado. Por lo tanto, si arroja un 6,
    el jugador podrá retirar una ficha del pico número 6."

    (A die takes off a checker from the point of its number: a 6 from the 6-point.)
    """
    assert_plays(mover(WHITE, {6: 2}), WHITE, (6, 1), {"6/5 6/off"})


def test_es_empty_die_point_move_from_a_higher_point() -> None:
    """001_9738b3da57545a04.txt: "Si no hay ninguna ficha en el pico indicado por el dado, el
    jugador deberá realizar un movimiento lícito utilizando una ficha que se encuentre en un pico de
    mayor número."

    (If the die's point is empty, the die must move a checker from a higher point.)
    """
    # 4-1 with one on 6 and one on 2: the 4 cannot take the 2 off; every order ends 6/1
    assert_plays(mover(WHITE, {6: 1, 2: 1}), WHITE, (4, 1), {"6/1"})


def test_es_no_higher_checker_bear_off_from_the_highest() -> None:
    """001_9738b3da57545a04.txt: "Si tampoco hay fichas en los picos de mayor número, el jugador
    deberá sacar una ficha del pico más alto que posea."

    (If no checker is higher either, bear off from the highest occupied point.)
    """
    assert_plays(mover(WHITE, {3: 2, 1: 1}), WHITE, (6, 5), {"3/off(2)"})


def test_es_not_obliged_to_bear_off() -> None:
    """001_9738b3da57545a04.txt: "Un jugador no está obligado a retirar fichas si tiene la
    posibilidad de hacer cualquier otro movimiento permitido. En el siguiente gráfico, las blancas
    han obtenido 6/4 y sacan dos fichas."

    (Bearing off is not compulsory when another legal move exists; white's 6-4 takes two off.)
    """
    assert_plays(mover(WHITE, {6: 2, 4: 2}), WHITE, (6, 4), {"6/off 4/off", "6/2 6/off"})
    plays = assert_plays(mover(WHITE, {5: 2}), WHITE, (4, 1), {"5/4 5/1", "5/off"})
    assert plays["5/4 5/1"].after.off_white == 13


SIX_ONE = own({6: 1, 1: 2}, {6: 5, 8: 5, 13: 4}, bar_black=1)


def test_es_six_one_with_one_checker_on_the_six() -> None:
    """001_9738b3da57545a04.txt: "Si la jugada hubiese sido 6/1, el movimiento normal hubiese
    consistido en retirar las fichas de los picos 6 y 1. Sin embargo, también hubiese sido posible,
    en caso de que sólo tuviéramos una ficha en el pico 6, realizar un movimiento de 1 pico con esa
    ficha, para luego sacar la ficha desde el pico 5 usando el 6 del dado restante."

    (With 6-1 the usual play takes off from the 6 and the 1; with a single checker on the 6 it
    can also move 1 and then come off the 5 with the 6.)
    """
    plays = assert_plays(SIX_ONE, WHITE, (6, 1), {"6/off 1/off", "6/off"})
    assert [(s.src, s.dst, s.die) for s in plays["6/off"].steps] == [(6, 5, 1), (5, OFF, 6)]


def test_es_six_one_blot_can_be_hit_from_the_bar() -> None:
    """001_9738b3da57545a04.txt: "En este caso, si el jugador retira dos fichas (una por cada
    dado), le da al jugador de negras la oportunidad de capturar la ficha aislada del pico, en
    caso de que obtenga un 1, e ingresar la ficha negra de la barra en dicho pico."

    (Taking two off leaves a blot black can hit by entering with a 1.)
    """
    plays = {p.notation: p for p in legal_plays(SIX_ONE, WHITE, (6, 1))}
    blot = plays["6/off 1/off"].after
    replies = assert_plays(blot, BLACK, (2, 1), {
        "bar/24*/22", "bar/24* 13/11", "bar/24* 8/6", "bar/24* 6/4",
        "bar/22", "bar/23 13/12", "bar/23 8/7", "bar/23 6/5",
    })
    assert replies["bar/24* 13/11"].after.bar_white == 1
    # after the safe play black's 24-point is closed to the 1
    assert_plays(plays["6/off"].after, BLACK, (1, 1), {""})


def test_es_six_one_safe_play_bears_off_both_next_turn() -> None:
    """001_9738b3da57545a04.txt: "Para evitar esta situación, el jugador de blancas, puede jugar
    el 1 en primer lugar y, luego, el 6 con la misma ficha y, de esa manera, mantener una posición
    segura en el pico 1 y retirar las dos fichas ubicadas en ese pico en el turno siguiente, con
    cualquier número de los dados."

    (Playing the 1 first and the 6 with the same checker keeps the 1-point safe, and any roll
    bears both off next turn.)
    """
    plays = {p.notation: p for p in legal_plays(SIX_ONE, WHITE, (6, 1))}
    safe = plays["6/off"].after
    assert safe.points[index(WHITE, 1)] == 2
    for dice, replies in sweep(safe, WHITE).items():
        assert [p.after.off_white for p in replies] == [15], dice


# --------------------------------------------------------------------------------------------
# 002_cab60496044ab6a5.txt: Italian short backgammon page
# --------------------------------------------------------------------------------------------


def test_it_24_points_30_checkers_two_dice() -> None:
    """002_cab60496044ab6a5.txt: "Per una partita si usano una tavola con 24 punti, 30 pedine di
    due colori e due dadi. Ogni partecipante ha 15 pedine."

    (A board of 24 points, 30 checkers in two colours, two dice; 15 checkers each.)
    """
    start = STANDARD.start
    assert len(start.points) == 24
    assert start.count(WHITE) + start.count(BLACK) == 30
    assert start.validate() is start
    with pytest.raises(PositionError):
        own({6: 14}, {6: 15}).validate(16)
    with pytest.raises(DiceError):
        legal_plays(start, WHITE, (3, 4, 5))  # type: ignore[arg-type]


def test_it_start_same_for_each_side_in_its_direction() -> None:
    """002_cab60496044ab6a5.txt: "La posizione iniziale è identica per ciascun giocatore rispetto
    alla direzione del proprio movimento: 2 pedine si trovano sul punto 24, 5 sul 13, 3 sull'8 e 5
    sul 6."

    (The start is the same for each player relative to their own direction: 2 on 24, 5 on 13, 3
    on 8, 5 on 6.)
    """
    points = STANDARD.start.points
    assert all(points[i] == -points[23 - i] for i in range(24))
    assert {p: points[p - 1] for p in range(1, 25) if points[p - 1] > 0} == START_LAYOUT


def test_it_opponents_move_towards_each_other() -> None:
    """002_cab60496044ab6a5.txt: "Gli avversari si muovono uno verso l'altro, portano tutte le
    pedine lungo il proprio percorso nella casa e poi le rimuovono dalla tavola."

    (The players move towards each other, bring all checkers home and then bear them off.)
    """
    for side, frm, to in ((WHITE, 23, 12), (BLACK, 0, 11)):
        (play,) = [p for p in legal_plays(STANDARD.start, side, (6, 5)) if p.notation == "24/13"]
        before, after = STANDARD.start.points, play.after.points
        assert abs(after[frm]) == abs(before[frm]) - 1 and abs(after[to]) == abs(before[to]) + 1


def test_it_dice_played_separately_2_and_3() -> None:
    """002_cab60496044ab6a5.txt: "I numeri dei dadi vengono giocati separatamente. Per esempio,
    con 2 e 3 si può muovere una pedina di 2 punti e un'altra di 3, oppure giocare entrambi i
    valori con una sola pedina."

    (The dice are played separately: with 2 and 3, one checker 2 and another 3, or both with one
    checker.)
    """
    assert_plays(mover(WHITE, {20: 1, 10: 1}), WHITE, (3, 2),
                 {"20/18 10/7", "20/17 10/8", "20/15", "10/5"})


def test_it_intermediate_stop_in_at_least_one_order() -> None:
    """002_cab60496044ab6a5.txt: "Nel secondo caso, la sosta intermedia deve essere consentita in
    almeno un ordine valido di gioco dei dadi."

    (Moving one checker by both, the intermediate stop must be allowed in at least one order.)
    """
    assert_plays(mover(WHITE, {20: 1}, close(18)), WHITE, (3, 2), {"20/15"})
    assert_plays(mover(WHITE, {20: 1}, close(17)), WHITE, (3, 2), {"20/15"})
    assert_plays(mover(WHITE, {20: 1}, close(17, 18)), WHITE, (3, 2), {""})


def test_it_no_stop_on_a_closed_point() -> None:
    """002_cab60496044ab6a5.txt: "Non è possibile fermarsi su un punto chiuso, dove si trovano due
    o più pedine dell'avversario."

    (No stopping on a closed point, one with two or more opposing checkers.)
    """
    assert_plays(mover(WHITE, {20: 1}, close(16)), WHITE, (4, 4), {""})
    assert_plays(mover(WHITE, {20: 1}, {12: 4}), WHITE, (4, 4), {"20/16"})


def test_it_end_on_free_own_or_blot_which_is_hit() -> None:
    """002_cab60496044ab6a5.txt: "È consentito terminare la mossa su un punto libero, su un punto
    con le proprie pedine o su un punto occupato da una sola pedina avversaria. Tale pedina isolata
    è chiamata blot; quando viene raggiunta, è considerata colpita e viene mandata sul bar."

    (A move may end on a free point, an own point, or a point with one opposing checker - a blot,
    which is hit and sent to the bar.)
    """
    # black: from its 10 to its 7 (own) via 9 (a white blot) or 8 (free); the 7s are stuck
    pos = mover(BLACK, {10: 1, 7: 2}, {6: 2, 5: 2, 9: 1})
    plays = assert_plays(pos, BLACK, (2, 1), {"10/9*/7", "10/7"})
    assert plays["10/9*/7"].after.bar_white == 1


def test_it_double_3_3_four_moves_of_three() -> None:
    """002_cab60496044ab6a5.txt: "Il doppio viene giocato quattro volte. Per esempio, il risultato
    3:3 consente quattro movimenti separati di tre punti."

    (A double is played four times: 3-3 gives four separate moves of three.)
    """
    plays = assert_plays(mover(WHITE, {24: 1, 23: 1}, {1: 5, 2: 5, 3: 5}), WHITE, (3, 3),
                         {"24/12", "24/15 23/20", "24/18 23/17", "24/21 23/14", "23/11"})
    assert all([s.die for s in p.steps] == [3] * 4 for p in plays.values())


def test_it_both_values_when_possible() -> None:
    """002_cab60496044ab6a5.txt: "Il giocatore deve usare entrambi i valori usciti, se le regole
    della posizione lo consentono."

    (Both numbers must be used if the position allows.)
    """
    # 5-4: the 20 is stuck (16, 15 closed); the 13 plays both dice rather than one
    assert_plays(mover(WHITE, {20: 1, 13: 1}, close(16, 15)), WHITE, (5, 4), {"13/4"})


def test_it_only_one_value_usable_use_it() -> None:
    """002_cab60496044ab6a5.txt: "Se è possibile giocare solo uno dei due numeri, si usa il valore
    disponibile."

    (If only one of the numbers can be played, that one is used.)
    """
    assert_plays(mover(BLACK, {20: 1}, close(15, 13)), BLACK, (5, 2), {"20/18"})


def test_it_both_allowed_singly_not_together_use_the_higher() -> None:
    """002_cab60496044ab6a5.txt: "Quando entrambi i numeri sono consentiti singolarmente, ma non
    è possibile giocarli insieme, è obbligatorio usare quello maggiore."

    (When each number is playable alone but not both together, the higher is compulsory.)
    """
    assert_plays(mover(WHITE, {20: 1}, close(15)), WHITE, (4, 1), {"20/16"})


def test_it_bar_checkers_re_enter_before_others_move() -> None:
    """002_cab60496044ab6a5.txt: "Finché sul bar si trova almeno una pedina del giocatore, il
    normale movimento delle altre pedine è vietato: prima occorre far rientrare le pedine colpite
    nella casa dell'avversario."

    (While a checker is on the bar, the others may not move: it must first re-enter in the
    opponent's home.)
    """
    assert_plays(mover(BLACK, {13: 1}, close(22), me_bar=1), BLACK, (3, 1),
                 {"bar/21", "bar/24 13/10"})


def test_it_entry_point_set_by_the_die() -> None:
    """002_cab60496044ab6a5.txt: "Il numero del punto di ingresso è determinato dal valore del
    dado."

    (The die's value decides the entry point.)
    """
    for d in range(1, 7):
        assert_plays(mover(WHITE, {}, me_bar=4), WHITE, (d, d), {f"bar/{25 - d}(4)"})


def test_it_both_entry_points_closed_no_move() -> None:
    """002_cab60496044ab6a5.txt: "Se entrambi i punti corrispondenti sono chiusi, non è possibile
    effettuare la mossa."

    (If both entry points are closed, no move is possible.)
    """
    assert_plays(mover(BLACK, {13: 1}, close(24, 19), me_bar=1), BLACK, (6, 1), {""})


def test_it_one_entry_closed_enter_with_the_other() -> None:
    """002_cab60496044ab6a5.txt: "Se ne è chiuso solo uno, bisogna entrare con il secondo valore,
    se tale ingresso è consentito."

    (If only one is closed, enter with the other number.)
    """
    assert_plays(mover(WHITE, {13: 1}, close(20), me_bar=1), WHITE, (5, 2),
                 {"bar/18", "bar/23 13/8"})


def test_it_remaining_die_played_if_possible_else_lost() -> None:
    """002_cab60496044ab6a5.txt: "Dopo il rientro della pedina dal bar, anche il dado rimanente
    viene giocato se esiste una mossa valida; viene perso solo quando non è possibile alcuna
    continuazione legale."

    (After re-entering, the other die is played if any valid move exists; it is lost only when
    no legal continuation exists.)
    """
    assert_plays(mover(WHITE, {13: 1}, close(20), me_bar=1), WHITE, (5, 2),
                 {"bar/18", "bar/23 13/8"})
    plays = assert_plays(mover(WHITE, {}, close(19, 14), me_bar=1), WHITE, (6, 5), {"bar/20"})
    assert plays["bar/20"].dice_used == 1


def test_it_two_checkers_close_a_point() -> None:
    """002_cab60496044ab6a5.txt: "Due o più pedine proprie su uno stesso punto lo chiudono
    all'avversario."

    (Two or more own checkers on a point close it to the opponent.)
    """
    assert_plays(mover(BLACK, {13: 1}, {8: 2}), BLACK, (5, 5), {""})
    # with one checker there the point is open: hit, then home and off (5 from the 3-point)
    assert_plays(mover(BLACK, {13: 1}, {8: 1}), BLACK, (5, 5), {"13/8*/off"})


def test_it_six_point_chain_blocks_completely() -> None:
    """002_cab60496044ab6a5.txt: "Una catena completa di sei punti chiusi blocca totalmente il
    movimento di una pedina avversaria che si trovi davanti a essa."

    (A full chain of six closed points completely blocks an opposing checker in front of it.)
    """
    pos = mover(BLACK, {22: 1}, close(21, 20, 19, 18, 17, 16))
    for plays in sweep(pos, BLACK).values():
        assert [p.notation for p in plays] == [""]


def test_it_bear_off_only_when_all_fifteen_are_home() -> None:
    """002_cab60496044ab6a5.txt: "È consentito togliere le pedine solo dopo che tutte le 15
    pedine del giocatore si trovano nella sua casa."

    (Checkers may be borne off only after all 15 are in the home board.)
    """
    pos = mover(BLACK, {10: 1, 5: 2, 4: 3, 3: 3, 2: 3, 1: 3})
    assert_plays(pos, BLACK, (6, 5), {"10/4 5/off", "10/off"})


def test_it_exact_die_or_a_normal_move_inside() -> None:
    """002_cab60496044ab6a5.txt: "Il valore esatto del dado permette di rimuovere una pedina dal
    punto con il numero corrispondente. Invece di rimuoverla, è possibile effettuare un normale
    movimento all'interno della casa, se conforme alle regole della mossa."

    (The exact die removes a checker from its point; instead, a normal move inside the home
    board is allowed.)
    """
    plays = assert_plays(mover(WHITE, {5: 2, 3: 1}), WHITE, (2, 1),
                         {"5/4 5/3", "5/2", "5/4 3/1", "3/off"})
    assert sum(p.after.off_white > 12 for p in plays.values()) == 1


def test_it_empty_die_point_try_a_higher_checker_first() -> None:
    """002_cab60496044ab6a5.txt: "Se sul punto indicato dal dado non c'è alcuna pedina, occorre
    prima verificare la possibilità di una normale mossa con una pedina da un punto più alto."

    (If the die's point is empty, first see whether a checker on a higher point can move.)
    """
    # 5-3 with one on 6 and two on 1: the 5 is 6/1 (not 1/off), the 3 is 6/3; the only result
    # is the 6 checker off (6/1 then 1/off by the 3 is the same position)
    plays = assert_plays(mover(WHITE, {6: 1, 1: 2}), WHITE, (5, 3), {"6/off"})
    assert plays["6/off"].steps[0].src == 6


def test_it_lower_point_only_when_the_die_point_and_higher_are_empty() -> None:
    """002_cab60496044ab6a5.txt: "È consentito rimuovere una pedina da un punto inferiore solo
    quando sul punto indicato e su tutti i punti superiori non ci sono più pedine proprie."

    (A checker may come off a lower point only when the die's point and all higher ones are
    empty.)
    """
    # 4-3 with two on 5 and one on 2: both dice must move the 5s; nothing comes off
    assert_plays(mover(WHITE, {5: 2, 2: 1}), WHITE, (4, 3), {"5/2 5/1"})


def test_it_hit_during_bear_off_re_enter_and_come_home() -> None:
    """002_cab60496044ab6a5.txt: "Se durante la rimozione una delle pedine viene colpita, non è
    possibile continuare a toglierle. Deve rientrare dal bar, essere nuovamente portata nella
    propria casa e solo dopo si può proseguire con la rimozione delle altre pedine."

    (A checker hit during the bear-off stops it: it must re-enter, come home again, and only then
    may bearing off continue.)
    """
    on_bar = mover(BLACK, {6: 2, 1: 2}, {12: 3}, me_bar=1)
    assert_plays(on_bar, BLACK, (6, 1), {"bar/18", "bar/19 6/5"})
    back_home = mover(BLACK, {6: 3, 1: 2}, {12: 3})
    assert_plays(back_home, BLACK, (6, 1), {"6/off 1/off", "6/5 6/off"})


# --------------------------------------------------------------------------------------------
# 004_87b5a2cbd0b12fe1.txt: Spanish international tournament rules
# --------------------------------------------------------------------------------------------


def test_int_fifteen_each_brought_home_and_off() -> None:
    """004_87b5a2cbd0b12fe1.txt: "Cada jugador empieza con quince fichas repartidas sobre el
    tablero. El objetivo es llevar las quince fichas alrededor del tablero hasta tu propia casa
    (el cuadrante más cercano a ti) y desde ahí sacarlas (retirarlas del tablero) antes de que el
    rival haga lo mismo."

    (Each player starts with fifteen checkers, brings them round to the home board and bears them
    off from there.)
    """
    assert STANDARD.start.count(WHITE) == STANDARD.start.count(BLACK) == 15
    for dice in ROLLS:  # nothing comes off from the start: the checkers are not home
        assert all(p.after.off_white == 0 for p in legal_plays(STANDARD.start, WHITE, dice))


def test_int_opposite_directions_numbered_from_own_corner() -> None:
    """004_87b5a2cbd0b12fe1.txt: "Los dos jugadores mueven sus fichas en direcciones opuestas. ...
    El tablero se lee desde el punto de vista de cada jugador, con los puntos numerados del 1 al 24
    a partir de la propia esquina de salida."

    (The players move in opposite directions; each numbers the points 1 to 24 from their own
    corner.)
    """
    for p in range(1, 25):
        assert STANDARD.abs_index(WHITE, p) + STANDARD.abs_index(BLACK, p) == 23
        assert STANDARD.abs_index(WHITE, p) == index(WHITE, p)
        assert STANDARD.abs_index(BLACK, p) == index(BLACK, p)


def test_int_fifteen_is_fixed() -> None:
    """004_87b5a2cbd0b12fe1.txt: "La cifra de 15 fichas y la geometría de cuatro cuadrantes están
    fijadas desde el siglo XVII".

    (Fifteen checkers and four quadrants are fixed.)
    """
    with pytest.raises(PositionError):
        Position.from_json({"points": [2] + [0] * 23})
    assert STANDARD.home_size * 4 == 24


def test_int_start_position_from_each_players_view() -> None:
    """004_87b5a2cbd0b12fe1.txt: "Leído desde la propia perspectiva de cada jugador (con el punto
    1 en la esquina derecha más cercana y el punto 24 en la esquina izquierda lejana): ... Total:
    $2 + 5 + 3 + 5 = 15$ fichas."

    (Read from each player's own side, 2 + 5 + 3 + 5 = 15 checkers.)
    """
    assert sum(START_LAYOUT.values()) == 15
    assert STANDARD.start == own(START_LAYOUT, START_LAYOUT)


def test_int_start_mirrored_pip_count_167() -> None:
    """004_87b5a2cbd0b12fe1.txt: "La posición está reflejada en espejo para el rival. El pip count
    inicial, la distancia total en pips que cada jugador todavía tiene que recorrer para sacar
    todas sus fichas, es 167 para ambos."

    (The position is mirrored for the opponent; the starting pip count is 167 for both.)
    """
    start = STANDARD.start
    assert start.pip_count(WHITE) == start.pip_count(BLACK) == 167
    assert sum(p * n for p, n in START_LAYOUT.items()) == 167
    assert all(start.points[i] == -start.points[23 - i] for i in range(24))


def test_int_rule_1_two_separate_moves_5_3() -> None:
    """004_87b5a2cbd0b12fe1.txt: "Los dos números de los dados se juegan como dos movimientos
    separados. Una tirada de 5-3 puede jugarse moviendo una sola ficha 8 pips, o moviendo dos
    fichas 5 y 3 pips respectivamente; pero el total de 8 pips ha de descomponerse en un paso legal
    de 5 seguido de un paso legal de 3 (o al revés), con parada intermedia en un punto legal."

    (The two numbers are separate moves; one checker may go 8 only as a legal 5 then a legal 3
    (or the reverse) with a legal intermediate stop.)
    """
    me = {13: 1}
    assert_plays(mover(WHITE, me), WHITE, (5, 3), {"13/5"})
    assert_plays(mover(WHITE, me, close(8)), WHITE, (5, 3), {"13/5"})
    assert_plays(mover(WHITE, me, close(8, 10)), WHITE, (5, 3), {""})
    assert_plays(mover(WHITE, me, close(5)), WHITE, (5, 3), {"13/8"})
    assert_plays(mover(WHITE, {13: 1, 6: 1}), WHITE, (5, 3),
                 {"13/5", "13/8 6/3", "13/10 6/1"})


def test_int_rule_2_double_four_is_four_moves_of_four() -> None:
    """004_87b5a2cbd0b12fe1.txt: "Los dobles se juegan como cuatro movimientos de esa cifra. Un 4-4
    = cuatro movimientos de cuatro pips cada uno."

    (Doubles are four moves of that number: 4-4 is four moves of four pips.)
    """
    plays = legal_plays(STANDARD.start, WHITE, (4, 4))
    for play in plays:
        assert [s.die for s in play.steps] == [4, 4, 4, 4]
        assert STANDARD.start.pip_count(WHITE) - play.after.pip_count(WHITE) == 16
    theirs = find_plays(to_gnubg_board(STANDARD.start, WHITE), (4, 4))
    assert gnubg_match(result_keys(STANDARD.start, WHITE, (4, 4)), theirs, STANDARD.start,
                       WHITE) is None


def test_int_rule_3_legal_landing_includes_own_made_point() -> None:
    """004_87b5a2cbd0b12fe1.txt: "Un movimiento es legal si termina en uno de estos puntos: Un
    punto abierto (un punto sin fichas, o con fichas propias, o con exactamente una ficha del
    rival). Un punto propio hecho (ya ocupado por dos o más fichas propias)."

    (A move is legal if it ends on an open point - empty, own checkers, or exactly one opposing
    checker - or on an own made point.)
    """
    # 2-1 from 9 with 6 and 5 closed: 9/7 or 9/8, never both dice, so the higher: 9/7, whether
    # 7 is an own made point, empty, or a blot
    assert_plays(mover(WHITE, {9: 1, 7: 2}, close(6, 5)), WHITE, (2, 1), {"9/7"})
    assert_plays(mover(WHITE, {9: 1}, close(6, 5)), WHITE, (2, 1), {"9/7"})
    assert_plays(mover(WHITE, {9: 1}, close(6, 5) | {7: 1}), WHITE, (2, 1), {"9/7*"})


def test_int_rule_4_closed_point() -> None:
    """004_87b5a2cbd0b12fe1.txt: "Un punto ocupado por dos o más fichas del rival está cerrado: no
    puedes aterrizar ahí."

    (A point with two or more opposing checkers is closed: you cannot land there.)
    """
    assert_plays(own({}, {3: 2}, bar_white=1), WHITE, (3, 3), {""})


def test_int_rule_5_landing_on_one_hits_it() -> None:
    """004_87b5a2cbd0b12fe1.txt: "Aterrizar en un punto con exactamente una ficha del rival
    significa que te la comes, y esa ficha va a la barra."

    (Landing on exactly one opposing checker hits it; it goes to the bar.)
    """
    plays = assert_plays(own({}, {3: 1, 24: 2}, bar_white=1), WHITE, (3, 3), {"bar/22*/13"})
    assert plays["bar/22*/13"].after.bar_black == 1


def test_int_rule_6_play_all_dice() -> None:
    """004_87b5a2cbd0b12fe1.txt: "Hay que jugar todos los dados si es legalmente posible."

    (All the dice must be played if legally possible.)
    """
    assert_plays(mover(WHITE, {24: 1}), WHITE, (2, 2), {"24/16"})
    plays = assert_plays(mover(WHITE, {24: 1}, close(18)), WHITE, (2, 2), {"24/20"})
    assert plays["24/20"].dice_used == 2


def test_int_rule_6_only_one_playable() -> None:
    """004_87b5a2cbd0b12fe1.txt: "Si solo se puede jugar uno de los dos, hay que jugar ese."

    (If only one of the two can be played, that one must be.)
    """
    assert_plays(mover(WHITE, {20: 1}, close(16, 13)), WHITE, (4, 3), {"20/17"})


def test_int_rule_6_none_playable_turn_lost() -> None:
    """004_87b5a2cbd0b12fe1.txt: "Si no se puede jugar ninguno, el turno se pierde."

    (If neither can be played, the turn is lost.)
    """
    pos = mover(WHITE, {13: 1}, close(20, 23), me_bar=1)
    plays = assert_plays(pos, WHITE, (5, 2), {""})
    assert plays[""].after == pos


def test_int_rule_6_either_not_both_play_the_higher() -> None:
    """004_87b5a2cbd0b12fe1.txt: "Si cualquiera de los dos dados se puede jugar por separado pero
    no los dos juntos, hay que jugar el más alto."

    (If either die can be played alone but not both, the higher must be played.)
    """
    assert_plays(mover(WHITE, {20: 1}, close(13)), WHITE, (5, 2), {"20/15"})


def test_int_all_bar_checkers_enter_first() -> None:
    """004_87b5a2cbd0b12fe1.txt: "Una ficha comida pasa a la barra. Mientras tengas alguna ficha
    en la barra, no puedes mover ninguna otra ficha hasta que todas las fichas de la barra hayan
    vuelto a entrar."

    (A hit checker goes to the bar; nothing else moves until every bar checker has re-entered.)
    """
    assert_plays(mover(WHITE, {13: 1}, me_bar=3), WHITE, (2, 2),
                 {"bar/21 bar/23(2)", "bar/23(3) 13/11"})
    assert_plays(mover(WHITE, {13: 1}, me_bar=4), WHITE, (2, 2), {"bar/23(4)"})


def test_int_re_enter_on_the_opponents_home_5_2() -> None:
    """004_87b5a2cbd0b12fe1.txt: "La reentrada se hace por la casa del rival (tus propios puntos
    del 19 al 24), según los dados que saques. Con una tirada de 5-2 puedes entrar por el punto 5
    o por el punto 2 de la casa del rival, siempre que estén abiertos."

    (Re-entry is in the opponent's home board, your points 19 to 24: with 5-2 on the opponent's
    5 or 2 point, if open.)
    """
    assert_plays(own({13: 1}, {}, bar_white=1), WHITE, (5, 2),
                 {"bar/18", "bar/20 13/11", "bar/23 13/8"})
    assert_plays(own({13: 1}, {5: 2}, bar_white=1), WHITE, (5, 2), {"bar/18", "bar/23 13/8"})


def test_int_closeout_no_entry() -> None:
    """004_87b5a2cbd0b12fe1.txt: "Si el rival tiene cerrados los seis puntos de su casa (un cierre
    completo o closeout), no puedes entrar y pierdes turnos hasta que se libere un punto."

    (Against a closed board you cannot enter and lose your turns until a point opens.)
    """
    closed = own({13: 1}, HOME_BOARD, bar_white=1)
    for plays in sweep(closed, WHITE).values():
        assert [p.notation for p in plays] == [""]
    opened = own({13: 1}, HOME_BOARD | {3: 1}, bar_white=1)
    for dice, plays in sweep(opened, WHITE).items():
        entered = [p for p in plays if p.dice_used]
        assert bool(entered) == (3 in dice), dice
        assert all(p.steps[0].dst == 22 and p.steps[0].hit for p in entered)
    assert_plays(opened, WHITE, (3, 1), {"bar/22* 13/12"})


def test_int_bear_off_once_all_fifteen_are_home() -> None:
    """004_87b5a2cbd0b12fe1.txt: "Una vez que tus quince fichas están en tu propia casa (los
    puntos del 1 al 6), puedes empezar a sacarlas del tablero."

    (Once all fifteen are in your home board, points 1 to 6, you may start bearing off.)
    """
    pos = own({7: 1, 6: 2, 5: 2}, {13: 5, 12: 5, 11: 5})
    bore = [p for plays in sweep(pos, WHITE).values() for p in plays
            if any(s.dst == OFF for s in p.steps)]
    # each bear-off was checked by replay to come after the 7 reached home; some rolls do it
    assert bore and all(any(s.src == 7 for s in p.steps) for p in bore)


@pytest.mark.parametrize("n", range(1, 7))
def test_int_bear_off_rule_1_die_n_from_point_n(n: int) -> None:
    """004_87b5a2cbd0b12fe1.txt: "Un dado de valor $n$ saca una ficha del punto $n$."

    (A die of value n bears off a checker from point n.)
    """
    assert_plays(mover(WHITE, {n: 4}), WHITE, (n, n), {f"{n}/off(4)"})


def test_int_bear_off_rule_2_move_rather_than_bear_off_a_lower_one() -> None:
    """004_87b5a2cbd0b12fe1.txt: "Si no hay ficha en el punto $n$ pero sí hay fichas en puntos
    inferiores, el dado tiene que usarse para mover; no puedes sacar una ficha de un punto inferior
    mientras haya fichas en algún punto superior."

    (With no checker on point n, the die must be used to move; no checker comes off a lower point
    while any stands on a higher one.)
    """
    assert_plays(mover(WHITE, {6: 2, 2: 1}), WHITE, (4, 3), {"6/3 6/2"})


def test_int_bear_off_rule_3_larger_die_from_the_highest() -> None:
    """004_87b5a2cbd0b12fe1.txt: "Si el valor del dado es mayor que el punto ocupado más alto, el
    dado saca la ficha del punto ocupado más alto."

    (A die larger than the highest occupied point bears off from that point.)
    """
    assert_plays(mover(WHITE, {4: 2, 2: 1}), WHITE, (6, 5), {"4/off(2)"})


def test_int_bear_off_rule_4_hit_checker_goes_all_the_way_round() -> None:
    """004_87b5a2cbd0b12fe1.txt: "Una ficha comida durante la fase de sacar tiene que volver a
    entrar por la casa del rival y recorrer todo el tablero de nuevo antes de que se pueda seguir
    sacando."

    (A checker hit during the bear-off must re-enter and travel the whole board again before
    bearing off continues.)
    """
    pos = mover(WHITE, {6: 3, 5: 3, 4: 3}, {12: 4}, me_bar=1)
    assert_plays(pos, WHITE, (6, 6), {"bar/1"})
    assert all(s.dst != OFF for p in legal_plays(pos, WHITE, (6, 5)) for s in p.steps)


def test_rolls_cover_every_roll() -> None:
    """The 21 rolls used by the sweeps above are every distinct roll of two dice."""
    assert len(ROLLS) == 21
    assert {tuple(sorted(r)) for r in itertools.product(range(1, 7), repeat=2)} == set(ROLLS)
