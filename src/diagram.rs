//! `lancer diagram`: a position as an SVG picture, for the docs and for people who
//! would rather look than read the `d` text board.
//!
//! The pieces are the XBoard images of `xboard/pieces/`, embedded, so that a diagram
//! and an XBoard game show the same art. XBoard takes the chess pieces from its own
//! (GPL) theme, which cannot be embedded here, so those are drawn below in the style
//! of `xboard/make-pieces.py`. Every mark a test or a tool may look for carries its
//! own class: `square`, `hole`, `piece`, `arrow`, `held`, `frozen`, `lastmove`,
//! `hand-piece` (with `data-side`, `data-kind`, `data-count`).

use crate::rules::bitboard::*;
use crate::rules::notation::move_text;
use crate::rules::piece::*;
use crate::rules::variant::Castling;
use crate::rules::{Move, MoveType, Position};
use std::fmt::Write;

/// Side of a board square, in SVG user units.
const SQ: i32 = 60;
/// Side of a piece in a hand.
const HAND_SQ: i32 = 40;
/// Room left of the board for the rank numbers.
const LEFT: i32 = 28;
const TOP: i32 = 12;
const MARGIN: i32 = 12;
const LINE: i32 = 20;
const FONT: &str = "DejaVu Sans, Verdana, Arial, sans-serif";
const MONO: &str = "DejaVu Sans Mono, Menlo, Consolas, monospace";

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
const HOLE_FILL: &str = "#e4e4e4";
const HOLE_HATCH: &str = "#a8a8a8";
const LAST_MOVE: &str = "#cdd26a";
const ARROW: &str = "#e65100";
const HELD: &str = "#c2185b";
const FROZEN: &str = "#0277bd";

/// The facing images, in facing order (n ne e se s sw w nw), as make-pieces.py
/// assigns them to XBoard's slots.
const WHITE_LANCERS: [&str; 8] = [
    include_str!("../xboard/pieces/WhiteAdvisor.svg"),
    include_str!("../xboard/pieces/WhiteElephant.svg"),
    include_str!("../xboard/pieces/WhiteArchbishop.svg"),
    include_str!("../xboard/pieces/WhiteMarshall.svg"),
    include_str!("../xboard/pieces/WhiteGold.svg"),
    include_str!("../xboard/pieces/WhiteCommoner.svg"),
    include_str!("../xboard/pieces/WhiteCanon.svg"),
    include_str!("../xboard/pieces/WhiteNightrider.svg"),
];
const BLACK_LANCERS: [&str; 8] = [
    include_str!("../xboard/pieces/BlackAdvisor.svg"),
    include_str!("../xboard/pieces/BlackElephant.svg"),
    include_str!("../xboard/pieces/BlackArchbishop.svg"),
    include_str!("../xboard/pieces/BlackMarshall.svg"),
    include_str!("../xboard/pieces/BlackGold.svg"),
    include_str!("../xboard/pieces/BlackCommoner.svg"),
    include_str!("../xboard/pieces/BlackCanon.svg"),
    include_str!("../xboard/pieces/BlackNightrider.svg"),
];

/// The image of a piece: an `<svg>` element with a 100x100 view box (no XML
/// declaration, so that it can be nested). The XBoard images define no ids, so they
/// can be repeated in one document as they are.
pub fn piece_image(p: Piece, facing: u8) -> String {
    let white = p.color() == Color::White;
    let file = |w: &'static str, b: &'static str| if white { w } else { b };
    let xboard = match p.kind() {
        Kind::Lancer => Some(if white {
            WHITE_LANCERS[(facing & 7) as usize]
        } else {
            BLACK_LANCERS[(facing & 7) as usize]
        }),
        Kind::Jailer => Some(file(
            include_str!("../xboard/pieces/WhiteTower.svg"),
            include_str!("../xboard/pieces/BlackTower.svg"),
        )),
        Kind::Sentry => Some(file(
            include_str!("../xboard/pieces/WhiteSword.svg"),
            include_str!("../xboard/pieces/BlackSword.svg"),
        )),
        Kind::Bearer => Some(file(
            include_str!("../xboard/pieces/WhiteFlag.svg"),
            include_str!("../xboard/pieces/BlackFlag.svg"),
        )),
        Kind::Windmill => Some(file(
            include_str!("../xboard/pieces/WhiteLeft.svg"),
            include_str!("../xboard/pieces/BlackLeft.svg"),
        )),
        _ => None,
    };
    match xboard {
        Some(text) => {
            let body = text.split_once("?>").map_or(text, |(_, rest)| rest);
            body.trim().to_string()
        }
        None => chess_piece(p),
    }
}

