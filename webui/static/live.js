/* Live updates over Server-Sent Events that never give up.
 * Every (re)connection starts with a full snapshot; ids are "<boot>-<seq>"; a "ping" event
 * arrives every few seconds. Silence or an error shows "stale since ..." and the feed reopens
 * the stream with a growing pause (at most 10 s), forever. */
"use strict";
(function () {
  const T = JSON.parse(document.getElementById("i18n").textContent);
  function fmt(s, vals) {
    return String(s).replace(/\{(\w+)\}/g, (m, k) => (k in vals ? vals[k] : m));
  }
  function clock(t) {
    return new Date(t).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  }
  const SILENCE_MS = 30000;

  class LiveFeed {
    constructor(base, onState, onConn) {
      this.base = (base || "").replace(/\/+$/, "");
      this.onState = onState;
      this.onConn = onConn || (() => {});
      this.es = null;
      this.lastMessage = 0;
      this.staleSince = null;
      this.boot = null;
      this.pause = 1000;
      this.timer = null;
      this.stopped = false;
      this.watchdog = setInterval(() => this.check(), 1000);
    }
    start() {
      this.open();
      return this;
    }
    stop() {
      this.stopped = true;
      clearInterval(this.watchdog);
      clearTimeout(this.timer);
      if (this.es) this.es.close();
    }
    open() {
      if (this.stopped) return;
      if (this.es) this.es.close();
      this.lastMessage = Date.now();
      const es = new EventSource(this.base + "/api/events");
      this.es = es;
      es.addEventListener("state", (e) => {
        this.alive();
        const boot = (e.lastEventId || "").split("-")[0];
        const restarted = this.boot !== null && boot && boot !== this.boot;
        this.boot = boot || this.boot;
        let state;
        try { state = JSON.parse(e.data); } catch (err) { return; }
        this.onState(state, { restarted: restarted });
      });
      es.addEventListener("ping", () => this.alive());
      es.onerror = () => {
        if (this.es !== es) return;
        this.markStale();
        if (es.readyState === EventSource.CLOSED) this.reopenLater();
      };
    }
    alive() {
      this.lastMessage = Date.now();
      this.pause = 1000;
      if (this.staleSince !== null || !this.live) {
        this.staleSince = null;
        this.live = true;
        this.onConn("live", null);
      }
    }
    markStale() {
      if (this.staleSince === null) {
        this.staleSince = this.lastMessage || Date.now();
        this.live = false;
        this.onConn("stale", this.staleSince);
      }
    }
    reopenLater() {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => { this.timer = null; this.open(); }, this.pause);
      this.pause = Math.min(this.pause * 2, 10000);
    }
    check() {
      if (this.stopped) return;
      if (Date.now() - this.lastMessage > SILENCE_MS) {
        this.markStale();
        this.reopenLater();
        this.lastMessage = Date.now();
      } else if (this.es && this.es.readyState === EventSource.CLOSED && !this.timer) {
        this.reopenLater();
      }
      if (this.staleSince !== null) this.onConn("stale", this.staleSince);
    }
  }

  function showConn(el, status, since) {
    if (!el) return;
    el.hidden = false;
    el.classList.toggle("stale", status === "stale");
    el.classList.toggle("live", status === "live");
    el.textContent = status === "live" ? T.live : fmt(T.stale_since, { t: clock(since) });
  }

  function csrf() {
    const m = document.querySelector('meta[name="csrf"]');
    return m ? m.content : "";
  }

  async function post(url, body) {
    const resp = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() },
      credentials: "same-origin",
      body: JSON.stringify(body === undefined ? {} : body),
    });
    let data = {};
    try { data = await resp.json(); } catch (err) { data = {}; }
    return { ok: resp.ok, status: resp.status, data: data };
  }

  window.GC = Object.assign(window.GC || {}, { T, fmt, clock, LiveFeed, showConn, csrf, post });
})();
