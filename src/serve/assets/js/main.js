// lancer serve: the page. It draws what the server sends and sends back what the
// person does; every rule (legal moves, results, notation, the review) is the
// server's. The data- attributes are a stable contract (docs/serve.md, The
// web board). The page's state lives in `app`, which this module owns and hands
// to the others' functions.

import { $, el } from "./dom.js";
import { connect } from "./socket.js";
import { drawBoard, drawHands, geometry, squareAt, pieceEl } from "./board.js";
import { choose, choosing } from "./chooser.js";
import { drawMoves } from "./moves.js";
import { drawGraph, drawSummary, addPoint } from "./review.js";
import { newGameMsg, settingsMsg, setupVariantUI, keyTarget, drawClocks, moveSound, setupSound } from "./controls.js";

const app = {
  send: () => false,
  state: null,
  variants: [],
  flipped: false,
  // The orientation the play settings last asked for, to turn the board when
  // they change.
  seat: null,
  selected: null, // {from: "e2"} or {drop: "P"}
  lines: {}, // multipv -> info
  best: null, // {from, to}
  clock: null, // {clocks, at, side, running}
  drag: null,
  // An error came with the answer being read: the next state keeps it on screen.
  errorPending: false,
  audio: null,
  // What the page opens with (from its URL), sent again after a reconnection.
  initial: null,
  reviewOnOpen: false,
};

function showMessage(text) {
  $("message").textContent = text || "";
}

function send(msg) {
  app.send(msg);
}

// --- moves by click, drag and the hands ----------------------------------------

function movesFrom(sel) {
  if (!app.state || !sel) return [];
  return app.state.legal.filter((m) => (sel.from ? m.from === sel.from : m.drop === sel.drop));
}

function targets() {
  return new Set(movesFrom(app.selected).map((m) => m.to).filter(Boolean));
}

function isOurs(piece) {
  return (piece.piece === piece.piece.toUpperCase()) === (app.state.side === "w");
}

function turnText() {
  return `it is ${app.state.side === "w" ? "White" : "Black"}'s turn`;
}

function clickHand(side, piece, count) {
  if (!app.state || choosing()) return;
  if (side !== app.state.side) {
    showMessage(turnText());
    return;
  }
  if (count === 0) {
    showMessage(`there is no ${piece} in hand`);
    return;
  }
  app.selected = app.selected && app.selected.drop === piece ? null : { drop: piece };
  draw();
}

// Selects our piece on `name`, or says at once why it cannot move.
function select(name) {
  const why = app.state.immobile && app.state.immobile[name];
  if (why) {
    app.selected = null;
    showMessage(why);
    draw();
    return;
  }
  app.selected = { from: name };
  draw();
}

function clickSquare(name) {
  const st = app.state;
  if (!st || choosing()) return;
  const piece = st.pieces.find((p) => p.square === name);
  if (app.selected) {
    const cands = movesFrom(app.selected).filter((m) => m.to === name);
    if (cands.length) {
      app.selected = null;
      if (cands.length === 1) send({ op: "move", move: cands[0].text });
      else choose(cands, st, app.flipped, $("board"), (text) => send({ op: "move", move: text }));
      draw();
      return;
    }
    if (app.selected.from === name) {
      app.selected = null;
      draw();
      return;
    }
    if (piece && isOurs(piece)) {
      select(name);
      return;
    }
    // Not a legal target: the server says why.
    const attempt = app.selected.from ? app.selected.from + name : app.selected.drop.toUpperCase() + "@" + name;
    app.selected = null;
    draw();
    send({ op: "move", move: attempt });
    return;
  }
  if (piece) {
    if (isOurs(piece)) select(name);
    else showMessage(turnText());
  }
}

function onPointerDown(ev) {
  const name = squareAt(ev);
  if (!name) return;
  app.drag = { start: name, moved: false, x: ev.clientX, y: ev.clientY };
}