/// A chess piece in make-pieces.py's style: a filled shape with a thick outline,
/// white on black for White, dark on white for Black.
fn chess_piece(p: Piece) -> String {
    let (fill, line) = match p.color() {
        Color::White => ("#ffffff", "#000000"),
        Color::Black => ("#202020", "#ffffff"),
    };
    let st = format!(r#"fill="{fill}" stroke="{line}" stroke-width="4" stroke-linejoin="round""#);
    let body = match p.kind() {
        Kind::Pawn => format!(
            r#"<path d="M38,48 Q50,40 62,48 L69,78 L31,78 Z" {st}/>
<circle cx="50" cy="31" r="13" {st}/>
<rect x="22" y="76" width="56" height="12" rx="3" {st}/>"#
        ),
        Kind::Knight => format!(
            r#"<path d="M30,88 L76,88 C78,62 74,42 62,28 C56,20 50,16 46,14 L42,5 L36,16 C29,22 23,30 19,40 L14,54 C14,61 21,64 26,61 L36,53 C42,51 46,48 49,43 C47,57 36,67 30,88 Z" {st}/>
<circle cx="40" cy="28" r="4" fill="{line}"/>"#
        ),
        Kind::Bishop | Kind::ForwardBishop => format!(
            r#"<circle cx="50" cy="13" r="6" {st}/>
<path d="M50,20 C71,35 69,56 62,70 L38,70 C31,56 29,35 50,20 Z" {st}/>
<path d="M57,33 L46,48" stroke="{line}" stroke-width="5" stroke-linecap="round"/>
<rect x="24" y="70" width="52" height="16" rx="4" {st}/>"#
        ),
        Kind::Rook => format!(
            r#"<rect x="31" y="32" width="38" height="44" {st}/>
<polygon points="23,14 35,14 35,22 44,22 44,14 56,14 56,22 65,22 65,14 77,14 77,34 23,34" {st}/>
<rect x="21" y="74" width="58" height="14" rx="3" {st}/>"#
        ),
        Kind::Queen => format!(
            r#"<polygon points="27,76 17,30 33,56 34,21 45,52 50,15 55,52 66,21 67,56 83,30 73,76" {st}/>
<rect x="23" y="74" width="54" height="14" rx="3" {st}/>
<circle cx="17" cy="28" r="5" {st}/><circle cx="34" cy="19" r="5" {st}/><circle cx="50" cy="13" r="5" {st}/><circle cx="66" cy="19" r="5" {st}/><circle cx="83" cy="28" r="5" {st}/>"#
        ),
        // The king, and any kind a user's variant might add without art of its own.
        _ => format!(
            r#"<rect x="46" y="5" width="8" height="30" fill="{line}"/>
<rect x="37" y="13" width="26" height="8" fill="{line}"/>
<path d="M28,76 C12,54 26,34 50,46 C74,34 88,54 72,76 Z" {st}/>
<rect x="22" y="74" width="56" height="14" rx="3" {st}/>"#
        ),
    };
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\" viewBox=\"0 0 100 100\">\n<title>{} {}</title>\n{body}\n</svg>",
        p.color().name(),
        p.kind().ini_name()
    )
}

/// Text for an SVG text node or attribute value.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters are not allowed in XML 1.0 at all.
            c if (c as u32) < 0x20 && c != '\t' && c != '\n' => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// A generous width estimate, so that captions are never clipped.
fn text_width(s: &str, size: i32) -> i32 {
    (s.chars().count() as i32 * size * 62 + 99) / 100
}

