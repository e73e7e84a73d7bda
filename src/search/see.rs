//! Static exchange evaluation: what a move wins or loses on its square once both
//! sides have made every capture there that pays, least valuable piece first.
//!
//! The swap loop works from attack sets alone, so it is exact only where the piece that
//! lands on a square is the one that stands there next. The variants break that in a
//! few places, and there SEE plays the exchange out with real moves instead:
//! - a sentry captures by jumping and lands beyond its victim (or leaves the board);
//! - a jailer that moves or is captured changes which units are held, and a held unit
//!   attacks nothing;
//! - capturing a standard-bearer displaces it instead of removing it;
//! - a pawn that captures onto its last rank promotes (and in Lighthouse may not, while
//!   its side has a queen);
//! - en passant and promotions.
//!
//! Lancer rays (which pass friendly pieces), the mobility rule, windmills, held units
//! that never change, drops and king capture are all read from `attackers_to`, which
//! knows them. A king may take part only where the other side has no attacker left,
//! in every variant: in check variants the capture would be illegal, in king-capture
//! variants it would lose the game.

use crate::rules::bitboard::*;
use crate::rules::moves::*;
use crate::rules::piece::*;
use crate::rules::variant::Goal;
use crate::rules::Position;

/// The exchange value of a piece, in centipawns. Standard-bearers are never removed,
/// so they are worth nothing to capture; a king ends the game where it can be taken.
#[inline(always)]
pub fn value(k: Kind) -> i32 {
    match k {
        Kind::Pawn => 100,
        Kind::Knight => 320,
        Kind::Bishop | Kind::ForwardBishop => 330,
        Kind::Rook => 500,
        Kind::Queen => 950,
        Kind::King => 20_000,
        Kind::Lancer => 460,
        Kind::Jailer => 370,
        Kind::Sentry => 240,
        Kind::Bearer => 0,
        Kind::Windmill => 270,
    }
}

/// How deep the played-out exchange goes before it settles for the least valuable
/// capturer instead of trying each.
const FULL_WIDTH_DEPTH: u32 = 4;
/// Deepest played-out exchange.
const MAX_DEPTH: u32 = 16;
/// Capacity of the list of captures on one square.
const SHORT: usize = 64;

/// Whether the static exchange of `m` in `pos` is at least `threshold`.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    match m.move_type() {
        MoveType::Castle | MoveType::Pass => return threshold <= 0,
        MoveType::Normal | MoveType::Drop if !needs_play(pos, m) => {}
        _ => return played(pos, m) >= threshold,
    }
    let to = m.to();
    let us = pos.side();
    let (mover, from_bb) = if m.move_type() == MoveType::Drop {
        (m.kind().unwrap_or(Kind::Pawn), 0)
    } else {
        (pos.piece_at(m.from()).kind(), bb(m.from()))
    };
    let victim = pos.piece_at(to);
    let mut swap = if victim.is_none() {
        0
    } else {
        value(victim.kind())
    } - threshold;
    if swap < 0 {
        return false;
    }
    swap = value(mover) - swap;
    if swap <= 0 {
        return true;
    }
    let held = [pos.held(Color::White), pos.held(Color::Black)];
    let bearers = pos.kind_bb(Kind::Bearer);
    let mut occ = (pos.occupied() ^ from_bb) & !bb(to);
    let mut occupant = mover;
    let mut stm = us;
    let mut res = true;
    loop {
        stm = stm.flip();
        let mut att = pos.attackers_to(to, stm, occ, held[stm.idx()]) & occ;
        if occupant != Kind::King {
            // A standard-bearer captures nothing but a king.
            att &= !bearers;
        }
        if att == 0 {
            break;
        }
        res = !res;
        let (k, sq) = least_valuable(pos, att);
        if k == Kind::King {
            // The king may take only what no enemy piece then attacks.
            let occ = occ ^ bb(sq);
            let theirs = pos.attackers_to(to, stm.flip(), occ, held[stm.flip().idx()]) & occ;
            return if theirs != 0 { !res } else { res };
        }
        swap = value(k) - swap;
        if swap < res as i32 {
            break;
        }
        occ ^= bb(sq);
        occupant = k;
    }
    res
}

/// The static exchange value of `m` (what it wins, negative when it loses).
pub fn see(pos: &Position, m: Move) -> i32 {
    match m.move_type() {
        MoveType::Castle | MoveType::Pass => 0,
        _ => played(pos, m),
    }
}

/// The least valuable piece of `att` and its square.
#[inline]
fn least_valuable(pos: &Position, att: Bitboard) -> (Kind, Square) {
    let mut best = (Kind::King, lsb(att));
    let mut best_v = i32::MAX;
    for k in ALL_KINDS {
        let b = att & pos.kind_bb(k);
        if b != 0 && value(k) < best_v {
            best_v = value(k);
            best = (k, lsb(b));
        }
    }
    best
}

