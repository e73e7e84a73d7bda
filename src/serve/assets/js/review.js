// The game review on the page: the evaluation graph under the board (one point a
// position of the main line, White's winning chances up, a click goes to that
// move), its progress, and each side's summary.

import { svgEl, el } from "./dom.js";

const W = 600, H = 120;

// Draws the review's graph into `svg`; `current` is the node shown; a click on a
// point calls `onNode(node)`.
export function drawGraph(svg, review, current, onNode) {
  svg.replaceChildren();
  // `hidden` is an HTML property: an SVG element needs the attribute itself.
  svg.toggleAttribute("hidden", !review);
  if (!review) {
    svg.removeAttribute("data-reviewed");
    return;
  }
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const n = Math.max(review.total - 1, 1);
  const x = (ply) => 4 + (ply / n) * (W - 8);
  // White's chances from -1 (bottom) to 1 (top).
  const y = (wc) => H / 2 - wc * (H / 2 - 6);
  svg.appendChild(svgEl("rect", { width: W, height: H, class: "graph-bg" }));
  svg.appendChild(svgEl("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: "graph-mid" }));
  const pts = review.points.slice().sort((a, b) => a.ply - b.ply);
  if (pts.length) {
    const path = pts.map((p) => `${x(p.ply).toFixed(1)},${y(p.wc).toFixed(1)}`);
    const area = `${x(pts[0].ply).toFixed(1)},${H} ${path.join(" ")} ${x(pts[pts.length - 1].ply).toFixed(1)},${H}`;
    svg.appendChild(svgEl("polygon", { points: area, class: "graph-area" }));
    svg.appendChild(svgEl("polyline", { points: path.join(" "), class: "graph-line" }));
  }
  const nags = new Map((review.nags || []).map((g) => [g.node, g.nag]));
  for (const p of pts) {
    const nag = nags.get(p.node);
    const cls = "graph-point" + (nag ? " nag-" + { "?!": "inaccuracy", "?": "mistake", "??": "blunder" }[nag] : "") + (p.node === current ? " current" : "");
    const c = svgEl("circle", { cx: x(p.ply), cy: y(p.wc), r: nag || p.node === current ? 5 : 3.5, class: cls, "data-eval-ply": p.ply, "data-eval": p.eval, "data-node": p.node });
    const t = svgEl("title", {});
    t.textContent = `ply ${p.ply}: ${p.eval}`;
    c.appendChild(t);
    c.addEventListener("click", () => onNode(p.node));
    svg.appendChild(c);
  }
  if (review.status === "done") svg.setAttribute("data-reviewed", "");
  else svg.removeAttribute("data-reviewed");
}

// The review's line of text: its progress, or each side's summary.
export function drawSummary(box, review) {
  box.replaceChildren();
  if (!review) return;
  if (review.status !== "done") {
    const what = review.status === "queued" ? "waiting for a free engine" : review.status === "stopped" ? "stopped" : "reviewing";
    box.appendChild(el("div", {}, `Review: ${what}, ${review.done}/${review.total} positions`));
    return;
  }
  const n = (k, one, many) => `${k} ${k === 1 ? one : many}`;
  for (const [side, name] of [["w", "White"], ["b", "Black"]]) {
    const s = review.summary[side];
    box.appendChild(el("div", { "data-summary": side },
      `${name}: ${n(s.inaccuracies, "inaccuracy", "inaccuracies")} (?!), ${n(s.mistakes, "mistake", "mistakes")} (?), ${n(s.blunders, "blunder", "blunders")} (??), average centipawn loss ${s.acpl}`));
  }
}

// Adds a position the review just finished to `review` (a `review` message).
export function addPoint(review, msg) {
  if (!review) return;
  review.points.push(msg.point);
  if (msg.nag) review.nags.push(msg.nag);
  review.done = msg.done;
  review.total = msg.total;
  review.status = "running";
}
