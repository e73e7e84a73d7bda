// lancer serve: the page. It draws what the server sends and sends back what the
// person does; every rule (legal moves, results, notation) is the server's. The
// data- attributes are a stable contract (docs/protocols.md, `lancer serve`).
"use strict";

const SQ = 60;
const NS = "http://www.w3.org/2000/svg";
const FACINGS = ["n", "ne", "e", "se", "s", "sw", "w", "nw"];
const FACING_ARROWS = { n: "\u2191", ne: "\u2197", e: "\u2192", se: "\u2198", s: "\u2193", sw: "\u2199", w: "\u2190", nw: "\u2196" };

let ws = null;
let state = null;
let variants = [];
let selected = null; // {from: "e2"} or {drop: "P"}
let flipped = false;
let lines = {}; // multipv -> info
let best = null; // {from, to}
let clockBase = null; // {clocks, at, side, running}
let drag = null;

const $ = (id) => document.getElementById(id);

function svgEl(name, attrs) {
  const el = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  return el;
}

function showMessage(text) {
  $("message").textContent = text || "";
}

function send(msg) {
  if (!ws || ws.readyState !== WebSocket.OPEN) {
    showMessage("not connected to lancer serve");
    return;
  }
  ws.send(JSON.stringify(msg));
}

// --- board geometry ------------------------------------------------------

function squareXY(name) {
  const f = name.charCodeAt(0) - 97;
  const r = parseInt(name.slice(1), 10) - 1;
  const w = state.width, h = state.height;
  const col = flipped ? w - 1 - f : f;
  const row = flipped ? r : h - 1 - r;
  return [col * SQ, row * SQ];
}

function centre(name) {
  const [x, y] = squareXY(name);
  return [x + SQ / 2, y + SQ / 2];
}

function squareName(f, r) {
  return String.fromCharCode(97 + f) + (r + 1);
}

function artURL(svg) {
  return "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
}

function arrowPath(from, to, cls, shorten) {
  const [x1, y1] = centre(from);
  const [x2, y2] = centre(to);
  const dx = x2 - x1, dy = y2 - y1;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len, uy = dy / len;
  const ex = x2 - ux * (shorten || 0), ey = y2 - uy * (shorten || 0);
  const g = svgEl("g", { class: cls + "-g" });
  g.appendChild(svgEl("line", { x1, y1, x2: ex, y2: ey, class: cls }));
  const hx = ex + ux * 10, hy = ey + uy * 10;
  const px = -uy * 9, py = ux * 9;
  g.appendChild(svgEl("polygon", {
    points: `${hx},${hy} ${ex + px},${ey + py} ${ex - px},${ey - py}`,
    class: cls, style: "fill: currentColor; stroke: none",
  }));
  return g;
}

// --- drawing ---------------------------------------------------------------

