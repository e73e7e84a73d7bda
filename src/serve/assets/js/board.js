// Drawing the board: the variant's shape with its holes, coordinates in the margins
// (every file and rank, whatever the shape), pieces with facings and marks, the
// last move, targets, arrows, and both hands. Draws what the server sent; no rules.

import { svgEl, el, artURL, FACINGS } from "./dom.js";

const SQ = 60;
// The margins for the coordinates: ranks on the left, files below.
const GUTTER = 18;

// Where squares go for this state and orientation.
export function geometry(state, flipped) {
  const w = state.width, h = state.height;
  const xy = (name) => {
    const f = name.charCodeAt(0) - 97;
    const r = parseInt(name.slice(1), 10) - 1;
    const col = flipped ? w - 1 - f : f;
    const row = flipped ? r : h - 1 - r;
    return [GUTTER + col * SQ, row * SQ];
  };
  const centre = (name) => {
    const [x, y] = xy(name);
    return [x + SQ / 2, y + SQ / 2];
  };
  return { w, h, xy, centre, width: GUTTER + w * SQ, height: h * SQ + GUTTER };
}

function squareName(f, r) {
  return String.fromCharCode(97 + f) + (r + 1);
}

function arrow(g, from, to, cls, shorten) {
  const [x1, y1] = g.centre(from);
  const [x2, y2] = g.centre(to);
  const dx = x2 - x1, dy = y2 - y1;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len, uy = dy / len;
  const ex = x2 - ux * shorten, ey = y2 - uy * shorten;
  const group = svgEl("g", { class: cls + "-g" });
  group.appendChild(svgEl("line", { x1, y1, x2: ex, y2: ey, class: cls }));
  const hx = ex + ux * 10, hy = ey + uy * 10;
  const px = -uy * 9, py = ux * 9;
  group.appendChild(svgEl("polygon", {
    points: `${hx},${hy} ${ex + px},${ey + py} ${ex - px},${ey - py}`,
    class: cls + "-head",
  }));
  return group;
}

// A piece in its cell: the image, a lancer's facing as an arrow, and the held and
// frozen marks.
export function pieceEl(p, state, flipped) {
  const g = svgEl("g", { class: "piece", "data-piece": p.piece });
  if (p.facing) g.setAttribute("data-facing", p.facing);
  if (p.held) g.setAttribute("data-held", "");
  if (p.frozen) g.setAttribute("data-frozen", "");
  const img = svgEl("image", { x: 3, y: 3, width: SQ - 6, height: SQ - 6 });
  img.setAttribute("href", artURL(state.art[p.art]));
  g.appendChild(img);
  if (p.facing) {
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
    const t = svgEl("text", { x: SQ - 14, y: 14, class: "badge held-badge" });
    t.textContent = "H";
    g.appendChild(t);
  }
  if (p.frozen) {
    g.appendChild(svgEl("circle", { cx: SQ / 2, cy: SQ / 2, r: SQ / 2 - 4, class: "frozen-ring" }));
    const t = svgEl("text", { x: 4, y: 14, class: "badge frozen-badge" });
    t.textContent = "\u2744";
    g.appendChild(t);
  }
  return g;
}

