// Small helpers for building the page: elements, SVG elements, piece images.

export const NS = "http://www.w3.org/2000/svg";

export const $ = (id) => document.getElementById(id);

// An SVG element with attributes.
export function svgEl(name, attrs) {
  const el = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  return el;
}

// An HTML element with attributes and text.
export function el(name, attrs, text) {
  const e = document.createElement(name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// A piece's SVG art (from the state's `art`) as an image URL.
export function artURL(svg) {
  return "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg || "");
}

export const FACINGS = ["n", "ne", "e", "se", "s", "sw", "w", "nw"];

// The move number and dots of the move that reaches ply `ply` (1 = the first),
// given the side and move number the game starts with.
export function moveNumber(state, ply, force) {
  const off = state.first_side === "b" ? 1 : 0;
  const white = (ply - 1 + off) % 2 === 0;
  const num = state.first_move + Math.floor((ply - 1 + off) / 2);
  if (white) return num + ". ";
  return force ? num + "... " : "";
}
