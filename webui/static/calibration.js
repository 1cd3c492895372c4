/* Calibration: a snapshot with the detected board drawn on it; tap four corners when the
 * board is not found; check the start position; save the profile. */
"use strict";
(function () {
  const GC = window.GC, T = GC.T;
  const $ = (id) => document.getElementById(id);
  const NS = "http://www.w3.org/2000/svg";
  let taps = null, size = [0, 0], lastUrl = null;

  function say(text, bad) {
    $("cal-msg").textContent = text;
    $("cal-msg").classList.toggle("bad", !!bad);
  }

  async function refresh() {
    const r = await fetch("/api/camera/snapshot.jpg", { credentials: "same-origin", cache: "no-store" });
    if (!r.ok) {
      let e = r.status;
      try { e = (await r.json()).error; } catch (err) { /* not JSON */ }
      say(GC.fmt(T.refused, { e }), true);
      return;
    }
    const url = URL.createObjectURL(await r.blob());
    const img = $("snap");
    img.onload = () => {
      size = [img.naturalWidth, img.naturalHeight];
      $("overlay").setAttribute("viewBox", `0 0 ${size[0]} ${size[1]}`);
      if (lastUrl) URL.revokeObjectURL(lastUrl);
      lastUrl = url;
    };
    img.src = url;
  }

  function draw(corners, points) {
    const svg = $("overlay");
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    if (corners && corners.length === 4) {
      const poly = document.createElementNS(NS, "polygon");
      poly.setAttribute("points", corners.map((c) => c.join(",")).join(" "));
      poly.setAttribute("class", "detected");
      svg.appendChild(poly);
    }
    for (const [x, y] of points || []) {
      const c = document.createElementNS(NS, "circle");
      c.setAttribute("cx", x); c.setAttribute("cy", y); c.setAttribute("r", Math.max(6, size[0] / 120));
      c.setAttribute("class", "tap");
      svg.appendChild(c);
    }
  }

  async function calibrate(corners) {
    const r = await GC.post("/api/calibration", { corners });
    const ul = $("problems");
    ul.textContent = "";
    if (!r.ok) { say(GC.fmt(T.refused, { e: r.data.error || r.status }), true); return; }
    const res = r.data.result || {};
    draw(res.corners, corners);
    say(res.start_ok ? T.start_ok : T.start_bad, !res.start_ok);
    for (const p of res.problems || []) {
      const li = document.createElement("li");
      li.textContent = p;
      ul.appendChild(li);
    }
    refresh();
  }

  document.addEventListener("DOMContentLoaded", () => {
    refresh();
    $("refresh").addEventListener("click", refresh);
    if ($("detect")) $("detect").addEventListener("click", () => calibrate(null));
    if ($("tap")) $("tap").addEventListener("click", () => {
      taps = [];
      draw(null, []);
      say(GC.fmt(T.tap_corner, { n: 1 }));
    });
    $("overlay").addEventListener("click", (e) => {
      if (taps === null) return;
      const box = $("overlay").getBoundingClientRect();
      taps.push([Math.round((e.clientX - box.left) * size[0] / box.width),
        Math.round((e.clientY - box.top) * size[1] / box.height)]);
      draw(null, taps);
      if (taps.length < 4) { say(GC.fmt(T.tap_corner, { n: taps.length + 1 })); return; }
      const corners = taps;
      taps = null;
      say(T.corners_done);
      calibrate(corners);
    });
    if ($("save")) $("save").addEventListener("click", async () => {
      const r = await GC.post("/api/calibration/save", {});
      say(r.ok ? T.saved : GC.fmt(T.refused, { e: r.data.error || r.status }), !r.ok);
    });
  });
})();
