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

With `--winboard OUTDIR` it writes the same pieces as WinBoard's monochrome bitmaps
instead (see "WinBoard" below and docs/winboard.md): 108 files, about 64 KB, for
WinBoard's `/pieceImageDirectory`.

Usage: python3 xboard/make-pieces.py [OUTDIR]   (default: xboard/pieces next to
this script)
       python3 xboard/make-pieces.py --winboard OUTDIR
Only the Python standard library is used; the output is byte-stable.
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


def turned(points, angle):
    """Points turned `angle` degrees clockwise about the centre (50, 50)."""
    a = math.radians(angle)
    c, s = math.cos(a), math.sin(a)
    out = []
    for x, y in points:
        dx, dy = x - 50, y - 50
        # Screen y grows downwards, so clockwise on screen is this matrix.
        out.append((50 + dx * c - dy * s, 50 + dx * s + dy * c))
    return out


def rotate(points, angle):
    """Points turned `angle` degrees clockwise about the centre (50, 50), as SVG text.

    The rotation is computed here rather than with an SVG transform, so every
    renderer (librsvg in XBoard, ImageMagick for the tests) draws the same thing."""
    return " ".join(
        f"{rx:.2f},{ry:.2f}".replace("-0.00", "0.00") for rx, ry in turned(points, angle)
    )


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


# WinBoard ------------------------------------------------------------------------
#
# WinBoard, XBoard's Windows edition, draws pieces from monochrome Windows bitmaps.
# With /pieceImageDirectory=DIR it first tries DIR\<prefix><size><kind>.bmp for
# each piece, where <size> is the square size in pixels and <kind> is
#   w  the piece's silhouette, painted white (for pieces of either colour);
#   o  a white piece's outline and details, painted black over it;
#   s  a black piece's dark parts, painted black over the silhouette
# (in each bitmap black marks the pixels painted; white leaves the square alone).
# For variants of the parents fairy and lion (Full Cavalry, the 8-Piece games,
# The Royal Standard) WinBoard only uses the square sizes 33, 49 and 72, where its
# own names for lancer's slots are those below; the jailer, sentry, standard-bearer
# and windmill slots have no built-in images and are looked for as
# piece<slot number>_<size><kind>.bmp. Without these files WinBoard shows its own
# Ferz, Alfil, ... images for the facings and nothing at all for those four.

WINBOARD_SIZES = (33, 49, 72)

# XBoard image name -> WinBoard file prefix (slot 5 Ferz "f", 6 Alfil "e", 7 Angel
# "aa", 8 Marshall "c", 9 Wazir "w", 10 Man "m", 11 Cannon "o", 12 Nightrider "h";
# slots 22, 25, 39 and 44 by number).
WINBOARD_PREFIX = {
    "Advisor": "f",
    "Elephant": "e",
    "Archbishop": "aa",
    "Marshall": "c",
    "Gold": "w",
    "Commoner": "m",
    "Canon": "o",
    "Nightrider": "h",
    "Sword": "piece22_",
    "Tower": "piece25_",
    "Flag": "piece39_",
    "Left": "piece44_",
}

# The same drawings as the SVGs above, as shapes for a small rasteriser: each is
# (shape, fill role, stroke role, stroke width), painted in order, where a shape is
# ("circle", cx, cy, r) or ("poly", points) in the 100x100 box, and a role is
# "fill" (the body colour: white for White, dark for Black), "line" (the other
# colour) or None.


def rounded_box(x, y, w, h, r, steps=4):
    """A rectangle with rounded corners, as a polygon."""
    pts = []
    for cx, cy, start in ((x + w - r, y + r, -90), (x + w - r, y + h - r, 0),
                          (x + r, y + h - r, 90), (x + r, y + r, 180)):
        for i in range(steps + 1):
            a = math.radians(start + 90 * i / steps)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def quad(p0, p1, p2, steps=16):
    """A quadratic Bezier curve from p0 to p2 (without p0), as points."""
    out = []
    for i in range(1, steps + 1):
        t = i / steps
        out.append(tuple((1 - t) ** 2 * a + 2 * (1 - t) * t * b + t * t * c
                         for a, b, c in zip(p0, p1, p2)))
    return out


def lancer_shapes(angle):
    return [
        (("circle", 50, 50, 30), "fill", "line", 4),
        (("poly", turned(box(45, 30, 10, 58), angle)), "line", None, 0),
        (("poly", turned([(50, 4), (70, 36), (50, 29), (30, 36)], angle)), "line", "fill", 2),
        (("poly", turned(box(38, 72, 24, 6), angle)), "line", None, 0),
    ]


def jailer_shapes():
    return [(("poly", rounded_box(18, 18, 64, 64, 6)), "fill", "line", 6)] + [
        (("poly", box(x, 24, 6, 52)), "line", None, 0) for x in (33, 47, 61)
    ]


def sentry_shapes():
    eye = [(8, 50)] + quad((8, 50), (50, 8), (92, 50)) + quad((92, 50), (50, 92), (8, 50))
    return [
        (("poly", eye), "fill", "line", 5),
        (("circle", 50, 50, 15), "line", None, 0),
        (("circle", 50, 50, 6), "fill", None, 0),
    ]