function draw() {
  if (!state) return;
  const board = $("board");
  const w = state.width, h = state.height;
  board.setAttribute("viewBox", `0 0 ${w * SQ} ${h * SQ}`);
  board.style.width = (w >= h ? 480 : Math.round(480 * w / h)) + "px";
  board.setAttribute("data-variant", state.variant);
  board.setAttribute("data-side", state.side);
  board.setAttribute("data-efen", state.efen);
  board.setAttribute("data-ply", state.ply);
  board.replaceChildren();
  const holes = new Set(state.holes);
  const bySquare = {};
  for (const p of state.pieces) bySquare[p.square] = p;
  const lastSquares = new Set(state.last ? state.last.squares : []);
  const targets = new Set(currentTargets());
  const cells = svgEl("g", { class: "cells" });
  for (let r = 0; r < h; r++) {
    for (let f = 0; f < w; f++) {
      const name = squareName(f, r);
      const [x, y] = squareXY(name);
      const cell = svgEl("g", { class: "cell", "data-square": name, transform: `translate(${x},${y})` });
      if (holes.has(name)) {
        cell.setAttribute("data-hole", "");
        cell.appendChild(svgEl("rect", { width: SQ, height: SQ, class: "hole" }));
        for (let k = -SQ; k < SQ; k += 12) {
          cell.appendChild(svgEl("line", { x1: Math.max(0, k), y1: Math.max(0, -k), x2: Math.min(SQ, SQ + k), y2: Math.min(SQ, SQ - k), class: "hole-hatch" }));
        }
        cells.appendChild(cell);
        continue;
      }
      cell.appendChild(svgEl("rect", { width: SQ, height: SQ, class: (f + r) % 2 === 0 ? "dark" : "light" }));
      if (lastSquares.has(name)) cell.appendChild(svgEl("rect", { width: SQ, height: SQ, class: "lastmove" }));
      if (selected && selected.from === name) cell.appendChild(svgEl("rect", { width: SQ, height: SQ, class: "selected-sq" }));
      if (state.check === name) {
        cell.setAttribute("data-check", "");
        cell.appendChild(svgEl("circle", { cx: SQ / 2, cy: SQ / 2, r: SQ / 2 - 2, class: "check" }));
      }
      if ((flipped && f === w - 1) || (!flipped && f === 0)) {
        const t = svgEl("text", { x: 2, y: 11, class: "coord" });
        t.textContent = r + 1;
        cell.appendChild(t);
      }
      if ((!flipped && r === 0) || (flipped && r === h - 1)) {
        const t = svgEl("text", { x: SQ - 9, y: SQ - 3, class: "coord" });
        t.textContent = String.fromCharCode(97 + f);
        cell.appendChild(t);
      }
      const p = bySquare[name];
      if (p) cell.appendChild(pieceEl(p));
      if (targets.has(name)) {
        cell.setAttribute("data-target", "");
        cell.appendChild(svgEl("circle", { cx: SQ / 2, cy: SQ / 2, r: p ? SQ / 2 - 3 : 9, class: "target-dot", style: p ? "fill: none; stroke: #2e7d32; stroke-width: 5" : "" }));
      }
      cells.appendChild(cell);
    }
  }
  board.appendChild(cells);
  const overlay = svgEl("g", { class: "overlay" });
  if (state.last && state.last.displaced) {
    const d = state.last.displaced;
    const g = arrowPath(d.from, d.to, "displace-arrow", 14);
    g.setAttribute("data-displaced-from", d.from);
    g.setAttribute("data-displaced-to", d.to);
    g.style.color = "#0277bd";
    overlay.appendChild(g);
  }
  if (best && best.from && best.to && best.from !== best.to) {
    const g = arrowPath(best.from, best.to, "best-arrow", 16);
    g.style.color = "#2e7d32";
    g.setAttribute("data-best", "");
    overlay.appendChild(g);
  }
  board.appendChild(overlay);
  drawHands();
}

function pieceEl(p) {
  const g = svgEl("g", { class: "piece", "data-piece": p.piece });
  if (p.facing) g.setAttribute("data-facing", p.facing);
  if (p.held) g.setAttribute("data-held", "");
  if (p.frozen) g.setAttribute("data-frozen", "");
  const img = svgEl("image", { x: 3, y: 3, width: SQ - 6, height: SQ - 6 });
  img.setAttribute("href", artURL(state.art[p.art] || ""));
  g.appendChild(img);
  if (p.facing) {
    // The facing as an arrow from the centre toward the way the lancer faces.
    let i = FACINGS.indexOf(p.facing);
    if (flipped) i = (i + 4) % 8;
    const a = (i * Math.PI) / 4;
    const dx = Math.sin(a), dy = -Math.cos(a);
    const c = SQ / 2, L = SQ / 2 - 4;
    g.appendChild(svgEl("line", { x1: c, y1: c, x2: c + dx * (L - 8), y2: c + dy * (L - 8), class: "facing-arrow" }));
    const tx = c + dx * L, ty = c + dy * L, bx = c + dx * (L - 10), by = c + dy * (L - 10);
    g.appendChild(svgEl("polygon", { points: `${tx},${ty} ${bx - dy * 6},${by + dx * 6} ${bx + dy * 6},${by - dx * 6}`, class: "facing-head" }));
  }
  if (p.held) {
    g.appendChild(svgEl("rect", { x: 3, y: 3, width: SQ - 6, height: SQ - 6, rx: 6, class: "held-ring" }));
    const t = svgEl("text", { x: SQ - 14, y: 14, class: "badge", fill: "#c2185b" });
    t.textContent = "H";
    g.appendChild(t);
  }
  if (p.frozen) {
    g.appendChild(svgEl("circle", { cx: SQ / 2, cy: SQ / 2, r: SQ / 2 - 4, class: "frozen-ring" }));
    const t = svgEl("text", { x: 4, y: 14, class: "badge", fill: "#0277bd" });
    t.textContent = "\u2744";
    g.appendChild(t);
  }
  return g;
}