/// The squares the last move is marked on: where the moving piece came from and went
/// to (and a sentry's victim). A drop has no origin, a pass no square.
fn last_move_squares(before: &Position, m: Move) -> Vec<Square> {
    match m.move_type() {
        MoveType::Pass => vec![],
        MoveType::Drop => vec![m.to()],
        MoveType::Castle => {
            // As the move text names it: king and partner in Chess960, else the king's path.
            let (king_to, _) = before.castle_targets(m.from(), m.to());
            if before.variant().castling == Castling::Chess960 {
                vec![m.from(), m.to()]
            } else {
                vec![m.from(), king_to]
            }
        }
        MoveType::SentryCapture => vec![m.from(), m.to(), m.aux()],
        _ => vec![m.from(), m.to()],
    }
}

/// Top-left corner of a square: White at the bottom, as the facings are named.
fn corner(sq: Square, height: u8) -> (i32, i32) {
    (
        LEFT + file_of(sq) as i32 * SQ,
        TOP + (height as i32 - 1 - rank_of(sq) as i32) * SQ,
    )
}

/// The facing arrow of the lancer on `sq`. It is drawn twice, wide in white and then
/// in colour, so that it stands out on the black lancer image and on dark squares.
fn arrow(out: &mut String, sq: Square, height: u8, facing: u8) {
    let (x, y) = corner(sq, height);
    let (df, dr) = DIRS[(facing & 7) as usize];
    let norm = ((df * df + dr * dr) as f64).sqrt();
    let (ux, uy) = (df as f64 / norm, -(dr as f64) / norm);
    let (cx, cy) = (x as f64 + SQ as f64 / 2.0, y as f64 + SQ as f64 / 2.0);
    let tip = 0.47 * SQ as f64;
    let head = 15.0;
    let half = 8.0;
    let (tx, ty) = (cx + ux * tip, cy + uy * tip);
    let (bx, by) = (cx + ux * (tip - head), cy + uy * (tip - head));
    let (px, py) = (-uy, ux);
    let shaft = format!(
        "M{:.1},{:.1} L{:.1},{:.1}",
        cx - ux * 4.0,
        cy - uy * 4.0,
        bx,
        by
    );
    let headpts = format!(
        "{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}",
        tx,
        ty,
        bx + px * half,
        by + py * half,
        bx - px * half,
        by - py * half
    );
    let _ = writeln!(
        out,
        r##"<g class="arrow" data-square="{}" data-facing="{}">
<path d="{shaft}" stroke="#ffffff" stroke-width="8" stroke-linecap="round"/>
<polygon points="{headpts}" fill="#ffffff" stroke="#ffffff" stroke-width="4" stroke-linejoin="round"/>
<path d="{shaft}" stroke="{ARROW}" stroke-width="4" stroke-linecap="round"/>
<polygon points="{headpts}" fill="{ARROW}"/>
</g>"##,
        square_name(sq),
        FACING_NAMES[(facing & 7) as usize]
    );
}

/// A ring round `sq` with a letter badge in its corner, for `class` (`held`, `frozen`).
fn ring(out: &mut String, class: &str, sq: Square, height: u8, colour: &str, letter: char) {
    let (x, y) = corner(sq, height);
    // Dashed for frozen, so that the two marks differ without colour too (print,
    // colour blindness).
    let dashed = class == "frozen";
    let dash = if dashed {
        r#" stroke-dasharray="7 4""#
    } else {
        ""
    };
    let (cx, cy) = (x + SQ / 2, y + SQ / 2);
    let _ = writeln!(
        out,
        r##"<g class="{class}" data-square="{}">
<circle cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="{colour}" stroke-width="4"{dash}/>
<circle cx="{}" cy="{}" r="9" fill="{colour}" stroke="#ffffff" stroke-width="1.5"/>
<text x="{}" y="{}" font-family="{FONT}" font-size="12" font-weight="bold" fill="#ffffff" text-anchor="middle">{letter}</text>
</g>"##,
        square_name(sq),
        SQ / 2 - 3,
        x + SQ - 10,
        y + 10,
        x + SQ - 10,
        y + 14
    );
}

