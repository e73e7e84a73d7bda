// The move list: the main line, and each variation in brackets after the move it
// replaces (nested as deep as they go), with the review's symbols.

import { el, moveNumber } from "./dom.js";

const JUDGED = new Set(["?!", "?", "??"]);

// Fills `box` with the tree of `state`; a click on a move calls `onNode(id)`.
export function drawMoves(box, state, onNode) {
  box.replaceChildren();
  const tree = state.tree;
  const root = tree[0];
  if (!root || !root.c.length) return;
  const main = el("div", { class: "line main" });
  line(main, tree, root.c[0], true, state, onNode, 0);
  box.appendChild(main);
  const cur = box.querySelector(".mv.current");
  if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: "nearest" });
}

function line(box, tree, first, numbered, state, onNode, depth) {
  let id = first;
  let force = true;
  while (id !== undefined && id !== null) {
    const n = tree[id];
    const num = moveNumber(state, n.ply, force);
    if (num) box.appendChild(el("span", { class: "num" }, num));
    force = false;
    const m = el("span", { class: "mv", "data-node": id, "data-ply": n.ply }, n.san + (n.nag || ""));
    if (n.nag && JUDGED.has(n.nag)) {
      m.setAttribute("data-nag", n.nag);
      m.classList.add("nag-" + { "?!": "inaccuracy", "?": "mistake", "??": "blunder" }[n.nag]);
    }
    if (id === state.node) m.classList.add("current");
    const node = id;
    m.addEventListener("click", () => onNode(node));
    box.appendChild(m);
    box.appendChild(document.createTextNode(" "));
    const parent = tree[n.p];
    if (parent.c[0] === id && parent.c.length > 1) {
      for (const alt of parent.c.slice(1)) {
        const v = el("span", { class: "variation depth-" + Math.min(depth + 1, 3) });
        v.appendChild(document.createTextNode("("));
        line(v, tree, alt, true, state, onNode, depth + 1);
        v.appendChild(document.createTextNode(") "));
        box.appendChild(v);
      }
      force = true;
    }
    id = n.c[0];
  }
  void numbered;
}
