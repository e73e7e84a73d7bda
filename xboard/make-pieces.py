#!/usr/bin/env python3
"""Writes lancer's XBoard piece images (SVG) into xboard/pieces/.

XBoard 4.9.1 loads `<dir>/White<Name>.svg` / `Black<Name>.svg` for each internal
piece slot when started with `-pieceImageDirectory <dir>`, and falls back to its
installed theme for files that are missing. lancer's `setup` tables put the eight
lancer facings on slots 5..12, so the letters map to these image names:

    C (N)  Advisor      D (NE) Elephant    E (E)  Archbishop   F (SE) Marshall
    G (S)  Gold         H (SW) Commoner    M (W)  Canon        O (NW) Nightrider

Each image is a lance pointing in the facing's absolute direction (north = up,
White at the bottom). The jailer (Tower, slot 25), sentry (Sword, 22),
standard-bearer (Flag, 39) and windmill (Left, 44) get plain images of our own too,
so that the directory alone shows every piece of our variants consistently.

Usage: python3 xboard/make-pieces.py [OUTDIR]   (default: xboard/pieces next to
this script). Only the Python standard library is used; the output is byte-stable.
"""

import math
import os
import sys

# (image name, facing letter, angle in degrees clockwise from north)
LANCERS = [
    ("Advisor", "C", 0),
    ("Elephant", "D", 45),
    ("Archbishop", "E", 90),
    ("Marshall", "F", 135),
    ("Gold", "G", 180),
    ("Commoner", "H", 225),
    ("Canon", "M", 270),
    ("Nightrider", "O", 315),
]

COLOURS = {
    # colour name: (body fill, outline/detail)
    "White": ("#ffffff", "#000000"),
    "Black": ("#202020", "#ffffff"),
}


def svg(body: str, title: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" '
        'viewBox="0 0 100 100">\n'
        f"<title>{title}</title>\n{body}</svg>\n"
    )


def rotate(points, angle):
    """Points turned `angle` degrees clockwise about the centre (50, 50), as SVG text.

    The rotation is computed here rather than with an SVG transform, so every
    renderer (librsvg in XBoard, ImageMagick for the tests) draws the same thing."""
    a = math.radians(angle)
    c, s = math.cos(a), math.sin(a)
    out = []
    for x, y in points:
        dx, dy = x - 50, y - 50
        # Screen y grows downwards, so clockwise on screen is this matrix.
        rx = 50 + dx * c - dy * s
        ry = 50 + dx * s + dy * c
        out.append(f"{rx:.2f},{ry:.2f}".replace("-0.00", "0.00"))
    return " ".join(out)


def box(x, y, w, h):
    return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]


def lancer(colour: str, angle: int) -> str:
    fill, line = COLOURS[colour]
    # A round shield (the piece's base) with a lance through it, pointing north
    # before rotation: long shaft, big head, a grip at the back.
    shaft = rotate(box(45, 30, 10, 58), angle)
    head = rotate([(50, 4), (70, 36), (50, 29), (30, 36)], angle)
    grip = rotate(box(38, 72, 24, 6), angle)
    return (
        f'<circle cx="50" cy="50" r="30" fill="{fill}" stroke="{line}" '
        'stroke-width="4"/>\n'
        f'<polygon points="{shaft}" fill="{line}"/>\n'
        f'<polygon points="{head}" fill="{line}" stroke="{fill}" stroke-width="2" '
        'stroke-linejoin="round"/>\n'
        f'<polygon points="{grip}" fill="{line}"/>\n'
    )


def jailer(colour: str) -> str:
    fill, line = COLOURS[colour]
    # A barred window: a square frame with three bars.
    bars = "".join(
        f'<rect x="{x}" y="24" width="6" height="52" fill="{line}"/>\n'
        for x in (33, 47, 61)
    )
    return (
        f'<rect x="18" y="18" width="64" height="64" rx="6" fill="{fill}" '
        f'stroke="{line}" stroke-width="6"/>\n{bars}'
    )


def sentry(colour: str) -> str:
    fill, line = COLOURS[colour]
    # An eye: the sentry watches the diagonals.
    return (
        f'<path d="M8,50 Q50,8 92,50 Q50,92 8,50 Z" fill="{fill}" stroke="{line}" '
        'stroke-width="5"/>\n'
        f'<circle cx="50" cy="50" r="15" fill="{line}"/>\n'
        f'<circle cx="50" cy="50" r="6" fill="{fill}"/>\n'
    )


def bearer(colour: str) -> str:
    fill, line = COLOURS[colour]
    # A pennant on a pole, on a small base.
    return (
        f'<rect x="25" y="10" width="10" height="76" fill="{fill}" stroke="{line}" '
        'stroke-width="2"/>\n'
        f'<polygon points="33,12 84,28 33,46" fill="{fill}" stroke="{line}" '
        'stroke-width="5" stroke-linejoin="round"/>\n'
        f'<rect x="14" y="82" width="44" height="9" rx="3" fill="{fill}" '
        f'stroke="{line}" stroke-width="4"/>\n'
    )


def windmill(colour: str) -> str:
    fill, line = COLOURS[colour]
    # Four sails around a hub.
    sails = "".join(
        f'<polygon points="{rotate([(50, 50), (56, 12), (74, 18)], a)}" fill="{fill}" '
        f'stroke="{line}" stroke-width="4" stroke-linejoin="round"/>\n'
        for a in (0, 90, 180, 270)
    )
    return sails + f'<circle cx="50" cy="50" r="8" fill="{line}"/>\n'


def files() -> dict:
    out = {}
    for colour in COLOURS:
        for name, letter, angle in LANCERS:
            out[f"{colour}{name}.svg"] = svg(
                lancer(colour, angle), f"{colour} lancer {letter} ({angle} deg)"
            )
        out[f"{colour}Tower.svg"] = svg(jailer(colour), f"{colour} jailer J")
        out[f"{colour}Sword.svg"] = svg(sentry(colour), f"{colour} sentry S")
        out[f"{colour}Flag.svg"] = svg(bearer(colour), f"{colour} standard-bearer S")
        out[f"{colour}Left.svg"] = svg(windmill(colour), f"{colour} windmill W")
    return out


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "pieces")
    os.makedirs(outdir, exist_ok=True)
    for name, text in sorted(files().items()):
        with open(os.path.join(outdir, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)


if __name__ == "__main__":
    main()