/// Whether a plain capture or drop on `m.to()` can change the exchange in a way the
/// swap loop cannot see, so that it must be played out.
#[inline]
fn needs_play(pos: &Position, m: Move) -> bool {
    if m.is_displacement() {
        return true;
    }
    let to = m.to();
    let v = pos.variant();
    let t = tables();
    if v.has(Kind::Sentry) && t.bishop(to, 0) & pos.kind_bb(Kind::Sentry) & v.mask != 0 {
        return true;
    }
    if v.has(Kind::Jailer) {
        let jailers = pos.kind_bb(Kind::Jailer);
        let mover_is_jailer = m.move_type() == MoveType::Drop && m.kind() == Some(Kind::Jailer)
            || m.move_type() == MoveType::Normal && jailers & bb(m.from()) != 0;
        if mover_is_jailer || jailers & bb(to) != 0 {
            return true;
        }
    }
    let r = rank_of(to);
    if (r == 0 || r == v.height - 1)
        && (t.pawn(0, to) | t.pawn(1, to)) & pos.kind_bb(Kind::Pawn) != 0
    {
        return true;
    }
    false
}

/// The value of the piece `m` takes (0 for none).
#[inline]
pub fn captured_value(pos: &Position, m: Move) -> i32 {
    pos.captured_kind(m).map_or(0, value)
}

/// What `m` gains for the mover on the board: the captured value, promotion gain and
/// the sentry lost over the edge.
fn gain(pos: &Position, m: Move) -> i32 {
    let mut g = 0;
    match m.move_type() {
        MoveType::EnPassant => g += value(Kind::Pawn),
        MoveType::Normal | MoveType::Promotion | MoveType::SentryCapture | MoveType::SentryEdge => {
            let p = pos.piece_at(m.to());
            if !p.is_none() && p.color() != pos.side() && !m.is_displacement() {
                g += value(p.kind());
            }
        }
        _ => {}
    }
    if m.move_type() == MoveType::Promotion {
        g += m.kind().map_or(0, value) - value(Kind::Pawn);
    }
    if m.move_type() == MoveType::SentryEdge {
        g -= value(Kind::Sentry);
    }
    g
}

/// The square the moved piece stands on after `m`, if it stays on the board.
#[inline]
fn landing(m: Move) -> Option<Square> {
    match m.move_type() {
        MoveType::SentryCapture => Some(m.aux()),
        MoveType::SentryEdge | MoveType::Castle | MoveType::Pass => None,
        _ => Some(m.to()),
    }
}

/// The exchange played out with real moves: `m`'s gain less the best the opponent can
/// win back on the square where the mover stands.
fn played(pos: &Position, m: Move) -> i32 {
    let g = gain(pos, m);
    match landing(m) {
        Some(sq) => g - recapture(&pos.after(m), sq, 1),
        None => g,
    }
}

/// What the side to move wins, at best, by capturing the piece on `sq` (0 if it does
/// better to leave it).
fn recapture(pos: &Position, sq: Square, depth: u32) -> i32 {
    let target = pos.piece_at(sq);
    if target.is_none() || target.color() == pos.side() || depth > MAX_DEPTH {
        return 0;
    }
    if target.kind() == Kind::King && pos.variant().goal == Goal::KingCapture {
        // Whoever can take the king has won; no need to look further.
        return if pos.attackers_to(sq, pos.side(), pos.occupied(), pos.held(pos.side())) != 0 {
            value(Kind::King)
        } else {
            0
        };
    }
    // Few moves capture on one square: a short list is much cheaper to set up than a
    // full one, and the rare overflow falls back to the full list.
    let mut short = MoveList::<SHORT>::empty();
    pos.legal_captures_on(sq, &mut short);
    if short.is_full() {
        let mut list = MoveList::new();
        pos.legal_captures(&mut list);
        return recapture_among(pos, sq, depth, &list);
    }
    recapture_among(pos, sq, depth, &short)
}

/// [`recapture`] over the captures in `list`.
fn recapture_among(pos: &Position, sq: Square, depth: u32, list: &[Move]) -> i32 {
    let mut best = 0;
    let mut cheapest: Option<(i32, Move)> = None;
    for &c in list.iter() {
        let hits = match c.move_type() {
            MoveType::Normal | MoveType::Promotion => c.to() == sq && !c.is_displacement(),
            MoveType::SentryCapture | MoveType::SentryEdge => c.to() == sq,
            _ => false,
        };
        if !hits {
            continue;
        }
        if depth <= FULL_WIDTH_DEPTH {
            best = best.max(reply(pos, c, depth));
        } else {
            let v = value(pos.piece_at(c.from()).kind());
            if cheapest.is_none_or(|(cv, _)| v < cv) {
                cheapest = Some((v, c));
            }
        }
    }
    if let Some((_, c)) = cheapest {
        best = best.max(reply(pos, c, depth));
    }
    best
}

