//! Threats: enemy pieces attacked by own pawns, enemy majors (rook, queen, lancer)
//! attacked by own minor pieces, and enemy pieces attacked but not defended. Kings and
//! standard-bearers are left out of those: a king is never "won" this way, and
//! capturing a bearer only displaces it. The bearers have their own two: an enemy
//! bearer the side can displace, and one next to its king (which could displace it,
//! or be captured by it).

use super::activity::Attack;
use super::params::{
    BEARER_ATTACKED, BEARER_BY_KING, HANGING, PAWN_PUSH_THREAT, SPACE, THREAT_BY_KING,
    THREAT_BY_MINOR, THREAT_BY_PAWN, THREAT_BY_ROOK,
};
use super::{count, Acc};
use crate::rules::bitboard::*;
use crate::rules::{Color, Kind, Position};

/// Threats of side `c` (attacks `ours`) against the other side (attacks `theirs`).
#[inline(always)]
pub fn side<A: Acc>(pos: &Position, c: Color, ours: &Attack, theirs: &Attack, acc: &mut A) {
    let them = c.flip();
    let v = pos.variant();
    // Files c to f, relative ranks 2 to 4.
    let centre = 0x3C3C_3C00u64;
    let zone = match c {
        Color::White => centre << (8 * v.back_rank(c) as u32),
        Color::Black => centre.swap_bytes() >> (8 * (7 - v.back_rank(c) as u32)),
    };
    acc.add(
        SPACE,
        count(zone & v.mask & !theirs.by_pawn & !pos.pieces_of(c, Kind::Pawn)),
    );
    let bearers = pos.pieces_of(them, Kind::Bearer);
    if bearers != 0 {
        acc.add(BEARER_ATTACKED, count(ours.all & bearers));
        acc.add(BEARER_BY_KING, count(ours.by_king & bearers));
    }
    let targets = pos.pieces(them) & !pos.pieces_of(them, Kind::King) & !bearers;
    if targets == 0 {
        return;
    }
    let pawns = pos.pieces_of(them, Kind::Pawn);
    let majors = pos.pieces_of(them, Kind::Rook)
        | pos.pieces_of(them, Kind::Queen)
        | pos.pieces_of(them, Kind::Lancer);
    acc.add(THREAT_BY_PAWN, count(ours.by_pawn & targets & !pawns));
    acc.add(THREAT_BY_MINOR, count(ours.by_minor & majors));
    acc.add(HANGING, count(ours.all & targets & !theirs.all));
    acc.add(
        THREAT_BY_ROOK,
        count(ours.by_rook & pos.pieces_of(them, Kind::Queen)),
    );
    acc.add(THREAT_BY_KING, count(ours.by_king & targets & !theirs.all));
    let own_pawns = pos.pieces_of(c, Kind::Pawn);
    let push = match c {
        Color::White => own_pawns << 8,
        Color::Black => own_pawns >> 8,
    } & !pos.occupied()
        & v.mask;
    let safe = push & !theirs.by_pawn & (ours.all | !theirs.all);
    let mut hits = 0;
    for s in squares(safe) {
        hits |= tables().pawn(c.idx(), s);
    }
    acc.add(PAWN_PUSH_THREAT, count(hits & targets & !pawns));
}
