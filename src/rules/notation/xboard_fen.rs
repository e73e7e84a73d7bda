//! XBoard FEN, both ways: EFEN with lancers as facing letters and piece states dropped.

use super::xboard::FACING_LETTERS;
use crate::rules::bitboard::file_of;
use crate::rules::piece::FACING_NAMES;
use crate::rules::piece::{Color, Kind};
use crate::rules::position::Position;
use crate::rules::variant::Variant;

/// EFEN → XBoard FEN: lancers as facing letters, piece states dropped, `KQkq`
/// castling letters when they mean the same.
pub fn xboard_fen(pos: &Position) -> String {
    let v = pos.variant();
    let efen = pos.efen();
    let mut parts = efen.split(' ');
    let board = parts.next().unwrap_or("");
    let rest: Vec<&str> = parts.collect();
    let lancer = v.letters[Kind::Lancer.idx()];
    let mut b = String::new();
    let mut chars = board.chars().peekable();
    while let Some(c) = chars.next() {
        if chars.peek() == Some(&'(') {
            chars.next();
            let mut state = String::new();
            for d in chars.by_ref() {
                if d == ')' {
                    break;
                }
                state.push(d);
            }
            if lancer != '\0' && c.to_ascii_uppercase() == lancer {
                let f = FACING_NAMES.iter().position(|&n| n == state).unwrap_or(0);
                let l = FACING_LETTERS[f];
                b.push(if c.is_ascii_uppercase() {
                    l.to_ascii_uppercase()
                } else {
                    l
                });
            } else {
                b.push(c);
            }
        } else {
            b.push(c);
        }
    }
    let mut fields: Vec<String> = rest.iter().map(|s| s.to_string()).collect();
    // Prefer standard castling letters when they parse back to the same rights.
    if let Some(c) = fields.get(1).cloned().filter(|_| rest.len() >= 3) {
        if c != "-" && c.chars().any(|ch| !"KQkq".contains(ch)) {
            let mut kq = String::new();
            let k = pos.king_sq(Color::White);
            let kb = pos.king_sq(Color::Black);
            for ch in c.chars() {
                let (king, up) = if ch.is_ascii_uppercase() {
                    (k, true)
                } else {
                    (kb, false)
                };
                let file = ch.to_ascii_lowercase() as u8 - b'a';
                let side = match king {
                    Some(ks) if file > file_of(ks) => 'k',
                    _ => 'q',
                };
                kq.push(if up { side.to_ascii_uppercase() } else { side });
            }
            let cand = format!("{board} {} {kq} {}", rest[0], rest[2..].join(" "));
            if let Ok(p) = Position::from_efen(v, &cand) {
                let a: Vec<_> = p.castling_rights().collect();
                let b2: Vec<_> = pos.castling_rights().collect();
                if a == b2 {
                    fields[1] = kq;
                }
            }
        }
    }
    if fields.is_empty() {
        b
    } else {
        format!("{b} {}", fields.join(" "))
    }
}

/// XBoard FEN → EFEN (lancer letters to `L(facing)`, `[-]` to `[]`).
pub fn efen_from_xboard(v: &Variant, fen: &str) -> String {
    let fen = fen.trim();
    let (board, rest) = fen.split_once(' ').unwrap_or((fen, ""));
    let lancer = v.letters[Kind::Lancer.idx()];
    let mut b = String::new();
    for c in board.chars() {
        let lc = c.to_ascii_lowercase();
        match FACING_LETTERS.iter().position(|&l| l == lc) {
            Some(f) if lancer != '\0' && v.piece_from_char(c).is_none() => {
                b.push(if c.is_ascii_uppercase() {
                    lancer
                } else {
                    lancer.to_ascii_lowercase()
                });
                b.push('(');
                b.push_str(FACING_NAMES[f]);
                b.push(')');
            }
            _ => b.push(c),
        }
    }
    let b = b.replace("[-]", "[]");
    if rest.is_empty() {
        b
    } else {
        format!("{b} {rest}")
    }
}
