//! XBoard move text (CECP v2), both ways. It differs from move text (docs/notation.md): lancer facings
//! are suffix letters `C D E F G H M O` (N NE E SE S SW W NW, absolute), a sentry
//! capture is the two legs `c1f4,f4g5`, a sentry edge capture `g5h6z`, the pass
//! `@@@@`. XBoard 4.9.1 cannot show a Royal Standard displacement, nor a fullcavalry
//! castling that turns the lancer; such moves are written in move text by
//! [`xboard_move_full`] for peers that set [`FULL_TEXT_OPTION`].

use super::text::{move_text, parse_move};
use crate::rules::bitboard::{file_of, square_name};
use crate::rules::moves::{Move, MoveList, MoveType};
use crate::rules::piece::Kind;
use crate::rules::position::Position;
use crate::rules::variant::Castling;

/// XBoard piece letters of the eight lancer facings (N NE E SE S SW W NW).
pub const FACING_LETTERS: [char; 8] = ['c', 'd', 'e', 'f', 'g', 'h', 'm', 'o'];

/// The suffix that makes XBoard empty the destination (sentry edge capture).
pub const VANISH: char = 'z';

/// XBoard text of a legal move `m` in `pos`.
pub fn xboard_move(pos: &Position, m: Move) -> String {
    let v = pos.variant();
    let from = m.from();
    let to = m.to();
    let facing_letter = |f: u8| FACING_LETTERS[f as usize & 7];
    match m.move_type() {
        MoveType::Pass => "@@@@".into(),
        MoveType::Drop => {
            let k = m.kind().unwrap_or(Kind::Pawn);
            let mut s = format!("{}@{}", v.letters[k.idx()], square_name(to));
            if let Some(f) = m.facing() {
                s.push(facing_letter(f));
            }
            s
        }
        MoveType::Castle => {
            let (kto, pto) = pos.castle_targets(from, to);
            if v.castling == Castling::Chess960 {
                if v.has(Kind::Lancer) || v.has(Kind::Jailer) {
                    // The two-leg king move; XBoard puts the partner beside the king.
                    format!(
                        "{}{},{}{}",
                        square_name(from),
                        square_name(kto),
                        square_name(to),
                        square_name(pto)
                    )
                } else if file_of(to) > file_of(from) {
                    "O-O".into()
                } else {
                    "O-O-O".into()
                }
            } else {
                format!("{}{}", square_name(from), square_name(kto))
            }
        }
        MoveType::SentryCapture => format!(
            "{}{},{}{}",
            square_name(from),
            square_name(to),
            square_name(to),
            square_name(m.aux())
        ),
        MoveType::SentryEdge => format!("{}{}{VANISH}", square_name(from), square_name(to)),
        MoveType::EnPassant => format!("{}{}", square_name(from), square_name(to)),
        MoveType::Promotion => {
            let mut s = format!("{}{}", square_name(from), square_name(to));
            match (m.kind(), m.facing()) {
                (_, Some(f)) => s.push(facing_letter(f)),
                (Some(k), None) => s.push(v.letters[k.idx()].to_ascii_lowercase()),
                (None, None) => s.push('q'),
            }
            s
        }
        MoveType::Normal => {
            // A Royal Standard displacement is sent as the plain capture (XBoard limit).
            let mut s = format!("{}{}", square_name(from), square_name(to));
            if let Some(f) = m.facing() {
                if f != pos.facing_at(from) {
                    s.push(facing_letter(f));
                }
            }
            s
        }
    }
}

/// The CECP option (a check box, off by default) under which the moves XBoard's
/// forms cannot carry are written in move text (docs/notation.md); `lancer match` sets it.
pub const FULL_TEXT_OPTION: &str = "Full move text";

/// Whether XBoard's form of `m` loses information: a Royal Standard displacement
/// (where the bearer goes) or a fullcavalry castling that turns the lancer.
pub fn lossy_for_xboard(pos: &Position, m: Move) -> bool {
    m.is_displacement()
        || (m.move_type() == MoveType::Castle
            && m.facing().is_some_and(|f| f != pos.facing_at(m.to())))
}

/// `xboard_move`, except that a move XBoard cannot express is written in move text
/// (`c3d4,d4e5`, a castling with its facing): for peers that know move text (docs/notation.md).
pub fn xboard_move_full(pos: &Position, m: Move) -> String {
    if lossy_for_xboard(pos, m) {
        move_text(pos, m)
    } else {
        xboard_move(pos, m)
    }
}

/// The legal moves of `pos` whose XBoard text (`xboard_move`) parses back as the
/// same move: the ones the engine may play over CECP without the two sides of the
/// protocol parting.
pub fn xboard_writable(pos: &Position) -> Vec<Move> {
    // One table of every move's forms serves all the read-backs: parsing each text
    // on its own generated the moves and their forms again per move.
    let table = forms_table(pos);
    table
        .iter()
        .map(|&(m, _)| m)
        .filter(|&m| read_back(pos, &table, &xboard_move(pos, m)) == Some(m))
        .filter(|&m| !castling_xboard_misreads(pos, m))
        .collect()
}