function drawHands() {
  const top = flipped ? "w" : "b", bottom = flipped ? "b" : "w";
  for (const [id, side] of [["hand-top", top], ["hand-bottom", bottom]]) {
    const el = $(id);
    el.replaceChildren();
    el.setAttribute("data-side", side);
    for (const e of state.hands[side] || []) {
      const d = document.createElement("div");
      d.className = "hand-entry";
      d.setAttribute("data-hand", side);
      d.setAttribute("data-piece", e.piece);
      d.setAttribute("data-count", e.count);
      if (selected && selected.drop === e.piece) d.classList.add("selected");
      const img = document.createElement("img");
      img.src = artURL(state.art[e.art] || "");
      img.alt = e.piece;
      d.appendChild(img);
      const c = document.createElement("span");
      c.className = "count";
      c.textContent = e.count;
      d.appendChild(c);
      d.addEventListener("click", () => clickHand(side, e.piece, e.count));
      el.appendChild(d);
    }
  }
}

// --- moves -----------------------------------------------------------------

function movesFrom(sel) {
  if (!state || !sel) return [];
  return state.legal.filter((m) => (sel.from ? m.from === sel.from : m.drop === sel.drop));
}

function currentTargets() {
  return movesFrom(selected).map((m) => m.to).filter(Boolean);
}

function clickHand(side, piece, count) {
  if (!state || side !== state.side || count === 0) {
    if (state && side !== state.side) showMessage(`it is ${state.side === "w" ? "White" : "Black"}'s turn`);
    return;
  }
  selected = selected && selected.drop === piece ? null : { drop: piece };
  draw();
}

function clickSquare(name) {
  if (!state) return;
  const piece = state.pieces.find((p) => p.square === name);
  if (selected) {
    const cands = movesFrom(selected).filter((m) => m.to === name);
    if (cands.length) {
      const sel = selected;
      selected = null;
      choose(cands, sel);
      return;
    }
    const ours = piece && (piece.piece === piece.piece.toUpperCase()) === (state.side === "w");
    if (ours && !(selected.from === name)) {
      selected = { from: name };
      draw();
      return;
    }
    if (selected.from === name) {
      selected = null;
      draw();
      return;
    }
    // Not a legal target: the server says why.
    const attempt = selected.from ? selected.from + name : selected.drop.toUpperCase() + "@" + name;
    selected = null;
    draw();
    send({ op: "move", move: attempt });
    return;
  }
  if (piece) {
    const ours = (piece.piece === piece.piece.toUpperCase()) === (state.side === "w");
    if (ours) {
      selected = { from: name };
      draw();
    } else {
      showMessage(`it is ${state.side === "w" ? "White" : "Black"}'s turn`);
    }
  }
}

function choiceLabel(m) {
  const parts = [];
  if (m.castle) parts.push("castle");
  if (m.promotion) parts.push("= " + m.promotion);
  if (m.facing) parts.push(FACING_ARROWS[m.facing] + " " + m.facing);
  if (m.bearer) parts.push("bearer to " + m.bearer);
  if (!parts.length) parts.push(m.san);
  return parts.join(", ");
}

