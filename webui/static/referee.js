/* The referee's controls: flags, candidate plays, rolls, plays, cube, resignations,
 * corrections, new match, clip, downloads. Every action is POST /api/commands with the CSRF
 * token; the new state arrives by the live feed (and from the answer, at once). */
"use strict";
(function () {
  const GC = window.GC, T = GC.T;
  const $ = (id) => document.getElementById(id);
  let legalFor = null;

  function say(text, bad) {
    const m = $("message");
    m.textContent = text;
    m.classList.toggle("bad", !!bad);
  }

  async function send(cmd) {
    const r = await GC.post("/api/commands", cmd);
    if (r.ok) {
      say(T.done);
      if (r.data.state) GC.show(r.data.state);
    } else {
      say(GC.fmt(T.refused, { e: r.data.error || r.status }), true);
    }
    return r;
  }

  /* A reason code's rule in the page's language; none in English, where the judge's own words
   * (which carry the details) say it already. */
  function reasonRule(code) {
    if (!code || (document.documentElement.lang || "en").startsWith("en")) return null;
    return (T.reasons || {})[code] || null;
  }

  function dice(a, b) { return [Number($(a).value), Number($(b).value)]; }

  async function loadLegal(state) {
    const key = state.seq + ":" + state.phase;
    if (legalFor === key) return;
    legalFor = key;
    const resp = await fetch("/api/legal", { credentials: "same-origin" });
    const sel = $("legal");
    sel.textContent = "";
    if (!resp.ok) return;
    const data = await resp.json();
    for (const p of data.plays) {
      const o = document.createElement("option");
      o.value = p.play;
      o.textContent = p.play || "—";
      sel.appendChild(o);
    }
  }

  function update(state) {
    const phase = state.phase, n = GC.names(state);
    $("flag-box").hidden = phase !== "flagged";
    $("confirm-box").hidden = phase !== "confirm";
    $("opening-box").hidden = phase !== "opening";
    $("roll-box").hidden = !(phase === "roll" || phase === "beavered");
    $("play-box").hidden = !(phase === "rolled" || phase === "flagged" || phase === "confirm");
    $("cube-box").hidden = !!state.settings && !GC.cubeUsed(state);
    if (phase === "flagged" && state.flag) {
      const f = state.flag;
      $("flag-who").textContent = `${n[f.side] || f.side} · ${(f.dice || []).join("-")}`;
      const ul = $("flag-reasons");
      ul.textContent = "";
      const codes = f.codes || [];
      (f.reasons || []).forEach((r, i) => {
        const li = document.createElement("li");
        const rule = reasonRule(codes[i]);
        if (rule) {  // the rule in the page's language, the judge's English details beside it
          li.dataset.code = codes[i];
          const b = document.createElement("span");
          b.className = "rule";
          b.textContent = rule;
          const d = document.createElement("small");
          d.className = "detail";
          d.lang = "en";
          d.textContent = r;
          li.append(b, " ", d);
        } else {
          li.textContent = r;
        }
        ul.appendChild(li);
      });
      const fb = $("flag-board");
      fb.hidden = !f.position;
      if (f.position) GC.renderBoard(fb, { position: f.position, settings: null });
      const s = state.settings || {};
      $("let-stand").hidden = !!s.legal_moves_only || f.position === null;
    }
    const cands = $("candidates");
    cands.textContent = "";
    for (const c of state.candidates || []) {
      const b = document.createElement("button");
      b.className = "primary";
      b.textContent = c.play;
      b.addEventListener("click", () => send({ command: "confirm", play: c.play }));
      cands.appendChild(b);
    }
    if (!$("play-box").hidden) loadLegal(state);
    const x = $("xgid");
    if (document.activeElement !== x && !x.dataset.dirty) x.value = state.xgid || "";
    const dl = $("downloads");
    dl.textContent = "";
    if (state.match_id) {
      for (const f of ["mat", "sgf", "json"]) {
        const a = document.createElement("a");
        a.className = "button";
        a.href = `/api/matches/${state.match_id}/export?format=${f}`;
        a.textContent = "." + f;
        dl.appendChild(a);
      }
    }
  }

  /* The new-match command from the form; "" in a select means the variant's own default
   * (opening: left out; cube, backgammons, winner_starts, six_block: null). */
  function settingsFrom(form) {
    const fd = new FormData(form), out = { command: "new_match" };
    for (const k of ["white", "black", "event", "variant", "end_values", "fevga_first_checker"]) out[k] = fd.get(k) || "";
    for (const k of ["length", "beavers", "raccoons", "automatic_doubles"]) out[k] = Number(fd.get(k) || 0);
    for (const k of ["crawford", "jacoby", "dead_cube_doubles", "draw_by_last_roll", "legal_moves_only",
      "mother_exception"]) out[k] = fd.get(k) === "on";
    out.max_cube = fd.get("max_cube") ? Number(fd.get("max_cube")) : null;
    out.mother_points = Number(fd.get("mother_points") || 2);
    for (const k of ["cube", "backgammons", "winner_starts"]) {
      out[k] = fd.get(k) === "true" ? true : fd.get(k) === "false" ? false : null;
    }
    out.six_block = fd.get("six_block") || null;
    if (fd.get("opening")) out.opening = fd.get("opening");
    return out;
  }

  /* Only the settings of the chosen variant are shown (a Tavli match plays Plakoto and Fevga). */
  function showVariantOptions(form) {
    const v = form.elements.variant.value;
    form.querySelectorAll(".vopt").forEach((e) => {
      e.hidden = !e.dataset.variants.split(",").includes(v);
    });
    const len = form.elements.namedItem("length");  // not .length: the count of fields
    if (v === "tavli" && ![3, 5, 7].includes(Number(len.value))) len.value = 5;
  }

  GC.settingsFrom = settingsFrom;

  document.addEventListener("DOMContentLoaded", () => {
    GC.onState(update);
    document.querySelectorAll("button[data-cmd]").forEach((b) =>
      b.addEventListener("click", () => send({ command: b.dataset.cmd })));
    $("do-opening").addEventListener("click", () => {
      const [w, b] = dice("open-white", "open-black");
      send({ command: "opening_roll", white: w, black: b });
    });
    $("do-roll").addEventListener("click", () => send({ command: "roll", dice: dice("roll-1", "roll-2") }));
    $("do-legal").addEventListener("click", () => send({ command: "play", play: $("legal").value }));
    $("do-play").addEventListener("click", () => send({ command: "play", play: $("play-text").value }));
    $("do-replace").addEventListener("click", () => send({ command: "replace_play", play: $("replace-text").value }));
    $("do-dice").addEventListener("click", () => send({ command: "set_dice", dice: dice("dice-1", "dice-2") }));
    $("xgid").addEventListener("input", (e) => { e.target.dataset.dirty = "1"; });
    $("do-position").addEventListener("click", async () => {
      const r = await send({ command: "set_position", xgid: $("xgid").value, turn: $("pos-turn").value });
      if (r.ok) delete $("xgid").dataset.dirty;
    });
    $("do-note").addEventListener("click", () => send({ command: "note", text: $("note-text").value }));
    $("do-resign").addEventListener("click", () => {
      const cmd = { command: "resign", value: Number($("resign-value").value) };
      if ($("resign-side").value) cmd.side = $("resign-side").value;
      send(cmd);
    });
    $("do-clip").addEventListener("click", async () => {
      const r = await GC.post("/api/clip", {});
      say(r.ok ? T.done : GC.fmt(T.refused, { e: r.data.error || r.status }), !r.ok);
    });
    const form = $("new-match-form");
    form.elements.variant.addEventListener("change", () => showVariantOptions(form));
    showVariantOptions(form);
    $("new-match-form").addEventListener("submit", (e) => {
      e.preventDefault();
      send(settingsFrom(e.target)).then((r) => { if (r.ok) $("new-match").open = false; });
    });
  });
})();