#[inline]
fn reply(pos: &Position, c: Move, depth: u32) -> i32 {
    let g = gain(pos, c);
    match landing(c) {
        Some(to) => g - recapture(&pos.after(c), to, depth + 1),
        None => g,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_move;
    use crate::rules::Variants;

    fn check(variant: &str, fen: &str, mv: &str, expect: i32) {
        let vs = Variants::builtin();
        let v = vs.get(variant).unwrap();
        let pos = Position::from_efen(v, fen).unwrap();
        let m = parse_move(&pos, mv).unwrap();
        assert_eq!(
            see(&pos, m),
            expect,
            "{variant} {fen} {mv}: played-out value"
        );
        for t in [expect - 1, expect, expect + 1] {
            assert_eq!(
                see_ge(&pos, m, t),
                expect >= t,
                "{variant} {fen} {mv}: see_ge({t})"
            );
        }
    }

    #[test]
    fn chess_exchanges() {
        // Rook takes a pawn: free, or defended by a rook or a pawn.
        check("chess", "4k3/8/8/4p3/8/8/8/4R1K1 w - - 0 1", "e1e5", 100);
        check(
            "chess",
            "4k3/4r3/8/4p3/8/8/8/4R1K1 w - - 0 1",
            "e1e5",
            100 - 500,
        );
        check(
            "chess",
            "4k3/8/3p4/4p3/8/8/8/4R1K1 w - - 0 1",
            "e1e5",
            100 - 500,
        );
        // Pawn takes knight defended by a pawn.
        check(
            "chess",
            "4k3/8/2p5/3n4/4P3/8/8/6K1 w - - 0 1",
            "e4d5",
            320 - 100,
        );
        // Queen takes a pawn defended by a bishop, with a rook behind the queen (x-ray).
        check(
            "chess",
            "4k3/8/5b2/4p3/8/8/4Q3/4R1K1 w - - 0 1",
            "e2e5",
            100 - 950 + 330,
        );
        // A quiet move onto a square a pawn guards loses the piece.
        check("chess", "4k3/8/8/3p4/8/5N2/8/6K1 w - - 0 1", "f3e5", 0);
        check("chess", "4k3/8/3p4/8/8/5N2/8/6K1 w - - 0 1", "f3e5", -320);
    }

    #[test]
    fn lancer_rays_pass_friends_and_stop_at_enemies() {
        // The a1 lancer faces ne and sees through its own pawn on b2: it guards d4.
        check(
            "fullcavalry",
            "4k3/8/8/4p3/3N4/8/1P6/L(ne)5K1 b - - 0 1",
            "e5d4",
            320 - 100,
        );
        // An enemy piece on c3 stops the ray.
        check(
            "fullcavalry",
            "4k3/8/8/4p3/3N4/2n5/1P6/L(ne)5K1 b - - 0 1",
            "e5d4",
            320,
        );
    }

    #[test]
    fn sentry_lands_beyond_its_victim() {
        // c1 sentry takes e3 and lands on f4, where the g5 pawn takes it back.
        check(
            "eightpiece",
            "4k3/8/8/6p1/8/4p3/8/2S1K3 w - - 0 1",
            "c1e3",
            100 - 240,
        );
        check(
            "eightpiece",
            "4k3/8/8/8/8/4p3/8/2S1K3 w - - 0 1",
            "c1e3",
            100,
        );
        // Over the edge: the sentry is lost with its victim.
        check(
            "eightpiece",
            "4k3/8/8/8/8/5S2/8/4K2r w - - 0 1",
            "f3h1",
            500 - 240,
        );
        // On the board it lands on f3, where nothing takes it.
        check(
            "eightpiece",
            "4k3/8/8/8/8/8/6r1/4K2S w - - 0 1",
            "h1g2",
            500,
        );
    }

    #[test]
    fn held_units_defend_nothing() {
        // The e2 queen guards e4 but the black jailer on f2 holds it.
        check(
            "eightpiece",
            "4k3/8/8/3p4/4N3/8/4Qj2/K7 b - - 0 1",
            "d5e4",
            320,
        );
        check(
            "eightpiece",
            "4k3/8/8/3p4/4N3/8/4Q3/K4j2 b - - 0 1",
            "d5e4",
            320 - 100,
        );
        // Taking the e3 jailer frees the e4 queen, which then takes back on e3.
        check(
            "eightpiece",
            "1k6/8/8/8/3pQ3/4j3/8/K3R3 w - - 0 1",
            "e1e3",
            370 - 500 + 100,
        );
    }

    #[test]
    fn drops_and_king_capture() {
        // A knight dropped where a pawn takes it is lost.
        check(
            "lighthouse",
            "bnkr/pppp/4/4/4/4/PPPP/BNKR[N] w - - 0 1",
            "N@b6",
            -320,
        );
        check(
            "lighthouse",
            "bnkr/pppp/4/4/4/4/PPPP/BNKR[N] w - - 0 1",
            "N@b4",
            0,
        );
        // Royal Standard: taking the king wins everything.
        check(
            "royalstandard",
            "*s1kss*/2SR3/7/7/7/*S1K1S* w - - 0 1",
            "d5d6",
            20_000,
        );
    }
}