/// A hatched square that is not part of the board.
fn hole(out: &mut String, x: i32, y: i32) {
    let mut d = String::new();
    let step = SQ / 6;
    // Diagonal strokes x + y = t, cut to the square.
    let mut t = step;
    while t < 2 * SQ {
        let (x0, y0) = if t <= SQ { (t, 0) } else { (SQ, t - SQ) };
        let (x1, y1) = if t <= SQ { (0, t) } else { (t - SQ, SQ) };
        let _ = write!(d, "M{},{} L{},{} ", x + x0, y + y0, x + x1, y + y1);
        t += step;
    }
    let _ = writeln!(
        out,
        r#"<g class="hole">
<rect x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{HOLE_FILL}"/>
<path d="{}" stroke="{HOLE_HATCH}" stroke-width="2"/>
</g>"#,
        d.trim_end()
    );
}

/// The SVG picture of `pos`. `last` is the position before the last move and that
/// move, to mark it; `arrows` draws each lancer's facing as an arrow.
pub fn svg(pos: &Position, last: Option<(&Position, Move)>, arrows: bool) -> String {
    let v = pos.variant();
    let board_w = v.width as i32 * SQ;
    let board_h = v.height as i32 * SQ;
    let panel = HandPanel::new(pos);

    let head = caption(pos, last);
    let efen = pos.efen();
    let legend = legend(pos, last, arrows);
    let legend_w: i32 = legend
        .iter()
        .map(|(_, t)| 22 + text_width(t, 12) + 14)
        .sum();

    let coords_h = 22;
    let caption_y = TOP + board_h + coords_h;
    let lines = 2 + i32::from(!legend.is_empty());
    let width = (LEFT + board_w + panel.width + MARGIN)
        .max(MARGIN + text_width(&head, 13) + MARGIN)
        .max(MARGIN + text_width(&efen, 12) + MARGIN)
        .max(MARGIN + legend_w + MARGIN);
    let height = caption_y + lines * LINE + MARGIN;

    let mut out = String::new();
    let _ = writeln!(
        out,
        r##"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="{FONT}">
<title>{}</title>
<desc>{}</desc>
<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>"##,
        esc(&head),
        esc(&efen)
    );
    board_squares(&mut out, pos, last);
    coordinates(&mut out, pos);
    pieces_and_marks(&mut out, pos, arrows);
    if v.drops {
        panel.draw(&mut out, pos);
    }
    let _ = writeln!(
        out,
        r##"<text class="caption" x="{MARGIN}" y="{}" font-size="13" fill="#000000">{}</text>
<text class="efen" x="{MARGIN}" y="{}" font-family="{MONO}" font-size="12" fill="#000000">{}</text>"##,
        caption_y + 14,
        esc(&head),
        caption_y + LINE + 14,
        esc(&efen)
    );
    legend_row(&mut out, &legend, caption_y + 2 * LINE + 4);
    out.push_str("</svg>\n");
    out
}

/// The caption's first line: what, who moves, the last move, the outcome.
fn caption(pos: &Position, last: Option<(&Position, Move)>) -> String {
    let v = pos.variant();
    let mut head = format!("{} · {} to move", v.name, pos.side().name());
    if let Some((before, m)) = last {
        let _ = write!(head, " · last move {}", move_text(before, m));
    }
    if let Some(o) = pos.outcome() {
        let _ = write!(head, " · {} {}", o.score(), o.describe(v));
    }
    head
}

/// The legend's entries (mark, text): only the marks this variant can show, so that
/// a chess diagram stays plain.
fn legend(
    pos: &Position,
    last: Option<(&Position, Move)>,
    arrows: bool,
) -> Vec<(&'static str, &'static str)> {
    let v = pos.variant();
    let mut legend = Vec::new();
    if v.has(Kind::Lancer) && arrows {
        legend.push(("arrow", "lancer facing"));
    }
    if v.has(Kind::Jailer) {
        legend.push(("held", "H held by a jailer"));
    }
    if v.has(Kind::Bearer) {
        legend.push(("frozen", "F frozen standard-bearer"));
    }
    if v.mask != full_mask(v.width, v.height) {
        legend.push(("hole", "no square"));
    }
    if last.is_some_and(|(b, m)| !last_move_squares(b, m).is_empty()) {
        legend.push(("lastmove", "last move"));
    }
    legend
}

