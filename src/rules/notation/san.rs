//! SAN with the variant forms of docs/notation.md, "SAN". Parsing matches a token against the
//! SAN of every legal move, so the two cannot disagree.

use super::text::{move_text, MoveError};
use crate::rules::bitboard::*;
use crate::rules::moves::*;
use crate::rules::piece::*;
use crate::rules::position::*;
use crate::rules::variant::*;

/// SAN of a legal move `m` in `pos`, with the variant forms of docs/notation.md.
pub fn san(pos: &Position, m: Move) -> String {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut s = san_core(pos, m, &list);
    let after = pos.after(m);
    let v = pos.variant();
    if v.goal == Goal::KingCapture {
        if after.king_sq(after.side()).is_none() {
            s.push('#');
        } else if after.king_attacked(after.side()) {
            s.push('+');
        }
    } else if after.in_check() {
        s.push(if after.legal_move_count() == 0 {
            '#'
        } else {
            '+'
        });
    }
    s
}

/// SAN of `m` without the check mark; `legal` is the legal moves of `pos` (given, so
/// that parsing, which prints every legal move, generates them once).
fn san_core(pos: &Position, m: Move, legal: &MoveList) -> String {
    let v = pos.variant();
    let from = m.from();
    let to = m.to();
    match m.move_type() {
        MoveType::Pass => return "--".into(),
        MoveType::Drop => return move_text(pos, m),
        MoveType::Castle => {
            let mut s = if to > from { "O-O" } else { "O-O-O" }.to_string();
            if let Some(f) = m.facing() {
                if f != pos.facing_at(to) {
                    s.push_str(FACING_NAMES[f as usize]);
                }
            }
            return s;
        }
        _ => {}
    }
    let piece = pos.piece_at(from);
    let kind = piece.kind();
    let capture = matches!(
        m.move_type(),
        MoveType::EnPassant | MoveType::SentryCapture | MoveType::SentryEdge
    ) || !pos.piece_at(to).is_none();
    let mut s = String::new();
    let suffix = |s: &mut String| {
        if let Some(k) = m.kind() {
            s.push('=');
            s.push(v.letters[k.idx()]);
        }
        if let Some(f) = m.facing() {
            if m.kind().is_some() || f != pos.facing_at(from) {
                s.push_str(FACING_NAMES[f as usize]);
            }
        }
        if m.is_displacement() {
            s.push('/');
            s.push_str(&square_name(m.aux()));
        }
    };
    if kind == Kind::Pawn {
        if capture {
            s.push((b'a' + file_of(from)) as char);
            s.push('x');
        }
        s.push_str(&square_name(to));
        suffix(&mut s);
        return s;
    }
    s.push(v.letters[kind.idx()]);
    // Disambiguate among other pieces of the same kind whose move prints the same.
    // A sentry capture names only the victim (its landing square, `aux`, is not
    // written, and an edge capture looks like any other).
    let sentry = |t: MoveType| matches!(t, MoveType::SentryCapture | MoveType::SentryEdge);
    let rivals: Vec<Square> = legal
        .iter()
        .filter(|&&o| {
            o.from() != from
                && (o.move_type() == m.move_type()
                    || (sentry(o.move_type()) && sentry(m.move_type())))
                && o.to() == to
                && o.is_displacement() == m.is_displacement()
                && (!m.is_displacement() || o.aux() == m.aux())
                && pos.piece_at(o.from()) == piece
                && o.kind() == m.kind()
                && (o.facing() == m.facing()
                    || (o.facing().map(|f| f == pos.facing_at(o.from())) == Some(true)
                        && m.facing().map(|f| f == pos.facing_at(from)) == Some(true)))
        })
        .map(|o| o.from())
        .collect();
    if !rivals.is_empty() {
        let same_file = rivals.iter().any(|&r| file_of(r) == file_of(from));
        let same_rank = rivals.iter().any(|&r| rank_of(r) == rank_of(from));
        if !same_file {
            s.push((b'a' + file_of(from)) as char);
        } else if !same_rank {
            s.push((b'1' + rank_of(from)) as char);
        } else {
            s.push_str(&square_name(from));
        }
    }
    if capture {
        s.push('x');
    }
    s.push_str(&square_name(to));
    suffix(&mut s);
    s
}

/// Whether `text` contains the name of `sq` (no allocation: parsing runs this for every
/// legal move).
fn names(text: &[u8], sq: Square) -> bool {
    let name = square_chars(sq);
    text.windows(2).any(|w| w == name)
}

/// Parses SAN (check marks, `x` and `=` optional) by matching the legal moves' SAN.
pub fn parse_san(pos: &Position, token: &str) -> Result<Move, MoveError> {
    let clean = |t: &str| -> String {
        t.trim()
            .trim_end_matches(['+', '#', '!', '?'])
            .replace(['x', '='], "")
            .replace('0', "O")
    };
    let want = clean(token);
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut found = None;
    for &m in list.iter() {
        // A move whose SAN names its destination cannot match a token without it;
        // skipping those spares printing (and disambiguating) most of the moves.
        let names_square = !matches!(
            m.move_type(),
            MoveType::Pass | MoveType::Drop | MoveType::Castle
        );
        if names_square && !names(want.as_bytes(), m.to()) {
            continue;
        }
        if clean(&san_core(pos, m, &list)) == want {
            if found.is_some() {
                return Err(MoveError(format!("ambiguous move '{}'", token.trim())));
            }
            found = Some(m);
        }
    }
    found.ok_or_else(|| MoveError(format!("illegal or unknown move '{}'", token.trim())))
}
