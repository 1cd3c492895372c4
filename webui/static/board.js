/* The board drawn as SVG from the state JSON (white's numbering: index 0 = white's 1-point;
 * white bears off from points 1-6, bottom right, into the bottom tray). */
"use strict";
(function () {
  const NS = "http://www.w3.org/2000/svg";
  const PW = 70, R = 32, LEFT = 30, BAR_X = 450, BAR_W = 60, RIGHT = 510, TOP = 40, BOTTOM = 760;
  const TRAY_X = 948, TRAY_W = 84, MID = 400, MAX_STACK = 5;
  const COLORS = {
    frame: "#4a2f1a", felt: "#1e5a3a", light: "#e3cf9f", dark: "#9c3328", bar: "#3d2614",
    white: "#f6f2e8", whiteEdge: "#8c8372", black: "#23201d", blackEdge: "#000",
    tray: "#173f29", label: "#e9dcc0", pin: "#e0452f",
  };
  const say = (key, fallback) => ((window.GC && window.GC.T) || {})[key] || fallback;

  function el(name, attrs, parent, text) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }

  function pointX(i) {
    if (i < 6) return RIGHT + (5 - i) * PW;
    if (i < 12) return LEFT + (11 - i) * PW;
    if (i < 18) return LEFT + (i - 12) * PW;
    return RIGHT + (i - 18) * PW;
  }
  const isTop = (i) => i >= 12;

  function checker(g, cx, cy, side, label, extra, point) {
    const white = side === "white";
    const c = el("circle", { cx, cy, r: R - 1, fill: white ? COLORS.white : COLORS.black,
      stroke: white ? COLORS.whiteEdge : COLORS.blackEdge, "stroke-width": 2,
      class: "checker " + side + (extra ? " " + extra : "") }, g);
    if (point) c.setAttribute("data-point", point);
    el("circle", { cx, cy, r: R - 9, fill: "none",
      stroke: white ? "#d8d0bf" : "#3b3733", "stroke-width": 2 }, g);
    if (label) {
      const t = el("text", { x: cx, y: cy + 10, "text-anchor": "middle", "font-size": 30,
        "font-weight": 700, fill: white ? "#222" : "#f3efe6", class: "count" }, g, label);
      if (point) t.setAttribute("data-point", point);
    }
  }

  /* The pin marker on a pinned checker: a red ring round it and a small pushpin beside it. */
  function pinMarker(g, cx, cy, top, title) {
    const m = el("g", { class: "pin" }, g);
    if (title) el("title", {}, m, title);
    el("circle", { cx, cy, r: R - 1, fill: "none", stroke: COLORS.pin, "stroke-width": 4,
      "stroke-dasharray": "7 4" }, m);
    const px = cx + R - 6, py = cy + (top ? R - 8 : -(R - 8));
    el("line", { x1: px, y1: py, x2: px - 9, y2: py + (top ? 11 : -11), stroke: "#eee",
      "stroke-width": 3, "stroke-linecap": "round" }, m);
    el("circle", { cx: px, cy: py, r: 8, fill: COLORS.pin, stroke: "#fff",
      "stroke-width": 2 }, m);
  }

  /* A point's stack from its base: the checkers pinned under the top one first (Plakoto),
   * then the top side's; at most MAX_STACK drawn, the count on the last when some are hidden. */
  function drawStack(g, i, n, pin) {
    const x = pointX(i) + PW / 2, top = isTop(i);
    const y = (k) => (top ? TOP + R + k * 2 * R : BOTTOM - R - k * 2 * R);
    let k = 0;
    if (pin) {
      const side = pin > 0 ? "white" : "black", count = Math.abs(pin);
      checker(g, x, y(0), side, count > 1 ? String(count) : "", "pinned", i + 1);
      k = 1;
    }
    if (!n) return;
    const side = n > 0 ? "white" : "black", count = Math.abs(n);
    const room = MAX_STACK - k, shown = Math.min(count, room);
    for (let j = 0; j < shown; j++) {
      const label = j === shown - 1 && count > shown ? String(count) : "";
      checker(g, x, y(k + j), side, label, k ? "pinner" : "", i + 1);
    }
    if (pin) pinMarker(g, x, y(0), top, say("pinned", "pinned"));  // over the pinner's edge
  }

  function drawPoints(g, pts, pinned) {
    for (let i = 0; i < 24; i++) {
      const x = pointX(i), top = isTop(i);
      const tipY = top ? TOP + 300 : BOTTOM - 300, baseY = top ? TOP : BOTTOM;
      el("polygon", { points: `${x},${baseY} ${x + PW},${baseY} ${x + PW / 2},${tipY}`,
        fill: i % 2 ? COLORS.dark : COLORS.light, class: "point" }, g);
      el("text", { x: x + PW / 2, y: top ? TOP - 12 : BOTTOM + 30, "text-anchor": "middle",
        "font-size": 22, fill: COLORS.label, class: "pointno" }, g, String(i + 1));
      drawStack(g, i, pts ? pts[i] : 0, pinned ? pinned[i] || 0 : 0);
    }
  }

  /* Long Nardi: each side's head (start point) gets a subtle label past its tallest stack. */
  function drawHeads(g, heads) {
    if (!heads) return;
    for (const side of ["white", "black"]) {
      const i = heads[side];
      if (!Number.isInteger(i) || i < 0 || i > 23) continue;
      const x = pointX(i) + PW / 2, top = isTop(i);
      const y = top ? TOP + MAX_STACK * 2 * R + 22 : BOTTOM - MAX_STACK * 2 * R - 10;
      const m = el("g", { class: "head " + side }, g);
      el("rect", { x: x - 33, y: y - 17, width: 66, height: 23, rx: 11,
        fill: "rgba(0,0,0,0.28)" }, m);
      el("text", { x, y, "text-anchor": "middle", "font-size": 17, "font-style": "italic",
        fill: COLORS.label }, m, say("head", "head"));
    }
  }

  function drawBar(g, bar) {
    const cx = BAR_X + BAR_W / 2;
    for (const side of ["white", "black"]) {
      const n = (bar && bar[side]) || 0;
      const shown = Math.min(n, 3);
      for (let k = 0; k < shown; k++) {
        const cy = side === "white" ? MID - 64 - k * 2 * R : MID + 64 + k * 2 * R;
        checker(g, cx, cy, side, k === shown - 1 && n > 3 ? String(n) : "");
      }
    }
  }

  function drawTrays(g, off) {
    for (const side of ["black", "white"]) {
      const top = side === "black";
      const y0 = top ? TOP : MID + 40, y1 = top ? MID - 40 : BOTTOM;
      el("rect", { x: TRAY_X, y: y0, width: TRAY_W, height: y1 - y0, fill: COLORS.tray,
        rx: 6 }, g);
      const n = (off && off[side]) || 0;
      for (let k = 0; k < n; k++) {
        const y = top ? y0 + 4 + k * 20 : y1 - 4 - (k + 1) * 20;
        el("rect", { x: TRAY_X + 8, y, width: TRAY_W - 16, height: 17, rx: 4,
          fill: side === "white" ? COLORS.white : COLORS.black,
          stroke: side === "white" ? COLORS.whiteEdge : "#555", "stroke-width": 1.5,
          class: "off " + side }, g);
      }
      if (n) {
        el("text", { x: TRAY_X + TRAY_W / 2, y: top ? y1 - 10 : y0 + 26, "text-anchor": "middle",
          "font-size": 22, fill: COLORS.label, class: "offcount" }, g, String(n));
      }
    }
  }

  function drawCube(g, cube) {
    const owner = (cube && cube.owner) || "center";
    const value = (cube && cube.value) || 1;
    const cx = BAR_X + BAR_W / 2, size = 52;
    const cy = owner === "black" ? TOP + 34 : owner === "white" ? BOTTOM - 34 : MID;
    el("rect", { x: cx - size / 2, y: cy - size / 2, width: size, height: size, rx: 8,
      fill: "#fbfaf5", stroke: "#222", "stroke-width": 2, class: "cube " + owner }, g);
    el("text", { x: cx, y: cy + 10, "text-anchor": "middle", "font-size": value >= 100 ? 20 : 28,
      "font-weight": 700, fill: "#111" }, g, String(value === 1 ? 64 : value));
  }

  const PIPS = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
    4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
    6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };

  function drawDice(g, dice, turn) {
    if (!dice || !turn) return;
    const white = turn === "white";
    const cx = white ? RIGHT + 3 * PW : LEFT + 3 * PW, size = 56;
    dice.forEach((v, j) => {
      const x = cx + (j ? 8 : -size - 8), y = MID - size / 2;
      el("rect", { x, y, width: size, height: size, rx: 9,
        fill: white ? COLORS.white : COLORS.black, stroke: white ? "#555" : "#000",
        "stroke-width": 2, class: "die" }, g);
      for (const [dx, dy] of PIPS[v] || []) {
        el("circle", { cx: x + size / 2 + dx * 15, cy: y + size / 2 + dy * 15, r: 5.5,
          fill: white ? "#111" : "#f3efe6" }, g);
      }
    });
  }

  function render(svg, state) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const g = el("g", {}, svg);
    el("rect", { x: 0, y: 0, width: 1060, height: 800, rx: 14, fill: COLORS.frame }, g);
    el("rect", { x: LEFT, y: TOP, width: 6 * PW, height: BOTTOM - TOP, fill: COLORS.felt }, g);
    el("rect", { x: RIGHT, y: TOP, width: 6 * PW, height: BOTTOM - TOP, fill: COLORS.felt }, g);
    el("rect", { x: BAR_X, y: TOP, width: BAR_W, height: BOTTOM - TOP, fill: COLORS.bar }, g);
    const pos = (state && state.position) || null;
    const pinned = pos ? pos.pinned || (state && state.pinned) || null : null;
    drawPoints(g, pos ? pos.points : null, pinned);
    drawHeads(g, state && state.heads);
    drawTrays(g, pos ? pos.off : null);
    if (state && state.settings && state.cube_used !== false) drawCube(g, state.cube);
    drawBar(g, pos ? pos.bar : null);
    if (state && (state.phase === "rolled" || state.phase === "flagged" ||
        state.phase === "confirm" || state.phase === "review")) {
      drawDice(g, state.dice, state.turn);
    }
  }

  window.GC = Object.assign(window.GC || {}, { renderBoard: render });
})();