/// The squares, the holes, and the last move's squares over them.
fn board_squares(out: &mut String, pos: &Position, last: Option<(&Position, Move)>) {
    let v = pos.variant();
    for r in 0..v.height {
        for f in 0..v.width {
            let sq = square(f, r);
            let (x, y) = corner(sq, v.height);
            if v.on_board(sq) {
                let colour = if (f + r) % 2 == 0 { DARK } else { LIGHT };
                let _ = writeln!(
                    out,
                    r#"<rect class="square" data-square="{}" x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{colour}"/>"#,
                    square_name(sq)
                );
            } else {
                hole(out, x, y);
            }
        }
    }
    if let Some((before, m)) = last {
        for sq in last_move_squares(before, m) {
            if v.on_board(sq) {
                let (x, y) = corner(sq, v.height);
                let _ = writeln!(
                    out,
                    r#"<rect class="lastmove" data-square="{}" x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{LAST_MOVE}" fill-opacity="0.8"/>"#,
                    square_name(sq)
                );
            }
        }
    }
}

/// The file letters below the board and the rank numbers left of it.
fn coordinates(out: &mut String, pos: &Position) {
    let v = pos.variant();
    let (h, board_h) = (v.height as i32, v.height as i32 * SQ);
    for f in 0..v.width {
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}" font-size="14" fill="#444444" text-anchor="middle">{}</text>"##,
            LEFT + f as i32 * SQ + SQ / 2,
            TOP + board_h + 16,
            (b'a' + f) as char
        );
    }
    for r in 0..v.height {
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}" font-size="14" fill="#444444" text-anchor="middle">{}</text>"##,
            LEFT / 2,
            TOP + (h - 1 - r as i32) * SQ + SQ / 2 + 5,
            r + 1
        );
    }
}

/// The pieces, then the marks over them: held, frozen, and the lancers' arrows.
fn pieces_and_marks(out: &mut String, pos: &Position, arrows: bool) {
    let v = pos.variant();
    for sq in squares(pos.occupied() & v.mask) {
        let p = pos.piece_at(sq);
        if p.is_none() {
            continue;
        }
        let (x, y) = corner(sq, v.height);
        let _ = writeln!(
            out,
            r#"<g class="piece" data-square="{}" data-piece="{}" transform="translate({x} {y}) scale({})">
{}
</g>"#,
            square_name(sq),
            esc(&v.piece_char(p).to_string()),
            SQ as f64 / 100.0,
            piece_image(p, pos.facing_at(sq))
        );
    }
    let held = pos.held(Color::White) | pos.held(Color::Black);
    for sq in squares(held & v.mask) {
        ring(out, "held", sq, v.height, HELD, 'H');
    }
    for sq in squares(pos.frozen() & v.mask) {
        ring(out, "frozen", sq, v.height, FROZEN, 'F');
    }
    if arrows {
        for sq in squares(pos.kind_bb(Kind::Lancer) & v.mask) {
            arrow(out, sq, v.height, pos.facing_at(sq));
        }
    }
}

/// The kinds a side holds in hand, with their counts.
fn hand_kinds(pos: &Position, c: Color) -> Vec<(Kind, u8)> {
    ALL_KINDS
        .iter()
        .map(|&k| (k, pos.hand(c, k)))
        .filter(|&(_, n)| n > 0)
        .collect()
}

/// Where the hands go, beside the board: Black's at the top (Black's side), White's
/// below. A variant without drops has none (width 0).
struct HandPanel {
    /// Left edge of the panel.
    x: i32,
    /// Width of the panel, margin included.
    width: i32,
    rows_per_col: i32,
}

impl HandPanel {
    const ROW: i32 = HAND_SQ + 6;
    const COL: i32 = HAND_SQ + 44;
    const HEADER: i32 = 24;

