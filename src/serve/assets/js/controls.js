// The controls beside the board: the game's settings as a message, the variant's
// setup field, the keys that step through the game, the clocks and the move sound.

import { $ } from "./dom.js";

// The `new` message of the variant and setup fields.
export function newGameMsg() {
  const msg = { op: "new", variant: $("variant").value };
  const setup = $("setup").value.trim();
  if (setup !== "" && !$("setup-label").hidden) msg.setup = setup;
  return msg;
}

// The `settings` message of the play fields.
export function settingsMsg() {
  const num = (id) => {
    const v = $(id).value.trim();
    return v === "" ? null : Number(v);
  };
  const base = num("base");
  const mt = num("movetime");
  return {
    op: "settings",
    mode: $("mode").value,
    human: $("human").value,
    skill: num("skill") ?? 20,
    elo: num("elo"),
    base: base && base > 0 ? Math.round(base * 60000) : null,
    inc: Math.round((num("inc") || 0) * 1000),
    movetime: mt ? Math.round(mt * 1000) : 1000,
    multipv: Number($("multipv").value),
  };
}

// Shows the setup field for variants with numbered setups.
export function setupVariantUI(variants) {
  const v = variants.find((x) => x.name === $("variant").value);
  const random = v && v.setups;
  $("setup-label").hidden = !random;
  $("random-setup").hidden = !random;
  if (random) $("setup").max = v.setups - 1;
}

// The node a key goes to: the one before, after, the start or the end of the line
// shown; null for other keys.
export function keyTarget(key, state) {
  const n = state.tree[state.node];
  switch (key) {
    case "ArrowLeft":
      return n.p === null ? null : n.p;
    case "ArrowRight":
      return n.c.length ? n.c[0] : null;
    case "Home":
      return 0;
    case "End":
      return state.line[state.line.length - 1];
    default:
      return null;
  }
}

function fmtClock(ms) {
  const s = Math.floor(ms / 1000);
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}` + (ms < 10000 ? "." + Math.floor((ms % 1000) / 100) : "");
}

// Draws both clocks (`clock` is {clocks, at, side, running} or null), the one of
// the side at the bottom of the board below.
export function drawClocks(clock, flipped) {
  const top = flipped ? "w" : "b";
  for (const [id, side] of [["clock-top", top], ["clock-bottom", top === "w" ? "b" : "w"]]) {
    const e = $(id);
    if (!clock) {
      e.textContent = "";
      e.classList.remove("running");
      e.removeAttribute("data-clock");
      continue;
    }
    let ms = clock.clocks[side === "w" ? 0 : 1];
    const running = clock.running && clock.side === side;
    if (running) ms -= performance.now() - clock.at;
    e.textContent = (side === "w" ? "White " : "Black ") + fmtClock(Math.max(0, ms));
    e.setAttribute("data-clock", side);
    e.classList.toggle("running", running);
  }
}

// A short click for a move (Web Audio, nothing to load), when the sound is on.
export function moveSound(audio) {
  if (!$("sound").checked) return audio;
  try {
    const ctx = audio || new AudioContext();
    const o = ctx.createOscillator();
    const g = ctx.createGain();
    o.frequency.value = 660;
    g.gain.setValueAtTime(0.12, ctx.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.08);
    o.connect(g).connect(ctx.destination);
    o.start();
    o.stop(ctx.currentTime + 0.09);
    return ctx;
  } catch (e) {
    return audio;
  }
}

// The sound switch: off unless the person turned it on (remembered).
export function setupSound() {
  const box = $("sound");
  try {
    box.checked = localStorage.getItem("lancer-sound") === "on";
  } catch (e) {
    box.checked = false;
  }
  box.addEventListener("change", () => {
    try {
      localStorage.setItem("lancer-sound", box.checked ? "on" : "off");
    } catch (e) {
      // A page without storage keeps the switch for this visit.
    }
  });
}