/// A castling whose two-leg form XBoard 4.9.1 misreads, so it cannot be sent:
/// - legs that chain (`d1g1,g1f1`: the king lands on its partner's square): XBoard
///   reads one move through a kill square and makes it king f1, partner e1;
/// - a king that stays (`c1c1,a1d1`): XBoard moves the king onto its own square,
///   empties that square, and the king vanishes from its board.
fn castling_xboard_misreads(pos: &Position, m: Move) -> bool {
    if m.move_type() != MoveType::Castle {
        return false;
    }
    let text = xboard_move(pos, m);
    match text.split_once(',') {
        Some((a, b)) => a.len() >= 4 && b.len() >= 2 && (a[2..4] == b[..2] || a[..2] == a[2..4]),
        None => false,
    }
}

/// The squares of the standard-bearers XBoard has lost: XBoard 4.9.1 shows a
/// displacement as the plain capture, so the bearer vanishes from its board while
/// it stands on its displacement square after `moves` (a game's moves from its start).
pub fn hidden_bearers(moves: &[Move]) -> Vec<u8> {
    let mut ghosts: Vec<u8> = Vec::new();
    for &m in moves {
        if m.is_displacement() {
            ghosts.retain(|&s| s != m.to());
            ghosts.push(m.aux());
        } else if !m.is_pass() {
            // (A hidden bearer never moves over CECP, but stay exact if it does.)
            ghosts.retain(|&s| s != m.from() && s != m.to());
        }
    }
    ghosts
}

/// Every XBoard-side spelling accepted for `m` (the first is what we print).
fn accepted_forms(pos: &Position, m: Move) -> Vec<String> {
    let mut v = vec![xboard_move(pos, m)];
    let from = m.from();
    let to = m.to();
    match m.move_type() {
        MoveType::Castle => {
            let (kto, pto) = pos.castle_targets(from, to);
            let kside = file_of(to) > file_of(from);
            v.push(if kside { "o-o" } else { "o-o-o" }.into());
            v.push(format!("{}{}", square_name(from), square_name(kto)));
            v.push(format!("{}{}", square_name(from), square_name(to)));
            v.push(format!(
                "{}{},{}{}",
                square_name(from),
                square_name(kto),
                square_name(to),
                square_name(pto)
            ));
        }
        MoveType::Normal => {
            if let Some(f) = m.facing() {
                if f == pos.facing_at(from) {
                    v.push(format!(
                        "{}{}{}",
                        square_name(from),
                        square_name(to),
                        FACING_LETTERS[f as usize]
                    ));
                }
            }
        }
        MoveType::SentryEdge => {
            v.push(format!("{}{}", square_name(from), square_name(to)));
        }
        _ => {}
    }
    v
}

/// Each legal move of `pos` with the texts (lower case) it is accepted as.
fn forms_table(pos: &Position) -> Vec<(Move, Vec<String>)> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.iter()
        .map(|&m| {
            let forms = accepted_forms(pos, m)
                .into_iter()
                .map(|f| f.to_ascii_lowercase())
                .collect();
            (m, forms)
        })
        .collect()
}

/// The move of `table` that `token` names as XBoard writes it, else as move text.
fn read_back(pos: &Position, table: &[(Move, Vec<String>)], token: &str) -> Option<Move> {
    let want = token.trim().replace('=', "").to_ascii_lowercase();
    // Prefer the move that keeps a lancer's facing (a user's castling = keep).
    let keeps = |m: Move| match (m.move_type(), m.facing()) {
        (MoveType::Castle, Some(f)) => f == pos.facing_at(m.to()),
        _ => true,
    };
    let mut found: Option<Move> = None;
    for (m, forms) in table {
        if forms.contains(&want) {
            match found {
                None => found = Some(*m),
                Some(old) if !keeps(old) && keeps(*m) => found = Some(*m),
                _ => {}
            }
        }
    }
    found.or_else(|| parse_move(pos, token).ok())
}

