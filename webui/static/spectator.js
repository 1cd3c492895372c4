/* The live board page (also the base of the referee page): board, players, score, status,
 * cube and the move list, redrawn from every snapshot. All user text goes in as textContent. */
"use strict";
(function () {
  const { T, fmt } = window.GC;

  function names(state) {
    const s = state.settings || {};
    return { white: s.white || T.white, black: s.black || T.black };
  }
  function other(side) { return side === "white" ? "black" : "white"; }
  function diceText(d) { return d ? d.join("-") : ""; }

  function describe(state) {
    const n = names(state), turn = state.turn, p = turn ? n[turn] : "";
    if (!state.settings) return T.no_match;
    switch (state.phase) {
      case "opening": return T.opening;
      case "roll": return fmt(T.to_roll, { p });
      case "rolled": return fmt(T.to_play, { p, d: diceText(state.dice) });
      case "doubled": return fmt(T.doubled, { p, o: n[other(turn)], v: state.cube.value * 2 });
      case "beavered": return fmt(T.beavered, { p: n[state.cube.owner] || "", v: state.cube.value });
      case "resigned": {
        const last = (state.moves || []).filter((m) => m.kind === "resign").pop();
        const who = last ? last.side : turn;
        const v = last ? T["r_" + ["", "single", "gammon", "backgammon"][last.value]] : "";
        return fmt(T.resigned, { p: n[who], o: n[other(who)], v });
      }
      case "review": return T.review;
      case "flagged": return T.flagged;
      case "confirm": return T.confirm;
      case "match_over": return fmt(T.match_over, { p: n[state.winner] || "" });
      default: return "";
    }
  }

  /* The variant as players call it; a Tavli match also names the game's variant
   * ("Tavli · game 2: Plakoto"). Nothing for standard backgammon. */
  function variantName(name) {
    const key = String(name || "").toLowerCase();
    return (T.variants && T.variants[key]) || String(name || "");
  }
  function variants(state) {
    const game = String(state.variant || state.settings.variant || "").toLowerCase();
    const match = String(state.match_variant || state.settings.variant || game).toLowerCase();
    return { game, match, rotation: !!match && match !== game };
  }
  function variantText(state) {
    if (!state || !state.settings) return "";
    const { game, match, rotation } = variants(state);
    if (rotation) {
      return fmt(T.match_game, { m: variantName(match), n: state.game, v: variantName(game) });
    }
    return game && game !== "backgammon" && game !== "standard" ? variantName(game) : "";
  }
  function cubeUsed(state) {
    return !!(state && state.settings) && state.cube_used !== false;
  }

  /* A position set mid-game: who set it and why, in the engine's words. */
  function correctionText(c) {
    const who = c.source === "camera" ? T.set_camera : T.set_referee;
    return c.reason ? fmt(T.set_why, { who, r: c.reason }) : who;
  }

  /* How the last game was scored, in the variant's words (a nardi gammon is a mars), while the
   * next game has no move yet: the end is followed at once by the next game's start. */
  function lastGameText(state) {
    const g = state.last_game;
    if (!g || !state.settings) return "";
    const played = (state.moves || []).some((m) => m.kind !== "correction");
    if (played && state.phase !== "match_over") return "";
    if (!g.winner) return fmt(T.last_draw, { n: g.number });
    const nardi = /nardi/.test(String(state.variant || ""));
    const how = {
      gammon: nardi ? T.res_mars : T.r_gammon, backgammon: nardi ? T.res_koks : T.r_backgammon,
      mother: T.res_mother, drop: T.res_drop, resign: T.res_resign,
    }[g.result] || "";
    const text = fmt(T.last_won, { n: g.number, p: names(state)[g.winner] || "", v: g.points });
    return how ? `${text} (${how})` : text;
  }

  function moveText(m) {
    const v = m.value;
    switch (m.kind) {
      case "correction": return correctionText(m);
      case "roll": return m.play ? fmt(T.m_roll, { d: diceText(m.dice), play: m.play })
        : fmt(T.m_dance, { d: diceText(m.dice) });
      case "double": return fmt(T.m_double, { v });
      case "take": return T.m_take;
      case "drop": return T.m_drop;
      case "beaver": return fmt(T.m_beaver, { v });
      case "raccoon": return fmt(T.m_raccoon, { v });
      case "resign": return fmt(T.m_resign, { v: T["r_" + ["", "single", "gammon", "backgammon"][v]] || v });
      case "accept": return T.m_accept;
      case "reject": return T.m_reject;
      case "win": return fmt(T.m_win, { v });
      default: return m.kind;
    }
  }

  function setText(sel, text) {
    const e = document.querySelector(sel);
    if (e) e.textContent = text;
  }

  function renderPanel(state) {
    const n = names(state), s = state.settings || {};
    for (const side of ["white", "black"]) {
      const row = document.getElementById("p-" + side);
      if (!row) continue;
      row.querySelector(".name").textContent = n[side];
      row.querySelector(".score").textContent = state.score ? state.score[side] : 0;
      row.querySelector(".pips").textContent = state.pips ? `${T.pips} ${state.pips[side]}` : "";
      row.classList.toggle("onturn", state.turn === side && state.phase !== "match_over");
    }
    const info = [];
    if (state.settings) {
      info.push(s.length ? fmt(T.match_to, { n: s.length }) : T.money);
      const variant = variantText(state);
      if (variant) info.push(variant);
      if (state.game && !variants(state).rotation) info.push(fmt(T.game, { n: state.game }));
      if (state.crawford) info.push(T.crawford);
      if (s.event) info.push(s.event);
    }
    setText("#matchinfo", info.join(" · "));
    const status = document.getElementById("status");
    if (status) {
      status.textContent = describe(state);
      status.classList.toggle("corrected", !!state.correction);
      if (state.correction) {  // as it happens: until the next play is recorded
        const note = document.createElement("span");
        note.className = "correction";
        note.textContent = correctionText(state.correction);
        status.appendChild(note);
      }
      const last = lastGameText(state);
      if (last) {
        const note = document.createElement("span");
        note.className = "lastgame";
        note.textContent = last;
        status.appendChild(note);
      }
    }
    const cube = state.cube || { value: 1, owner: "center" };
    setText("#cubeinfo", cubeUsed(state) ? `${T.cube}: ${cube.value} (${cube.owner === "center"
      ? T.centered : fmt(T.owned_by, { p: n[cube.owner] })})` : "");
    const review = document.getElementById("review");
    if (review) review.hidden = !(state.review && state.audience === "spectator");
    const list = document.getElementById("moves");
    if (list) {
      list.textContent = "";
      for (const m of state.moves || []) {
        const li = document.createElement("li");
        if (m.kind === "correction") {
          li.className = "move correction " + m.source;
          li.textContent = moveText(m);
          list.appendChild(li);
          continue;
        }
        li.className = "move " + m.side + (m.illegal ? " illegal" : "");
        const chip = document.createElement("span");
        chip.className = "chip " + m.side;
        li.appendChild(chip);
        li.appendChild(document.createTextNode(moveText(m)));
        if (m.illegal) {
          const tag = document.createElement("em");
          tag.textContent = " (" + T.illegal + ")";
          li.appendChild(tag);
        }
        list.appendChild(li);
      }
      if (!list.children.length) {
        const li = document.createElement("li");
        li.className = "empty";
        li.textContent = T.no_moves;
        list.appendChild(li);
      }
      list.scrollTop = list.scrollHeight;
    }
  }

  const listeners = [];
  function onState(fn) { listeners.push(fn); }

  function show(state) {
    window.GC.state = state;
    const svg = document.getElementById("board");
    if (svg) window.GC.renderBoard(svg, state);
    renderPanel(state);
    document.body.dataset.seq = state.seq;
    document.body.dataset.phase = state.phase;
    for (const fn of listeners) fn(state);
  }

  Object.assign(window.GC, { describe, moveText, correctionText, lastGameText, names, renderPanel, onState, show, variantName,
    variantText, cubeUsed });

  document.addEventListener("DOMContentLoaded", () => {
    if (!document.getElementById("board")) return;  // pages that only borrow the texts
    const conn = document.getElementById("conn");
    window.GC.feed = new window.GC.LiveFeed("", show,
      (status, since) => window.GC.showConn(conn, status, since)).start();
  });
})();
