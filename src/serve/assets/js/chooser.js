// The chooser for moves that share their squares: a compass of facings on the
// target square for a lancer (after its move, a promotion to it, a Full Cavalry
// castling), piece images for a promotion, the squares a displaced bearer may go to.

import { $, el, artURL, FACINGS } from "./dom.js";
import { squareRect } from "./board.js";

const ARROWS = { n: "\u2191", ne: "\u2197", e: "\u2192", se: "\u2198", s: "\u2193", sw: "\u2199", w: "\u2190", nw: "\u2196" };

function label(m) {
  const parts = [];
  if (m.castle) parts.push("castle");
  if (m.bearer) parts.push("bearer to " + m.bearer);
  if (!parts.length) parts.push(m.san);
  return parts.join(", ");
}

// The art of the piece a move leaves on its square (a promotion's piece, a lancer
// with its new facing), if the state has it.
function resultArt(state, m) {
  return m.art ? state.art[m.art] || null : null;
}

// Shows the choices among `cands` (moves to one square) over the board `svg`;
// `onPick(text)` gets the chosen move's text.
export function choose(cands, state, flipped, svg, onPick) {
  const box = $("chooser");
  const compass = $("compass");
  const list = $("choices");
  compass.replaceChildren();
  list.replaceChildren();
  const what = [];
  if (cands.some((m) => m.promotion)) what.push("the promotion");
  if (cands.some((m) => m.facing)) what.push("the lancer's facing");
  if (cands.some((m) => m.bearer)) what.push("where the standard-bearer goes");
  $("chooser-title").textContent = "Choose " + (what.join(" and ") || "the move") + ":";
  const close = () => {
    box.hidden = true;
    compass.replaceChildren();
  };
  const pick = (m) => {
    close();
    onPick(m.text);
  };
  const button = (m) => {
    const b = el("button", { "data-choice": m.text, title: m.san, type: "button" });
    if (m.facing) b.setAttribute("data-facing", m.facing);
    if (m.bearer) b.setAttribute("data-bearer", m.bearer);
    if (m.promotion) b.setAttribute("data-promotion", m.promotion);
    b.addEventListener("click", () => pick(m));
    return b;
  };
  // Facings go round the target square, each on its side of it.
  const target = cands[0].to;
  const rect = squareRect(svg, target);
  const wrap = $("board-col").getBoundingClientRect();
  for (const m of cands) {
    if (m.facing && rect) {
      let i = FACINGS.indexOf(m.facing);
      if (flipped) i = (i + 4) % 8;
      const a = (i * Math.PI) / 4;
      const size = Math.max(30, rect.width * 0.62);
      const radius = rect.width * 0.78;
      const cx = rect.left - wrap.left + rect.width / 2 + Math.sin(a) * radius;
      const cy = rect.top - wrap.top + rect.height / 2 - Math.cos(a) * radius;
      const cxc = Math.min(Math.max(cx, size / 2), wrap.width - size / 2);
      const cyc = Math.min(Math.max(cy, size / 2), wrap.height - size / 2);
      const b = button(m);
      b.className = "compass-point";
      b.style.left = cxc - size / 2 + "px";
      b.style.top = cyc - size / 2 + "px";
      b.style.width = size + "px";
      b.style.height = size + "px";
      // The lancer as it will stand (its art draws the facing), else an arrow.
      const art = resultArt(state, m);
      if (art) b.appendChild(el("img", { src: artURL(art), alt: `${m.promotion || "lancer"} facing ${m.facing}` }));
      else b.appendChild(el("span", { class: "compass-arrow" }, ARROWS[flipped ? FACINGS[(FACINGS.indexOf(m.facing) + 4) % 8] : m.facing]));
      b.setAttribute("aria-label", `${m.san}: facing ${m.facing}`);
      compass.appendChild(b);
    } else {
      const b = button(m);
      const art = resultArt(state, m);
      if (art) b.appendChild(el("img", { src: artURL(art), alt: m.promotion }));
      b.appendChild(el("span", {}, m.promotion && !m.bearer ? m.san : label(m)));
      list.appendChild(b);
    }
  }
  if (rect) {
    const mark = el("div", { class: "compass-centre" });
    mark.style.left = rect.left - wrap.left + "px";
    mark.style.top = rect.top - wrap.top + "px";
    mark.style.width = rect.width + "px";
    mark.style.height = rect.height + "px";
    compass.appendChild(mark);
  }
  list.hidden = list.children.length === 0;
  // The box of text and buttons keeps clear of the target square.
  box.classList.toggle("target-low", !!rect && rect.top + rect.height / 2 > wrap.top + wrap.height / 2);
  box.hidden = false;
  $("chooser-cancel").onclick = close;
}

// Whether the chooser is open.
export function choosing() {
  return !$("chooser").hidden;
}