def bearer_shapes():
    return [
        (("poly", box(25, 10, 10, 76)), "fill", "line", 2),
        (("poly", [(33, 12), (84, 28), (33, 46)]), "fill", "line", 5),
        (("poly", rounded_box(14, 82, 44, 9, 3)), "fill", "line", 4),
    ]


def windmill_shapes():
    return [
        (("poly", turned([(50, 50), (56, 12), (74, 18)], a)), "fill", "line", 4)
        for a in (0, 90, 180, 270)
    ] + [(("circle", 50, 50, 8), "line", None, 0)]


def bounds(shape, pad):
    if shape[0] == "circle":
        _, cx, cy, r = shape
        return cx - r - pad, cy - r - pad, cx + r + pad, cy + r + pad
    xs = [x for x, _ in shape[1]]
    ys = [y for _, y in shape[1]]
    return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad


def inside(shape, x, y):
    if shape[0] == "circle":
        _, cx, cy, r = shape
        return (x - cx) ** 2 + (y - cy) ** 2 <= r * r
    pts = shape[1]
    hit = False
    for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def edge_distance(shape, x, y):
    if shape[0] == "circle":
        _, cx, cy, r = shape
        return abs(math.hypot(x - cx, y - cy) - r)
    best = float("inf")
    pts = shape[1]
    for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]):
        dx, dy = x2 - x1, y2 - y1
        t = ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy or 1)
        t = min(1.0, max(0.0, t))
        best = min(best, math.hypot(x - x1 - t * dx, y - y1 - t * dy))
    return best


def role_at(shapes, x, y):
    """The colour role of the point (x, y): what the last shape covering it paints."""
    role = None
    for shape, fill, stroke, width, (x0, y0, x1, y1) in shapes:
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            continue
        if stroke and edge_distance(shape, x, y) <= width / 2:
            role = stroke
        elif fill and inside(shape, x, y):
            role = fill
    return role


def raster(shapes, size, samples=4):
    """size x size pixels, each None, "fill" or "line" (top row first), from
    samples x samples points per pixel: a pixel is painted when at least half of
    its points are, and takes the line colour when at least as many of its points
    have it as have the body colour (so that thin lines survive small sizes)."""
    shapes = [(sh, f, st, w, bounds(sh, w / 2)) for sh, f, st, w in shapes]
    rows = []
    for j in range(size):
        row = []
        for i in range(size):
            counts = {None: 0, "fill": 0, "line": 0}
            for b in range(samples):
                for a in range(samples):
                    x = (i + (a + 0.5) / samples) * 100 / size
                    y = (j + (b + 0.5) / samples) * 100 / size
                    counts[role_at(shapes, x, y)] += 1
            if counts[None] * 2 > samples * samples:
                row.append(None)
            else:
                row.append("line" if counts["line"] >= counts["fill"] else "fill")
        rows.append(row)
    return rows


def bmp(rows, ink):
    """A monochrome Windows bitmap (BMP, 1 bit a pixel, black = index 0) of the
    square `rows`, black where a pixel's role is in `ink`."""
    size = len(rows)
    stride = (size + 31) // 32 * 4
    data = bytearray()
    for row in reversed(rows):  # BMP rows run bottom-up
        line = bytearray(b"\xff" * stride)
        for i, role in enumerate(row):
            if role in ink:
                line[i // 8] &= ~(0x80 >> (i % 8)) & 0xFF
        data += line
    offset = 14 + 40 + 8
    header = b"BM" + (offset + len(data)).to_bytes(4, "little") + bytes(4)
    header += offset.to_bytes(4, "little")
    info = b"".join(v.to_bytes(n, "little", signed=True) for v, n in (
        (40, 4), (size, 4), (size, 4), (1, 2), (1, 2), (0, 4), (len(data), 4),
        (3780, 4), (3780, 4), (2, 4), (2, 4)))
    palette = b"\x00\x00\x00\x00\xff\xff\xff\x00"
    return header + info + palette + bytes(data)


def winboard_files() -> dict:
    shapes = {name: lancer_shapes(angle) for name, _, angle in LANCERS}
    shapes.update(Tower=jailer_shapes(), Sword=sentry_shapes(), Flag=bearer_shapes(),
                  Left=windmill_shapes())
    out = {}
    for name, prefix in WINBOARD_PREFIX.items():
        for size in WINBOARD_SIZES:
            rows = raster(shapes[name], size)
            out[f"{prefix}{size}w.bmp"] = bmp(rows, ("fill", "line"))
            out[f"{prefix}{size}o.bmp"] = bmp(rows, ("line",))
            out[f"{prefix}{size}s.bmp"] = bmp(rows, ("fill",))
    return out


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    args = sys.argv[1:]
    if args[:1] == ["--winboard"]:
        if len(args) != 2:
            sys.exit("usage: make-pieces.py --winboard OUTDIR")
        os.makedirs(args[1], exist_ok=True)
        for name, data in sorted(winboard_files().items()):
            with open(os.path.join(args[1], name), "wb") as f:
                f.write(data)
        return
    outdir = args[0] if args else os.path.join(here, "pieces")
    os.makedirs(outdir, exist_ok=True)
    for name, text in sorted(files().items()):
        with open(os.path.join(outdir, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)


if __name__ == "__main__":
    main()
