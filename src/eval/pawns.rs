//! Pawn structure: doubled, isolated, backward and passed pawns. A passed pawn is worth less
//! while its side may not promote (Lighthouse's one-queen limit).
//!
//! The terms that depend on the pawns alone are kept per thread in a small table keyed
//! by both sides' pawns ([`PawnCache`]), since most positions a search visits share
//! their pawns with many others; what also depends on the kings and the other pieces is
//! computed every time.

use super::params::{
    BACKWARD, CONNECTED, DOUBLED, ISOLATED, KING_PAWN_DIST, PASSED, PASSED_BLOCKED, PASSED_FREE,
    PASSED_KING_OWN, PASSED_KING_THEIR,
};
use super::{Acc, MgEg};
use crate::rules::bitboard::*;
use crate::rules::geometry::{adjacent_files, distance, front, ranks_ahead, FILE_A};
use crate::rules::{Color, Kind, Position, Variant};
use std::cell::RefCell;

/// Pawn structure of side `c`.
#[inline(always)]
pub fn side<A: Acc>(pos: &Position, c: Color, acc: &mut A) {
    let own = pos.pieces_of(c, Kind::Pawn);
    if own == 0 {
        return;
    }
    let passed = structure(
        pos.variant(),
        c,
        own,
        pos.pieces_of(c.flip(), Kind::Pawn),
        acc,
    );
    around(pos, c, own, passed, acc);
}

/// The terms of side `c`'s pawns `own` that depend on the pawns alone (`theirs` the
/// other side's); returns its passed pawns.
#[inline(always)]
fn structure<A: Acc>(
    v: &Variant,
    c: Color,
    own: Bitboard,
    theirs: Bitboard,
    acc: &mut A,
) -> Bitboard {
    let mut passed = 0;
    for sq in squares(own) {
        let f = file_of(sq);
        let file = FILE_A << f;
        let adj = adjacent_files(f);
        if popcount(own & file) > 1 {
            acc.add(DOUBLED, 1);
        }
        let ahead = ranks_ahead(c, sq);
        let stop = front(c, sq);
        let rank = 0xFFu64 << (8 * rank_of(sq) as u32);
        if tables().pawn(c.flip().idx(), sq) & own != 0 || own & adj & rank != 0 {
            acc.add(CONNECTED + (v.relative_rank(c, sq) as usize).min(7), 1);
        }
        if own & adj == 0 {
            acc.add(ISOLATED, 1);
        } else if own & adj & !ahead == 0
            && stop.is_some_and(|s| tables().pawn(c.idx(), s) & theirs != 0)
        {
            acc.add(BACKWARD, 1);
        }
        if theirs & (file | adj) & ahead == 0 {
            passed |= bb(sq);
        }
    }
    passed
}

/// The terms of side `c`'s pawns `own` that depend on more than the pawns: the king's
/// distance to them, and its `passed` pawns' free path, kings' race and promotion.
#[inline(always)]
fn around<A: Acc>(pos: &Position, c: Color, own: Bitboard, passed: Bitboard, acc: &mut A) {
    let v = pos.variant();
    if let Some(k) = pos.king_sq(c) {
        let d = squares(own).map(|s| distance(s, k)).min().unwrap_or(0);
        acc.add(KING_PAWN_DIST, d);
    }
    if passed == 0 {
        return;
    }
    let promo_blocked = v
        .promotions
        .iter()
        .all(|&k| popcount(pos.pieces_of(c, k)) >= v.limits[k.idx()] as u32);
    for sq in squares(passed) {
        let stop = front(c, sq);
        let rel = v.relative_rank(c, sq) as i32;
        // The kings' race to the promotion square matters more the further it is.
        if rel >= 3 {
            let promo = square(file_of(sq), v.promotion_rank(c));
            let dist = |k: Option<Square>| k.map_or(0, |k| distance(k, promo));
            acc.add(PASSED_KING_OWN, dist(pos.king_sq(c)) * (rel - 2));
            acc.add(PASSED_KING_THEIR, dist(pos.king_sq(c.flip())) * (rel - 2));
        }
        let rel = rel.clamp(0, 7) as usize;
        if stop.is_some_and(|s| v.on_board(s) && pos.occupied() & bb(s) == 0) {
            acc.add(PASSED_FREE + rel, 1);
        }
        acc.add(
            if promo_blocked {
                PASSED_BLOCKED
            } else {
                PASSED
            } + rel,
            1,
        );
    }
}

/// Entries of a [`PawnCache`].
const PAWN_ENTRIES: usize = 1 << 12;

/// One cached pawn structure: both sides' pawns, the score of their pawn-only terms
/// (White minus Black) and their passed pawns.
#[derive(Clone, Copy, Default)]
struct PawnEntry {
    pawns: [Bitboard; 2],
    score: MgEg,
    passed: [Bitboard; 2],
}

/// The pawn-only terms of recent pawn structures, for one variant's weights on one
/// thread. Every entry starts as the structure without pawns, which is true of it.
pub struct PawnCache(RefCell<Box<[PawnEntry]>>);

impl Default for PawnCache {
    fn default() -> Self {
        PawnCache(RefCell::new(
            vec![PawnEntry::default(); PAWN_ENTRIES].into_boxed_slice(),
        ))
    }
}

/// Both sides' pawn structure, White minus Black, added through `acc`'s square-table
/// path (a plain score) from `cache` where it holds these pawns.
#[inline(always)]
pub fn both_cached<A: Acc>(
    pos: &Position,
    cache: &PawnCache,
    w: &super::params::Params,
    acc: &mut A,
) {
    let pawns = [
        pos.pieces_of(Color::White, Kind::Pawn),
        pos.pieces_of(Color::Black, Kind::Pawn),
    ];
    let i = ((pawns[0] ^ pawns[1].rotate_left(32)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52)
        as usize
        % PAWN_ENTRIES;
    let mut entries = cache.0.borrow_mut();
    let e = &mut entries[i];
    if e.pawns != pawns {
        let mut sum = super::Sum {
            p: w,
            sign: 1,
            s: MgEg::default(),
        };
        let v = pos.variant();
        let mut passed = [0; 2];
        for c in [Color::White, Color::Black] {
            sum.side(c);
            let (own, theirs) = (pawns[c.idx()], pawns[c.flip().idx()]);
            if own != 0 {
                passed[c.idx()] = structure(v, c, own, theirs, &mut sum);
            }
        }
        *e = PawnEntry {
            pawns,
            score: sum.s,
            passed,
        };
    }
    let e = *e;
    drop(entries);
    acc.side(Color::White);
    acc.add_squares(e.score);
    for c in [Color::White, Color::Black] {
        let own = pawns[c.idx()];
        if own != 0 {
            acc.side(c);
            around(pos, c, own, e.passed[c.idx()], acc);
        }
    }
}
