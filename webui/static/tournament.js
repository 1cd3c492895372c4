/* Tournament overview: several boards on one page, each added by its address. The page reads
 * each board's /api/state and /api/events across origins (the boards allow it for GET). The
 * list is kept in this browser and in the address (?boards=url1,url2) to share. */
"use strict";
(function () {
  const GC = window.GC, T = GC.T, KEY = "gammoncam.boards";
  const tiles = new Map();

  function normalise(url) {
    try {
      const u = new URL(url.trim(), window.location.href);
      if (u.protocol !== "http:" && u.protocol !== "https:") return null;
      return u.origin + u.pathname.replace(/\/+$/, "");
    } catch (err) {
      return null;
    }
  }

  function saved() {
    const q = new URLSearchParams(window.location.search).get("boards");
    if (q) return q.split(",").map(normalise).filter(Boolean);
    try { return (JSON.parse(localStorage.getItem(KEY)) || []).map(normalise).filter(Boolean); }
    catch (err) { return []; }
  }

  function persist() {
    const list = [...tiles.keys()];
    try { localStorage.setItem(KEY, JSON.stringify(list)); } catch (err) { /* private mode */ }
    const u = new URL(window.location.href);
    if (list.length) u.searchParams.set("boards", list.join(","));
    else u.searchParams.delete("boards");
    history.replaceState(null, "", u.toString());
  }

  function renderTile(tile, state) {
    const n = GC.names(state);
    const svg = tile.querySelector("svg");
    GC.renderBoard(svg, state);
    const sc = tile.querySelector(".tscore");
    sc.textContent = "";
    for (const side of ["white", "black"]) {
      const span = document.createElement("span");
      span.className = "tplayer" + (state.turn === side ? " onturn" : "");
      const chip = document.createElement("span");
      chip.className = "chip " + side;
      span.appendChild(chip);
      span.appendChild(document.createTextNode(`${n[side]} ${state.score ? state.score[side] : 0}`));
      sc.appendChild(span);
    }
    const s = state.settings || {};
    const bits = [];
    if (state.settings) bits.push(s.length ? GC.fmt(T.match_to, { n: s.length }) : T.money);
    bits.push(GC.variantText(state));
    if (state.crawford) bits.push(T.crawford);
    bits.push(GC.describe(state));
    tile.querySelector(".tstatus").textContent = bits.filter(Boolean).join(" · ");
    tile.classList.toggle("review", !!state.review);
  }

  function add(url) {
    url = normalise(url);
    if (!url || tiles.has(url)) return;
    const tile = document.getElementById("board-tile").content.firstElementChild.cloneNode(true);
    const link = tile.querySelector(".tname");
    link.href = url + "/";
    link.textContent = url.replace(/^https?:\/\//, "");
    tile.querySelector(".tremove").title = T.remove;
    tile.querySelector(".tremove").addEventListener("click", () => remove(url));
    document.getElementById("boards").appendChild(tile);
    const conn = tile.querySelector(".tconn");
    GC.renderBoard(tile.querySelector("svg"), null);
    const feed = new GC.LiveFeed(url, (state) => renderTile(tile, state),
      (status, since) => GC.showConn(conn, status, since)).start();
    fetch(url + "/api/state").then((r) => r.json()).then((s) => renderTile(tile, s))
      .catch(() => { conn.textContent = T.unreachable; conn.classList.add("stale"); });
    tiles.set(url, { tile, feed });
    persist();
  }

  function remove(url) {
    const t = tiles.get(url);
    if (!t) return;
    t.feed.stop();
    t.tile.remove();
    tiles.delete(url);
    persist();
  }

  document.addEventListener("DOMContentLoaded", () => {
    for (const url of saved()) add(url);
    document.getElementById("add-board").addEventListener("submit", (e) => {
      e.preventDefault();
      const input = document.getElementById("board-url");
      add(input.value);
      input.value = "";
    });
  });
})();