function onPointerMove(ev) {
  const d = app.drag;
  if (!d) return;
  if (!d.moved && Math.hypot(ev.clientX - d.x, ev.clientY - d.y) > 6) {
    d.moved = true;
    const piece = app.state && app.state.pieces.find((p) => p.square === d.start);
    if (piece && isOurs(piece)) {
      if (!app.selected || app.selected.from !== d.start) select(d.start);
      // The piece follows the pointer while it is dragged.
      const ghost = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      ghost.setAttribute("viewBox", "0 0 60 60");
      ghost.setAttribute("class", "drag-ghost");
      ghost.appendChild(pieceEl(piece, app.state, app.flipped));
      document.body.appendChild(ghost);
      d.ghost = ghost;
    }
  }
  if (d.ghost) {
    d.ghost.style.left = ev.clientX - 28 + "px";
    d.ghost.style.top = ev.clientY - 28 + "px";
  }
}

function onPointerUp(ev) {
  const d = app.drag;
  if (!d) return;
  app.drag = null;
  if (d.ghost) d.ghost.remove();
  const name = squareAt(ev);
  if (!name) return;
  if (!d.moved || name !== d.start) clickSquare(name);
}

// --- drawing -----------------------------------------------------------------------

function draw() {
  const st = app.state;
  if (!st) return;
  const view = { flipped: app.flipped, selected: app.selected, targets: targets(), best: app.best };
  const board = $("board");
  drawBoard(board, st, view);
  const g = geometry(st, app.flipped);
  board.style.setProperty("--aspect", (g.width / g.height).toFixed(4));
  drawHands($("hand-top"), $("hand-bottom"), st, view, clickHand);
  const bar = $("evalbar");
  bar.classList.toggle("flipped", app.flipped);
  bar.setAttribute("data-orientation", app.flipped ? "b" : "w");
  drawClocks(app.clock, app.flipped);
}

function drawAnalysis() {
  const keys = Object.keys(app.lines).map(Number).sort((a, b) => a - b);
  const ol = $("lines");
  ol.replaceChildren();
  for (const k of keys) {
    const i = app.lines[k];
    ol.appendChild(el("li", { "data-multipv": k }, `${i.score.text} (d${i.depth}) ${i.pv}`));
  }
  const top = app.lines[1];
  const white = $("evalbar-white");
  if (!top) {
    $("score").textContent = "";
    $("wdl").textContent = "";
    // Without an analysis, the review's evaluation of the move shown.
    const r = app.state && app.state.review;
    const p = r && r.points.find((x) => x.node === app.state.node);
    white.style.height = p ? (((p.wc + 1) / 2) * 100).toFixed(1) + "%" : "50%";
    return;
  }
  $("score").textContent = top.score.text;
  let [w, d, l] = top.wdl;
  if (top.wdl_side === "b") [w, l] = [l, w];
  $("wdl").textContent = `White wins ${(w / 10).toFixed(1)}%, draw ${(d / 10).toFixed(1)}%, Black wins ${(l / 10).toFixed(1)}%`;
  const frac = top.score.mate ? (top.score.cp > 0 ? 1 : 0) : (w + d / 2) / 1000;
  white.style.height = (frac * 100).toFixed(1) + "%";
}

function drawReview() {
  const r = app.state && app.state.review;
  drawGraph($("graph"), r, app.state ? app.state.node : null, (node) => send({ op: "view", node }));
  drawSummary($("review-summary"), r);
  $("board-side").classList.toggle("reviewed", !!r);
  const board = $("board");
  if (r && r.status === "done") board.setAttribute("data-reviewed", "");
  else board.removeAttribute("data-reviewed");
}

function statusText(s) {
  const side = s.side === "w" ? "White" : "Black";
  if (s.result) return `${s.result.score} \u2014 ${s.result.text}`;
  if (s.waiting) return `${side} to move \u2014 waiting for a free engine`;
  if (s.thinking) return `${side} to move \u2014 lancer is thinking`;
  return `${side} to move` + (s.check ? " \u2014 check" : "");
}