    fn new(pos: &Position) -> HandPanel {
        let v = pos.variant();
        let board_h = v.height as i32 * SQ;
        let rows_per_col = ((board_h / 2 - Self::HEADER) / Self::ROW).max(1);
        let width = if v.drops {
            let cols = [Color::White, Color::Black]
                .iter()
                .map(|&c| (hand_kinds(pos, c).len() as i32 + rows_per_col - 1) / rows_per_col)
                .max()
                .unwrap_or(0)
                .max(1);
            (cols * Self::COL).max(text_width("Black's hand: empty", 13)) + 18
        } else {
            0
        };
        HandPanel {
            x: LEFT + v.width as i32 * SQ + 18,
            width,
            rows_per_col,
        }
    }

    /// Each side's heading and the pieces it holds, with their counts.
    fn draw(&self, out: &mut String, pos: &Position) {
        let board_h = pos.variant().height as i32 * SQ;
        let hand_x = self.x;
        for (c, top) in [(Color::Black, TOP), (Color::White, TOP + board_h / 2)] {
            let kinds = hand_kinds(pos, c);
            let _ = writeln!(
                out,
                r##"<text x="{hand_x}" y="{}" font-size="13" fill="#222222">{}'s hand{}</text>"##,
                top + 15,
                c.name(),
                if kinds.is_empty() { ": empty" } else { "" }
            );
            for (i, (k, n)) in kinds.into_iter().enumerate() {
                let i = i as i32;
                let x = hand_x + (i / self.rows_per_col) * Self::COL;
                let y = top + Self::HEADER + (i % self.rows_per_col) * Self::ROW;
                let p = Piece::new(k, c);
                let _ = writeln!(
                    out,
                    r##"<g class="hand-piece" data-side="{}" data-kind="{}" data-count="{n}">
<rect x="{x}" y="{y}" width="{HAND_SQ}" height="{HAND_SQ}" rx="4" fill="{LIGHT}"/>
<g transform="translate({x} {y}) scale({})">
{}
</g>
<text x="{}" y="{}" font-size="16" fill="#222222">×{n}</text>
</g>"##,
                    c.name().to_ascii_lowercase(),
                    k.ini_name(),
                    HAND_SQ as f64 / 100.0,
                    piece_image(p, 0),
                    x + HAND_SQ + 4,
                    y + HAND_SQ / 2 + 6
                );
            }
        }
    }
}

/// The legend's row at height `y`: each mark drawn small, then its text.
fn legend_row(out: &mut String, legend: &[(&str, &str)], y: i32) {
    let mut x = MARGIN;
    for (what, text) in legend {
        let _ = write!(out, r#"<g class="legend">"#);
        let (sx, sy) = (x + 8, y + 7);
        let _ = match *what {
            "arrow" => write!(
                out,
                r#"<path d="M{},{sy} L{},{sy}" stroke="{ARROW}" stroke-width="3"/><polygon points="{},{sy} {},{} {},{}" fill="{ARROW}"/>"#,
                sx - 8,
                sx + 2,
                sx + 9,
                sx + 1,
                sy - 5,
                sx + 1,
                sy + 5
            ),
            "held" => write!(
                out,
                r#"<circle cx="{sx}" cy="{sy}" r="7" fill="none" stroke="{HELD}" stroke-width="3"/>"#
            ),
            "frozen" => write!(
                out,
                r#"<circle cx="{sx}" cy="{sy}" r="7" fill="none" stroke="{FROZEN}" stroke-width="3" stroke-dasharray="4 2"/>"#
            ),
            "hole" => write!(
                out,
                r#"<rect x="{}" y="{}" width="14" height="14" fill="{HOLE_FILL}" stroke="{HOLE_HATCH}" stroke-width="2"/>"#,
                sx - 7,
                sy - 7
            ),
            _ => write!(
                out,
                r#"<rect x="{}" y="{}" width="14" height="14" fill="{LAST_MOVE}"/>"#,
                sx - 7,
                sy - 7
            ),
        };
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}" font-size="12" fill="#222222">{}</text></g>"##,
            x + 22,
            y + 11,
            esc(text)
        );
        x += 22 + text_width(text, 12) + 14;
    }
}

/// Every square of a `width` x `height` board, holes or not.
fn full_mask(width: u8, height: u8) -> Bitboard {
    let mut b = 0;
    for r in 0..height {
        for f in 0..width {
            b |= bb(square(f, r));
        }
    }
    b
}
