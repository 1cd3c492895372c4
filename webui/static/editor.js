/* The referee's position editor: a board to tap. A tap on a point puts a checker of the chosen
 * colour there (a point held by the other colour changes hands: one checker of the chosen
 * colour), "Remove" takes one away; each side's bar and tray likewise. The turn, the dice and
 * the cube go with it, and "Set the position" sends the existing set_position command.
 * Plakoto's pinned checkers stay under their point's stack ("Remove" takes them last); "Start
 * position" is the start of the variant being played.
 * Keyboard: every place is a button (Tab to it, Enter or Space acts as a tap; Delete or
 * Backspace always takes one away). The draft follows the live position until it is edited. */
"use strict";
(function () {
  const NS = "http://www.w3.org/2000/svg";
  // the board's geometry (board.js): points 70 wide, the bar at 450..510, trays from 948
  const PW = 70, LEFT = 30, RIGHT = 510, BAR_X = 450, BAR_W = 60, TOP = 40, BOTTOM = 760;
  const MID = 400, TRAY_X = 948, TRAY_W = 84, CHECKERS = 15;
  const $ = (id) => document.getElementById(id);

  const empty = () => ({ points: new Array(24).fill(0), pinned: new Array(24).fill(0),
    bar: { white: 0, black: 0 }, off: { white: 0, black: 0 } });
  const copy = (p) => ({ points: p.points.slice(0, 24),
    pinned: p.pinned ? p.pinned.slice(0, 24) : new Array(24).fill(0),
    bar: { white: p.bar.white || 0, black: p.bar.black || 0 },
    off: { white: p.off.white || 0, black: p.off.black || 0 } });

  let draft = empty(), dirty = false, live = null, T = {};

  function pointX(i) {
    if (i < 6) return RIGHT + (5 - i) * PW;
    if (i < 12) return LEFT + (11 - i) * PW;
    if (i < 18) return LEFT + (i - 12) * PW;
    return RIGHT + (i - 18) * PW;
  }

  /* Every tappable place: [key, x, y, width, height]. */
  function places() {
    const out = [];
    for (let i = 0; i < 24; i++) {
      const top = i >= 12;
      out.push(["p" + (i + 1), pointX(i), top ? TOP : MID, PW, top ? MID - TOP : BOTTOM - MID]);
    }
    out.push(["bar-white", BAR_X, TOP, BAR_W, MID - TOP]);
    out.push(["bar-black", BAR_X, MID, BAR_W, BOTTOM - MID]);
    out.push(["off-black", TRAY_X, TOP, TRAY_W, MID - 40 - TOP]);
    out.push(["off-white", TRAY_X, MID + 40, TRAY_W, BOTTOM - MID - 40]);
    return out;
  }

  function count(pos, side) {
    const s = side === "white" ? 1 : -1;
    let n = pos.bar[side] + pos.off[side];
    for (const v of pos.points.concat(pos.pinned)) if (v * s > 0) n += Math.abs(v);
    return n;
  }

  function tool() {
    const t = document.querySelector("input[name=ed-tool]:checked");
    return t ? t.value : "white";
  }

  /* One tap on place ``key`` with ``how`` ("white", "black" or "remove"). */
  function tap(key, how) {
    if (key.startsWith("p")) {
      const i = Number(key.slice(1)) - 1, v = draft.points[i], pin = draft.pinned[i];
      if (how === "remove") {
        if (v) draft.points[i] = v - Math.sign(v);
        else draft.pinned[i] = pin - Math.sign(pin);  // the pinned checker goes last
      } else {
        const s = how === "white" ? 1 : -1;
        if (v * s < 0) {  // the point changes hands (a pin under it goes too)
          draft.points[i] = s;
          draft.pinned[i] = 0;
        } else {
          draft.points[i] = Math.min(CHECKERS, Math.abs(v) + 1) * s;
        }
      }
    } else {
      const [where, side] = key.split("-");
      const n = draft[where][side];
      draft[where][side] = how === "remove" ? Math.max(0, n - 1) : Math.min(CHECKERS, n + 1);
    }
    dirty = true;
    draw();
  }

  function describe(key) {
    const W = T.white || "White", B = T.black || "Black";
    if (key.startsWith("p")) {
      const i = Number(key.slice(1)) - 1, v = draft.points[i], pin = draft.pinned[i];
      let what = v ? `${Math.abs(v)} ${v > 0 ? W : B}` : (T.ed_empty || "empty");
      if (pin) what += ` (${T.pinned || "pinned"}: ${Math.abs(pin)} ${pin > 0 ? W : B})`;
      return GC.fmt(T.ed_point || "Point {n}: {c}", { n: key.slice(1), c: what });
    }
    const [where, side] = key.split("-");
    const label = where === "bar" ? (T.ed_bar || "{p}'s bar: {n}") : (T.ed_off || "{p} off: {n}");
    return GC.fmt(label, { p: side === "white" ? W : B, n: draft[where][side] });
  }

  function cube() {
    return { value: Number($("ed-cube").value), owner: $("ed-cube-owner").value };
  }

  function dice() {
    const a = $("ed-die1").value, b = $("ed-die2").value;
    return a && b ? [Number(a), Number(b)] : null;
  }

  function draw() {
    const d = dice();
    GC.renderBoard($("edit-draw"), { position: draft, settings: {}, cube: cube(),
      dice: d, turn: $("pos-turn").value, phase: d ? "rolled" : "roll" });
    for (const z of document.querySelectorAll("#edit-board .zone")) {
      z.setAttribute("aria-label", describe(z.dataset.zone));
    }
    const w = count(draft, "white"), b = count(draft, "black");
    const c = $("ed-counts");
    c.textContent = GC.fmt(T.ed_counts || "White {w} of 15 · Black {b} of 15", { w, b });
    const ok = w === CHECKERS && b === CHECKERS;
    c.classList.toggle("bad", !ok);
    $("ed-submit").disabled = !ok;
  }

  function zones() {
    const g = document.createElementNS(NS, "g");
    g.setAttribute("class", "zones");
    for (const [key, x, y, w, h] of places()) {
      const r = document.createElementNS(NS, "rect");
      for (const [k, v] of Object.entries({ x, y, width: w, height: h, class: "zone",
        tabindex: 0, role: "button", "data-zone": key })) r.setAttribute(k, v);
      r.addEventListener("click", () => tap(key, tool()));
      r.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") tap(key, tool());
        else if (e.key === "Delete" || e.key === "Backspace") tap(key, "remove");
        else return;
        e.preventDefault();
      });
      g.appendChild(r);
    }
    $("edit-board").appendChild(g);
  }

  function follow(state, force) {
    live = state;
    if (dirty && !force) return;
    draft = state.position ? copy(state.position) : empty();
    if (state.turn) $("pos-turn").value = state.turn;
    const st = state.dice && ["rolled", "flagged", "confirm"].includes(state.phase);
    $("ed-die1").value = st ? String(state.dice[0]) : "";
    $("ed-die2").value = st ? String(state.dice[1]) : "";
    const cb = state.cube || { value: 1, owner: "center" };
    $("ed-cube").value = String(cb.value || 1);
    $("ed-cube-owner").value = cb.owner || "center";
    dirty = false;
    draw();
  }

  async function submit() {
    const position = copy(draft);
    if (!position.pinned.some((v) => v)) delete position.pinned;  // only Plakoto's have pins
    const cmd = { command: "set_position", position, turn: $("pos-turn").value };
    const d = dice();
    if (d) cmd.dice = d;
    const want = cube();
    cmd.cube = want;
    const r = await GC.post("/api/commands", cmd);
    const m = $("message");
    m.classList.toggle("bad", !r.ok);
    if (!r.ok) {
      m.textContent = GC.fmt(T.refused, { e: r.data.error || r.status });
      return;
    }
    dirty = false;
    const state = r.data.state;
    if (state) GC.show(state);
    const got = (state && state.cube) || { value: 1, owner: "center" };
    const cubeKept = got.value !== want.value || (got.owner || "center") !== want.owner;
    m.textContent = cubeKept ? GC.fmt(T.ed_cube_kept || "{v}", { v: got.value }) : T.done;
  }

  document.addEventListener("DOMContentLoaded", () => {
    if (!$("edit-board")) return;
    T = window.GC.T;
    zones();
    GC.onState((s) => follow(s, false));
    $("ed-current").addEventListener("click", () => live && follow(live, true));
    const starts = JSON.parse($("starts").textContent);
    $("ed-start").addEventListener("click", () => {
      const variant = (live && live.variant) || "backgammon";
      draft = copy(starts[variant] || starts.backgammon);
      dirty = true;
      draw();
    });
    $("ed-clear").addEventListener("click", () => { draft = empty(); dirty = true; draw(); });
    for (const id of ["pos-turn", "ed-die1", "ed-die2", "ed-cube", "ed-cube-owner"]) {
      $(id).addEventListener("change", () => { dirty = true; draw(); });
    }
    $("ed-submit").addEventListener("click", submit);
    draw();
  });
})();