function onState(s) {
  const prev = app.state;
  const moved = !prev || prev.node !== s.node || prev.efen !== s.efen;
  app.state = s;
  if (moved) {
    app.lines = {};
    app.best = null;
    app.selected = null;
    drawAnalysis();
    // A move forward by one is a move played (or stepped to): its sound.
    if (prev && s.tree[s.node] && s.tree[s.node].p === prev.node) app.audio = moveSound(app.audio);
  }
  // The board turns when the play settings give the person the other colour.
  const seat = s.mode === "play" ? s.human : null;
  if (seat !== app.seat) {
    if (seat) app.flipped = seat === "b";
    app.seat = seat;
  }
  app.clock = s.clocks ? { clocks: s.clocks, at: performance.now(), side: s.side, running: s.mode === "play" && !s.result } : null;
  if (!app.errorPending) showMessage("");
  app.errorPending = false;
  $("variant").value = s.variant;
  $("efen").value = s.efen;
  $("mode").value = s.mode;
  $("human").value = s.human;
  $("status").textContent = statusText(s);
  $("status").setAttribute("data-result", s.result ? s.result.score : "");
  $("status").toggleAttribute("data-waiting", !!s.waiting);
  $("pass").disabled = !s.legal.some((m) => m.pass);
  $("promote").disabled = s.mainline;
  drawMoves($("moves"), s, (node) => send({ op: "view", node }));
  draw();
  drawReview();
  drawAnalysis();
  updateURL();
}

function onInfo(i) {
  app.lines[i.multipv] = i;
  if (i.multipv === 1) app.best = { from: i.from, to: i.to };
  drawAnalysis();
  draw();
}

function onReviewStep(m) {
  if (!app.state) return;
  addPoint(app.state.review, m);
  if (m.nag && app.state.tree[m.nag.node]) app.state.tree[m.nag.node].nag = m.nag.nag;
  drawReview();
  drawAnalysis();
}

function updateURL() {
  const st = app.state;
  const p = new URLSearchParams();
  p.set("variant", st.variant);
  const v = app.variants.find((x) => x.name === st.variant);
  if (!v || v.start !== st.start) p.set("fen", st.start);
  if (st.texts.length) p.set("moves", st.texts.join(","));
  if (st.review) p.set("review", "1");
  history.replaceState(null, "", "/?" + p.toString());
}

// The message that puts the game shown back after a reconnection.
function currentGameMsg() {
  const st = app.state;
  if (!st) return app.initial;
  const msg = { op: "new", variant: st.variant, fen: st.start, moves: st.texts };
  return msg;
}

// Without a socket (refused, or the server away) the board of the URL's game is
// still shown, from the JSON API.
async function showWithoutSocket() {
  if (app.state) return;
  const q = new URLSearchParams(location.search);
  q.delete("review");
  try {
    const r = await fetch("/api/position?" + q.toString());
    const s = await r.json();
    if (!r.ok || app.state) return;
    const view = { flipped: app.flipped, selected: null, targets: new Set(), best: null };
    drawBoard($("board"), s, view);
    drawHands($("hand-top"), $("hand-bottom"), s, view, () => {});
  } catch (e) {
    // The server is away: the reconnection says so.
  }
}

// --- start -----------------------------------------------------------------------

function onSocketMessage(m) {
  if (m.type === "state") onState(m);
  else if (m.type === "info") onInfo(m);
  else if (m.type === "review") onReviewStep(m);
  else if (m.type === "error") {
    showMessage(m.message);
    app.errorPending = true;
  } else if (m.type === "pgn") {
    $("pgn").value = m.text;
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(m.text).catch(() => {});
  }
}