function choose(cands, sel) {
  if (cands.length === 1) {
    send({ op: "move", move: cands[0].text });
    return;
  }
  const box = $("choices");
  box.replaceChildren();
  const what = [];
  if (cands.some((m) => m.promotion)) what.push("the promotion");
  if (cands.some((m) => m.facing)) what.push("the lancer's facing");
  if (cands.some((m) => m.bearer)) what.push("where the standard-bearer goes");
  $("chooser-title").textContent = "Choose " + (what.join(" and ") || "the move") + ":";
  for (const m of cands) {
    const b = document.createElement("button");
    b.setAttribute("data-choice", m.text);
    if (m.facing) b.setAttribute("data-facing", m.facing);
    if (m.bearer) b.setAttribute("data-bearer", m.bearer);
    if (m.promotion) b.setAttribute("data-promotion", m.promotion);
    b.title = m.san;
    b.textContent = choiceLabel(m);
    b.addEventListener("click", () => {
      $("chooser").hidden = true;
      send({ op: "move", move: m.text });
    });
    box.appendChild(b);
  }
  $("chooser").hidden = false;
  void sel;
}

// --- pointer: click and drag ---------------------------------------------------

function cellAt(ev) {
  const el = document.elementFromPoint(ev.clientX, ev.clientY);
  const cell = el && el.closest ? el.closest("[data-square]") : null;
  return cell ? cell.getAttribute("data-square") : null;
}

function onPointerDown(ev) {
  const name = cellAt(ev);
  if (!name) return;
  const wasSelected = selected && selected.from;
  drag = { start: name, moved: false, x: ev.clientX, y: ev.clientY, wasSelected };
}

function onPointerMove(ev) {
  if (!drag) return;
  if (Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) > 6 && !drag.moved) {
    drag.moved = true;
    const piece = state && state.pieces.find((p) => p.square === drag.start);
    if (piece) {
      if (!selected || selected.from !== drag.start) {
        selected = { from: drag.start };
        draw();
      }
      // The piece follows the pointer while it is dragged.
      const img = document.createElement("img");
      img.src = artURL(state.art[piece.art] || "");
      img.className = "drag-ghost";
      document.body.appendChild(img);
      drag.ghost = img;
    }
  }
  if (drag.ghost) {
    drag.ghost.style.left = ev.clientX - 28 + "px";
    drag.ghost.style.top = ev.clientY - 28 + "px";
  }
}

function onPointerUp(ev) {
  if (!drag) return;
  const d = drag;
  drag = null;
  if (d.ghost) d.ghost.remove();
  const name = cellAt(ev);
  if (!name) return;
  if (d.moved) {
    if (name !== d.start) clickSquare(name);
  } else {
    clickSquare(name);
  }
}

// --- state -----------------------------------------------------------------

function fmtClock(ms) {
  const neg = ms < 0;
  ms = Math.abs(ms);
  const s = Math.floor(ms / 1000);
  const m = Math.floor(s / 60);
  const t = `${m}:${String(s % 60).padStart(2, "0")}` + (ms < 10000 ? "." + Math.floor((ms % 1000) / 100) : "");
  return (neg ? "-" : "") + t;
}

function drawClocks() {
  const top = flipped ? "w" : "b";
  for (const [id, side] of [["clock-top", top], ["clock-bottom", top === "w" ? "b" : "w"]]) {
    const el = $(id);
    if (!clockBase) {
      el.textContent = "";
      el.classList.remove("running");
      continue;
    }
    let ms = clockBase.clocks[side === "w" ? 0 : 1];
    const running = clockBase.running && clockBase.side === side;
    if (running) ms -= performance.now() - clockBase.at;
    el.textContent = (side === "w" ? "White " : "Black ") + fmtClock(Math.max(0, ms));
    el.setAttribute("data-clock", side);
    el.classList.toggle("running", running);
  }
}