/// Parses a move sent by XBoard (or in move text, docs/notation.md).
pub fn parse_xboard_move(pos: &Position, token: &str) -> Result<Move, String> {
    if token.trim().replace('=', "").is_empty() {
        return Err("empty move".into());
    }
    let table = forms_table(pos);
    match read_back(pos, &table, token) {
        Some(m) => Ok(m),
        None if table.is_empty() => Err("no legal moves".into()),
        None => Err("not a legal move".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::xboard_fen::{efen_from_xboard, xboard_fen};
    use crate::rules::Variants;

    #[test]
    fn fen_round_trip() {
        let vs = Variants::builtin();
        for name in ["fullcavalry", "eightpiece", "royalstandard", "lighthouse"] {
            let v = vs.get(name).unwrap();
            let p = Position::from_efen(v, &v.default_start_fen()).unwrap();
            let x = xboard_fen(&p);
            let back = Position::from_efen(v, &efen_from_xboard(v, &x)).unwrap();
            assert_eq!(back.efen(), p.efen(), "{name}: {x}");
        }
        let v = vs.get("fullcavalry").unwrap();
        let p = Position::from_efen(v, &v.default_start_fen()).unwrap();
        assert!(xboard_fen(&p).starts_with("enbqkbnm/pppppppp/8/8/8/8/PPPPPPPP/ENBQKBNM w KQkq"));
    }

    #[test]
    fn castlings_xboard_misreads_are_not_sent() {
        let vs = Variants::builtin();
        let v = vs.get("eightpiecerandom").unwrap();
        // King d1, rook g1 (as in QNJKSCRB after the f1 lancer and e1 sentry left).
        let pos = Position::from_efen(v, "4k3/8/8/8/8/8/8/3K2R1 w G - 0 1").unwrap();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let castle = list
            .iter()
            .copied()
            .find(|m| m.move_type() == MoveType::Castle)
            .expect("castling is legal");
        assert_eq!(xboard_move(&pos, castle), "d1g1,g1f1");
        assert!(!xboard_writable(&pos).contains(&castle));
        // A castling whose legs do not chain is sent as usual.
        let pos = Position::from_efen(v, "4k3/8/8/8/8/8/8/4K2R w H - 0 1").unwrap();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let castle = list
            .iter()
            .copied()
            .find(|m| m.move_type() == MoveType::Castle)
            .expect("castling is legal");
        assert_eq!(xboard_move(&pos, castle), "e1g1,h1f1");
        assert!(xboard_writable(&pos).contains(&castle));
        // Found in an XBoard match: the king on c1 castles with the a1 jailer
        // (`c1c1,a1d1`) and vanished from XBoard's board; such a castling is not sent.
        let pos = Position::from_efen(v, "4k3/8/8/8/8/8/8/J1K5 w A - 0 1").unwrap();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let castle = list
            .iter()
            .copied()
            .find(|m| m.move_type() == MoveType::Castle)
            .expect("castling is legal");
        assert_eq!(xboard_move(&pos, castle), "c1c1,a1d1");
        assert!(!xboard_writable(&pos).contains(&castle));
        assert_eq!(parse_xboard_move(&pos, "c1c1,a1d1"), Ok(castle));
    }

    #[test]
    fn every_legal_move_round_trips() {
        let vs = Variants::builtin();
        let cases: &[(&str, &str)] = &[
            ("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
            ("chess", "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1"),
            (
                "fischerandom",
                "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1",
            ),
            (
                "fullcavalry",
                "l(e)3k2l(w)/8/8/8/8/8/8/L(e)3K2L(w) w KQkq - 0 1",
            ),
            ("fullcavalry", "4k3/1P6/8/8/8/8/8/L(ne)3K3 w - - 0 1"),
            (
                "eightpiece",
                "j3k2r/pppppppp/8/8/8/8/PPPPPPPP/J3K2R w KQkq - 0 1",
            ),
            ("eightpiece", "4k3/1P6/7p/6S1/5p2/8/8/2S1K3 w - - 0 1"),
            ("eightpiece", "4k3/8/8/8/8/8/8/3jK3 w - - 0 1"),
            (
                "eightpiecerandom",
                "jl(se)s1k2r/pppppppp/8/8/8/8/PPPPPPPP/JL(ne)S1K2R w HAha - 0 1",
            ),
            ("royalstandard", "*k4*/7/7/2s4/1SR4/*K4* w - - 0 1"),
            ("lighthouse", "bnkr/pppp/4/4/4/4/PPPP/BNKR[PNn] w - - 0 1"),
        ];
        let mut checked = 0;
        for (name, fen) in cases {
            let v = vs.get(name).unwrap();
            let Ok(pos) = Position::from_efen(v, fen) else {
                eprintln!("skipped {name} {fen}");
                continue;
            };
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            for &m in list.iter() {
                if lossy_for_xboard(&pos, m) {
                    assert_eq!(
                        parse_xboard_move(&pos, &xboard_move_full(&pos, m)),
                        Ok(m),
                        "{name} {fen}: full text"
                    );
                    continue;
                }
                let t = xboard_move(&pos, m);
                assert_eq!(parse_xboard_move(&pos, &t), Ok(m), "{name} {fen}: {t}");
                checked += 1;
            }
            // The XBoard FEN reads back to the same position.
            let back = Position::from_efen(v, &efen_from_xboard(v, &xboard_fen(&pos))).unwrap();
            assert_eq!(back.efen(), pos.efen());
        }
        assert!(checked > 200, "{checked}");
    }
}