function wire() {
  const sel = $("variant");
  sel.addEventListener("change", () => {
    setupVariantUI(app.variants);
    $("setup").value = "";
    send(newGameMsg());
  });
  $("new").addEventListener("click", () => send(newGameMsg()));
  $("random-setup").addEventListener("click", () => {
    const v = app.variants.find((x) => x.name === $("variant").value);
    if (v && v.setups) $("setup").value = Math.floor(Math.random() * v.setups);
    send(newGameMsg());
  });
  $("load-fen").addEventListener("click", () => send({ op: "new", variant: $("variant").value, fen: $("fen-input").value }));
  $("apply").addEventListener("click", () => send(settingsMsg()));
  $("undo").addEventListener("click", () => send({ op: "undo" }));
  $("resign").addEventListener("click", () => send({ op: "resign" }));
  $("analyse").addEventListener("click", () => send({ op: "analyse", on: true, multipv: Number($("multipv").value) }));
  $("stop").addEventListener("click", () => send({ op: "stop" }));
  $("review").addEventListener("click", () => send({ op: "review", on: true }));
  $("promote").addEventListener("click", () => send({ op: "promote" }));
  $("pass").addEventListener("click", () => {
    const m = app.state && app.state.legal.find((x) => x.pass);
    if (m) send({ op: "move", move: m.text });
  });
  const step = (key) => {
    const n = app.state && keyTarget(key, app.state);
    if (n !== null && n !== undefined) send({ op: "view", node: n });
  };
  $("first").addEventListener("click", () => step("Home"));
  $("prev").addEventListener("click", () => step("ArrowLeft"));
  $("next").addEventListener("click", () => step("ArrowRight"));
  $("last").addEventListener("click", () => step("End"));
  $("flip").addEventListener("click", () => {
    app.flipped = !app.flipped;
    draw();
  });
  $("copy-efen").addEventListener("click", () => {
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText($("efen").value).catch(() => {});
  });
  $("copy-pgn").addEventListener("click", () => send({ op: "pgn" }));
  $("load-pgn").addEventListener("click", () => send({ op: "loadpgn", pgn: $("pgn").value }));
  const board = $("board");
  board.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  document.addEventListener("keydown", (ev) => {
    const tag = ev.target.tagName;
    if (!app.state || tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (["ArrowLeft", "ArrowRight", "Home", "End"].includes(ev.key)) {
      ev.preventDefault();
      step(ev.key);
    }
  });
  setupSound();
  setInterval(() => drawClocks(app.clock, app.flipped), 200);
}

async function init() {
  wire();
  const q = new URLSearchParams(location.search);
  const initial = { op: "new", variant: q.get("variant") || "chess" };
  if (q.get("fen")) initial.fen = q.get("fen");
  if (q.get("setup")) initial.setup = q.get("setup");
  if (q.get("moves")) initial.moves = q.get("moves").split(",").filter((s) => s);
  app.initial = initial;
  app.reviewOnOpen = q.get("review") === "1";
  try {
    const r = await fetch("/api/variants");
    const body = await r.json();
    if (!r.ok) {
      $("conn").textContent = body.error || `the server answered ${r.status}`;
      return;
    }
    app.variants = body;
  } catch (e) {
    $("conn").textContent = "cannot reach lancer serve: " + e;
    return;
  }
  const sel = $("variant");
  for (const v of app.variants) sel.appendChild(el("option", { value: v.name }, v.name));
  sel.value = initial.variant;
  setupVariantUI(app.variants);
  app.send = connect({
    onOpen: () => {
      app.send(currentGameMsg());
      if (app.reviewOnOpen) {
        app.reviewOnOpen = false;
        app.send({ op: "review", on: true });
      }
    },
    onMessage: onSocketMessage,
    onStatus: (text, down) => {
      $("conn").textContent = text;
      $("conn").toggleAttribute("data-down", !!down);
      if (down) showWithoutSocket();
    },
  });
}

init();