function onState(s) {
  const newPosition = !state || state.efen !== s.efen || state.ply !== s.ply;
  state = s;
  if (newPosition) {
    lines = {};
    best = null;
    selected = null;
    drawAnalysis();
  }
  if (s.mode === "play" && s.human === "b" && !flipped && newPosition && s.ply === 0) flipped = true;
  if (s.mode === "play" && s.human === "w" && flipped && newPosition && s.ply === 0) flipped = false;
  clockBase = s.clocks ? { clocks: s.clocks, at: performance.now(), side: s.side, running: s.mode === "play" && !s.result } : null;
  $("variant").value = s.variant;
  $("efen").value = s.efen;
  $("mode").value = s.mode;
  $("human").value = s.human;
  const side = s.side === "w" ? "White" : "Black";
  let status;
  if (s.result) status = `${s.result.score} \u2014 ${s.result.text}`;
  else if (s.thinking) status = `${side} to move \u2014 lancer is thinking`;
  else status = `${side} to move` + (s.check ? " \u2014 check" : "");
  $("status").textContent = status;
  $("status").setAttribute("data-result", s.result ? s.result.score : "");
  $("pass").disabled = !s.legal.some((m) => m.pass);
  drawMoves();
  draw();
  drawClocks();
  updateURL();
}

function drawMoves() {
  const box = $("moves");
  box.replaceChildren();
  let white = state.first_side === "w";
  let num = state.first_move;
  state.history.forEach((san, i) => {
    if (white || i === 0) {
      const n = document.createElement("span");
      n.textContent = num + (white ? ". " : "... ");
      box.appendChild(n);
    }
    const m = document.createElement("span");
    m.className = "mv" + (i + 1 === state.ply ? " current" : "");
    m.textContent = san;
    m.setAttribute("data-ply", i + 1);
    m.addEventListener("click", () => send({ op: "view", ply: i + 1 }));
    box.appendChild(m);
    box.appendChild(document.createTextNode(" "));
    if (!white) num++;
    white = !white;
  });
}

function drawAnalysis() {
  const keys = Object.keys(lines).map(Number).sort((a, b) => a - b);
  const ol = $("lines");
  ol.replaceChildren();
  for (const k of keys) {
    const i = lines[k];
    const li = document.createElement("li");
    li.setAttribute("data-multipv", k);
    li.textContent = `${i.score.text} (d${i.depth}) ${i.pv}`;
    ol.appendChild(li);
  }
  const top = lines[1];
  if (!top) {
    $("score").textContent = "";
    $("wdl").textContent = "";
    $("evalbar-white").style.height = "50%";
    return;
  }
  $("score").textContent = top.score.text;
  let [w, d, l] = top.wdl;
  if (top.wdl_side === "b") [w, l] = [l, w];
  $("wdl").textContent = `White wins ${(w / 10).toFixed(1)}%, draw ${(d / 10).toFixed(1)}%, Black wins ${(l / 10).toFixed(1)}%`;
  const frac = top.score.mate ? (top.score.cp > 0 ? 1 : 0) : 1 / (1 + Math.exp(-top.score.cp / 250));
  $("evalbar-white").style.height = (frac * 100).toFixed(1) + "%";
}

function onInfo(i) {
  lines[i.multipv] = i;
  if (i.multipv === 1) best = { from: i.from, to: i.to };
  drawAnalysis();
  draw();
}

function updateURL() {
  const p = new URLSearchParams();
  p.set("variant", state.variant);
  const v = variants.find((x) => x.name === state.variant);
  if (!v || v.start !== state.start) p.set("fen", state.start);
  if (state.texts.length) p.set("moves", state.texts.join(","));
  history.replaceState(null, "", "/?" + p.toString());
}

// --- controls ----------------------------------------------------------------

function newGameMsg() {
  const msg = { op: "new", variant: $("variant").value };
  const setup = $("setup").value.trim();
  if (setup !== "" && !$("setup-label").hidden) msg.setup = setup;
  return msg;
}

function settingsMsg() {
  const num = (id) => {
    const v = $(id).value.trim();
    return v === "" ? null : Number(v);
  };
  const base = num("base");
  const elo = num("elo");
  const mt = num("movetime");
  return {
    op: "settings",
    mode: $("mode").value,
    human: $("human").value,
    skill: num("skill") ?? 20,
    elo: elo,
    base: base && base > 0 ? Math.round(base * 60000) : null,
    inc: Math.round((num("inc") || 0) * 1000),
    movetime: mt ? Math.round(mt * 1000) : 1000,
    multipv: Number($("multipv").value),
  };
}

