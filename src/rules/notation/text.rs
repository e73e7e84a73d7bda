//! Move text (UCI, CLI, tests), as docs/notation.md ("Move text") defines it. Parsing matches a token
//! against the printed form of every legal move, so the two cannot disagree.

use crate::rules::bitboard::*;
use crate::rules::moves::*;
use crate::rules::piece::*;
use crate::rules::position::*;
use crate::rules::variant::*;

/// Move text of a legal move `m` in `pos` (e.g. `e2e4`, `b1h7nw`, `P@c3`, `b2b5,b5c6`).
pub fn move_text(pos: &Position, m: Move) -> String {
    let v = pos.variant();
    let from = m.from();
    let to = m.to();
    match m.move_type() {
        MoveType::Pass => "0000".into(),
        MoveType::Drop => {
            let k = m.kind().unwrap_or(Kind::Pawn);
            let mut s = format!("{}@{}", v.letters[k.idx()], square_name(to));
            if let Some(f) = m.facing() {
                s.push_str(FACING_NAMES[f as usize]);
            }
            s
        }
        MoveType::Castle => {
            let (kto, _) = pos.castle_targets(from, to);
            let mut s = square_name(from);
            s.push_str(&square_name(if v.castling == Castling::Chess960 {
                to
            } else {
                kto
            }));
            if let Some(f) = m.facing() {
                if f != pos.facing_at(to) {
                    s.push_str(FACING_NAMES[f as usize]);
                }
            }
            s
        }
        MoveType::SentryCapture | MoveType::SentryEdge | MoveType::EnPassant => {
            format!("{}{}", square_name(from), square_name(to))
        }
        MoveType::Promotion => {
            let k = m.kind().unwrap_or(Kind::Queen);
            let mut s = format!(
                "{}{}{}",
                square_name(from),
                square_name(to),
                v.letters[k.idx()].to_ascii_lowercase()
            );
            if let Some(f) = m.facing() {
                s.push_str(FACING_NAMES[f as usize]);
            }
            displacement_suffix(&mut s, m);
            s
        }
        MoveType::Normal => {
            let mut s = format!("{}{}", square_name(from), square_name(to));
            if let Some(f) = m.facing() {
                if f != pos.facing_at(from) {
                    s.push_str(FACING_NAMES[f as usize]);
                }
            }
            displacement_suffix(&mut s, m);
            s
        }
    }
}

fn displacement_suffix(s: &mut String, m: Move) {
    if m.is_displacement() {
        s.push(',');
        s.push_str(&square_name(m.to()));
        s.push_str(&square_name(m.aux()));
    }
}

/// Why a move token was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError(pub String);

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MoveError {}

fn normalize(tok: &str) -> String {
    tok.trim().replace('=', "").to_ascii_lowercase()
}

/// Whether lower-case `want` can be `m`'s text: every text but a drop's and a pass's
/// begins with the from square, so most moves are ruled out without printing them.
fn may_be_text_of(want: &[u8], m: Move) -> bool {
    match m.move_type() {
        MoveType::Pass | MoveType::Drop => true,
        _ => want.starts_with(&square_chars(m.from())),
    }
}

/// Parses move text (docs/notation.md, `=` before a suffix allowed, any letter case) by matching
/// it against the legal moves of `pos`.
pub fn parse_move(pos: &Position, token: &str) -> Result<Move, MoveError> {
    let want = normalize(token);
    if want.is_empty() {
        return Err(MoveError("empty move".into()));
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    for &m in list.iter() {
        if !may_be_text_of(want.as_bytes(), m) {
            continue;
        }
        let text = move_text(pos, m);
        if text.to_ascii_lowercase() == want {
            return Ok(m);
        }
        // The facing a lancer keeps may also be written out.
        if let (MoveType::Normal, Some(f)) = (m.move_type(), m.facing()) {
            if f == pos.facing_at(m.from())
                && !m.is_displacement()
                && format!("{text}{}", FACING_NAMES[f as usize]) == want
            {
                return Ok(m);
            }
        }
    }
    Err(MoveError(format!(
        "illegal or unknown move '{}'",
        token.trim()
    )))
}
