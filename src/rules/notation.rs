//! Move text (UCI, CLI, tests) and SAN, as NOTATION.md defines them. Parsing matches a
//! token against the printed form of every legal move, so the two cannot disagree.

use super::bitboard::*;
use super::moves::*;
use super::piece::*;
use super::position::*;
use super::variant::*;

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

/// Parses move text (NOTATION.md, `=` before a suffix allowed, any letter case) by matching
/// it against the legal moves of `pos`.
pub fn parse_move(pos: &Position, token: &str) -> Result<Move, MoveError> {
    let want = normalize(token);
    if want.is_empty() {
        return Err(MoveError("empty move".into()));
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    for &m in list.iter() {
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

/// SAN of a legal move `m` in `pos`, with the variant forms of NOTATION.md.
pub fn san(pos: &Position, m: Move) -> String {
    let mut s = san_core(pos, m);
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

fn san_core(pos: &Position, m: Move) -> String {
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
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let rivals: Vec<Square> = list
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
        if clean(&san_core(pos, m)) == want {
            if found.is_some() {
                return Err(MoveError(format!("ambiguous move '{}'", token.trim())));
            }
            found = Some(m);
        }
    }
    found.ok_or_else(|| MoveError(format!("illegal or unknown move '{}'", token.trim())))
}

/// Parses move text, falling back to SAN.
pub fn parse_any(pos: &Position, token: &str) -> Result<Move, MoveError> {
    parse_move(pos, token).or_else(|e| parse_san(pos, token).map_err(|_| e))
}