function setupVariantUI() {
  const v = variants.find((x) => x.name === $("variant").value);
  const random = v && v.setups;
  $("setup-label").hidden = !random;
  $("random-setup").hidden = !random;
  if (random) $("setup").max = v.setups - 1;
}

function connect(initial) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(`${proto}//${location.host}/ws`);
  ws.onopen = () => {
    showMessage("");
    send(initial);
  };
  ws.onmessage = (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch (e) { return; }
    if (m.type === "state") onState(m);
    else if (m.type === "info") onInfo(m);
    else if (m.type === "error") showMessage(m.message);
    else if (m.type === "pgn") {
      $("pgn").value = m.text;
      copyText(m.text);
    }
  };
  ws.onclose = () => showMessage("the connection to lancer serve closed; reload the page");
}

function copyText(t) {
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(t).catch(() => {});
}

async function init() {
  try {
    const r = await fetch("/api/variants");
    variants = await r.json();
  } catch (e) {
    showMessage("cannot read the variants: " + e);
    return;
  }
  const sel = $("variant");
  for (const v of variants) {
    const o = document.createElement("option");
    o.value = v.name;
    o.textContent = v.name;
    sel.appendChild(o);
  }
  const q = new URLSearchParams(location.search);
  const initial = { op: "new", variant: q.get("variant") || "chess" };
  if (q.get("fen")) initial.fen = q.get("fen");
  if (q.get("setup")) initial.setup = q.get("setup");
  if (q.get("moves")) initial.moves = q.get("moves").split(",").filter((s) => s);
  sel.value = initial.variant;
  setupVariantUI();
  sel.addEventListener("change", () => { setupVariantUI(); $("setup").value = ""; send(newGameMsg()); });
  $("new").addEventListener("click", () => send(newGameMsg()));
  $("random-setup").addEventListener("click", () => {
    const v = variants.find((x) => x.name === $("variant").value);
    if (v && v.setups) $("setup").value = Math.floor(Math.random() * v.setups);
    send(newGameMsg());
  });
  $("load-fen").addEventListener("click", () => send({ op: "new", variant: $("variant").value, fen: $("fen-input").value }));
  $("apply").addEventListener("click", () => send(settingsMsg()));
  $("undo").addEventListener("click", () => send({ op: "undo" }));
  $("resign").addEventListener("click", () => send({ op: "resign" }));
  $("analyse").addEventListener("click", () => send({ op: "analyse", on: true, multipv: Number($("multipv").value) }));
  $("stop").addEventListener("click", () => send({ op: "stop" }));
  $("pass").addEventListener("click", () => {
    const m = state && state.legal.find((x) => x.pass);
    if (m) send({ op: "move", move: m.text });
  });
  $("first").addEventListener("click", () => send({ op: "view", ply: 0 }));
  $("prev").addEventListener("click", () => state && send({ op: "view", ply: Math.max(0, state.ply - 1) }));
  $("next").addEventListener("click", () => state && send({ op: "view", ply: state.ply + 1 }));
  $("last").addEventListener("click", () => state && send({ op: "view", ply: state.plies }));
  $("flip").addEventListener("click", () => { flipped = !flipped; draw(); drawClocks(); });
  $("copy-efen").addEventListener("click", () => copyText($("efen").value));
  $("copy-pgn").addEventListener("click", () => send({ op: "pgn" }));
  $("load-pgn").addEventListener("click", () => send({ op: "loadpgn", pgn: $("pgn").value }));
  $("chooser-cancel").addEventListener("click", () => { $("chooser").hidden = true; });
  const board = $("board");
  board.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  document.addEventListener("keydown", (ev) => {
    if (!state || ev.target.tagName === "INPUT" || ev.target.tagName === "TEXTAREA") return;
    if (ev.key === "ArrowLeft") send({ op: "view", ply: Math.max(0, state.ply - 1) });
    if (ev.key === "ArrowRight") send({ op: "view", ply: state.ply + 1 });
  });
  setInterval(drawClocks, 200);
  connect(initial);
}

init();