// Draws `state` on the SVG `svg`; `view` says how: `flipped`, `selected`
// ({from} or {drop}), `targets` (a Set of squares) and `best` ({from, to}).
export function drawBoard(svg, state, view) {
  const g = geometry(state, view.flipped);
  svg.setAttribute("viewBox", `0 0 ${g.width} ${g.height}`);
  svg.setAttribute("data-variant", state.variant);
  svg.setAttribute("data-side", state.side);
  svg.setAttribute("data-efen", state.efen);
  svg.setAttribute("data-ply", state.ply);
  svg.setAttribute("data-orientation", view.flipped ? "b" : "w");
  svg.replaceChildren();
  const holes = new Set(state.holes);
  const bySquare = {};
  for (const p of state.pieces) bySquare[p.square] = p;
  const last = new Set(state.last ? state.last.squares : []);
  const cells = svgEl("g", { class: "cells" });
  for (let r = 0; r < g.h; r++) {
    for (let f = 0; f < g.w; f++) {
      const name = squareName(f, r);
      const [x, y] = g.xy(name);
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
      if (last.has(name)) cell.appendChild(svgEl("rect", { width: SQ, height: SQ, class: "lastmove" }));
      if (view.selected && view.selected.from === name) cell.appendChild(svgEl("rect", { width: SQ, height: SQ, class: "selected-sq" }));
      if (state.check === name) {
        cell.setAttribute("data-check", "");
        cell.appendChild(svgEl("circle", { cx: SQ / 2, cy: SQ / 2, r: SQ / 2 - 2, class: "check" }));
      }
      const p = bySquare[name];
      if (p) cell.appendChild(pieceEl(p, state, view.flipped));
      if (view.targets.has(name)) {
        cell.setAttribute("data-target", "");
        cell.appendChild(p
          ? svgEl("circle", { cx: SQ / 2, cy: SQ / 2, r: SQ / 2 - 3, class: "target-ring" })
          : svgEl("circle", { cx: SQ / 2, cy: SQ / 2, r: 9, class: "target-dot" }));
      }
      cells.appendChild(cell);
    }
  }
  svg.appendChild(cells);
  // Coordinates in the margins, so that a hole at an edge hides none of them.
  const coords = svgEl("g", { class: "coords" });
  for (let r = 0; r < g.h; r++) {
    const [, y] = g.xy(squareName(0, r));
    const t = svgEl("text", { x: GUTTER / 2, y: y + SQ / 2 + 4, class: "coord", "data-coord-rank": r + 1 });
    t.textContent = r + 1;
    coords.appendChild(t);
  }
  for (let f = 0; f < g.w; f++) {
    const [x] = g.xy(squareName(f, 0));
    const letter = String.fromCharCode(97 + f);
    const t = svgEl("text", { x: x + SQ / 2, y: g.h * SQ + GUTTER - 4, class: "coord", "data-coord-file": letter });
    t.textContent = letter;
    coords.appendChild(t);
  }
  svg.appendChild(coords);
  const overlay = svgEl("g", { class: "overlay" });
  if (state.last && state.last.displaced) {
    const d = state.last.displaced;
    const a = arrow(g, d.from, d.to, "displace-arrow", 14);
    a.setAttribute("data-displaced-from", d.from);
    a.setAttribute("data-displaced-to", d.to);
    overlay.appendChild(a);
  }
  if (view.best && view.best.from && view.best.to && view.best.from !== view.best.to) {
    const a = arrow(g, view.best.from, view.best.to, "best-arrow", 16);
    a.setAttribute("data-best", "");
    overlay.appendChild(a);
  }
  svg.appendChild(overlay);
}

// Draws both hands (the side at the bottom of the board in `bottom`); a click on
// an entry calls `onClick(side, piece, count)`.
export function drawHands(top, bottom, state, view, onClick) {
  const sides = view.flipped ? ["w", "b"] : ["b", "w"];
  for (const [box, side] of [[top, sides[0]], [bottom, sides[1]]]) {
    box.replaceChildren();
    box.setAttribute("data-side", side);
    for (const e of state.hands[side] || []) {
      const d = el("div", { class: "hand-entry", "data-hand": side, "data-piece": e.piece, "data-count": e.count });
      if (view.selected && view.selected.drop === e.piece && side === state.side) d.classList.add("selected");
      const img = el("img", { alt: e.piece, src: artURL(state.art[e.art]) });
      d.appendChild(img);
      d.appendChild(el("span", { class: "count" }, String(e.count)));
      d.addEventListener("click", () => onClick(side, e.piece, e.count));
      box.appendChild(d);
    }
  }
}

// The square under a pointer event, if any.
export function squareAt(ev) {
  const t = document.elementFromPoint(ev.clientX, ev.clientY);
  const cell = t && t.closest ? t.closest("[data-square]") : null;
  return cell ? cell.getAttribute("data-square") : null;
}

// The screen rectangle of a square of the board.
export function squareRect(svg, name) {
  const cell = svg.querySelector(`[data-square="${name}"] rect`);
  return cell ? cell.getBoundingClientRect() : null;
}
