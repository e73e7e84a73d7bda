//! History heuristics: what refuted positions before orders moves now.
//! - the butterfly history (side, from or drop, to) of quiet moves;
//! - continuation histories: a quiet move's record after a given move one and two
//!   plies earlier (piece and square of each);
//! - the capture history (piece, square, captured kind);
//! - killers and counter moves.
//!
//! Every table is updated with a "gravity" rule that keeps entries within
//! ±[`HIST_MAX`] and lets old knowledge fade as new bonuses arrive.

use super::limits::Feature;
use super::movepick::hist_idx;
use super::score::MATE_BOUND;
use super::worker::Worker;
use crate::rules::bitboard::Square;
use crate::rules::moves::*;
use crate::rules::piece::*;
use crate::rules::Position;

/// Largest magnitude of a history entry.
pub(crate) const HIST_MAX: i32 = 16384;
/// Coloured piece indices.
pub(crate) const PIECES: usize = 2 * NKINDS;
/// Continuation block of "no move" (the null move, the root's parent, a pass).
pub(crate) const NO_CONT: usize = PIECES * 64;
const BLOCK: usize = PIECES * 64;

/// The history tables of one search thread.
pub(crate) struct Histories {
    pub(crate) main: Box<[[[i16; 64]; 65]; 2]>,
    pub(crate) capture: Box<[[[i16; NKINDS]; 64]; PIECES]>,
    /// `(NO_CONT + 1)` blocks of `PIECES * 64` entries: block = previous piece and
    /// square, entry = this move's piece and square.
    cont: Vec<i16>,
    /// Correction history per side and pawn-structure key: how far the static
    /// evaluation has missed the search's result in such positions.
    corr: Box<[[i32; CORR_SIZE]; 2]>,
}

/// Entries of the correction table.
const CORR_SIZE: usize = 1 << 14;
/// Units of a correction entry per centipawn.
const CORR_GRAIN: i32 = 32;
/// Largest correction entry (128 centipawns).
const CORR_LIMIT: i32 = 128 * CORR_GRAIN;

/// The correction table index of `pos`: pawns and kings (standard-bearers too) of
/// each side, and the hands in drop variants.
#[inline]
fn corr_index(pos: &Position) -> usize {
    let white = pos.pieces(Color::White);
    let pawns = pos.kind_bb(Kind::Pawn);
    let royals = pos.kind_bb(Kind::King) | pos.kind_bb(Kind::Bearer);
    let mut h = (pawns & white).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (pawns & !white)
            .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            .rotate_left(17)
        ^ (royals & white)
            .wrapping_mul(0x1656_67B1_9E37_79F9)
            .rotate_left(29)
        ^ (royals & !white)
            .wrapping_mul(0x27D4_EB2F_1656_67C5)
            .rotate_left(43);
    if pos.variant().drops {
        for k in ALL_KINDS {
            let n = pos.hand(Color::White, k) as u64 | (pos.hand(Color::Black, k) as u64) << 4;
            h = (h ^ n
                .wrapping_mul(0xFF51_AFD7_ED55_8CCD)
                .rotate_left(k as u32 * 5))
            .wrapping_mul(0xC4CE_B9FE_1A85_EC53);
        }
    }
    (h >> (64 - 14)) as usize
}

impl Histories {
    /// A placeholder that owns no tables (nothing is allocated).
    pub(crate) fn empty() -> Histories {
        Histories {
            main: Box::new([[[0; 64]; 65]; 2]),
            capture: Box::new([[[0; NKINDS]; 64]; PIECES]),
            cont: Vec::new(),
            corr: Box::new([[0; CORR_SIZE]; 2]),
        }
    }

    pub(crate) fn new() -> Histories {
        Histories {
            main: Box::new([[[0; 64]; 65]; 2]),
            capture: Box::new([[[0; NKINDS]; 64]; PIECES]),
            cont: vec![0; (NO_CONT + 1) * BLOCK],
            corr: Box::new([[0; CORR_SIZE]; 2]),
        }
    }

    /// The continuation entry of `pc` to `to` under `block`.
    #[inline(always)]
    pub(crate) fn cont(&self, block: usize, pc: Piece, to: Square) -> i32 {
        self.cont[block * BLOCK + pc.idx() * 64 + (to as usize & 63)] as i32
    }

    #[inline(always)]
    fn cont_mut(&mut self, block: usize, pc: Piece, to: Square) -> &mut i16 {
        &mut self.cont[block * BLOCK + pc.idx() * 64 + (to as usize & 63)]
    }
}

/// Moves `h` toward `bonus`'s sign by `bonus`, less as it nears the limit.
#[inline(always)]
pub(crate) fn gravity(h: &mut i16, bonus: i32) {
    let v = *h as i32;
    let b = bonus.clamp(-HIST_MAX, HIST_MAX);
    *h = (v + b - v * b.abs() / HIST_MAX) as i16;
}

/// The history bonus of a cutoff at `depth`.
#[inline]
pub(crate) fn stat_bonus(depth: i32) -> i32 {
    (170 * depth - 100).clamp(0, 1700)
}

/// The piece that moves (a dropped piece, the pawn that promotes); none for the pass.
#[inline]
pub(crate) fn moved_piece(pos: &Position, m: Move) -> Piece {
    match m.move_type() {
        MoveType::Drop => Piece::new(m.kind().unwrap_or(Kind::Pawn), pos.side()),
        MoveType::Pass => NO_PIECE,
        _ => pos.piece_at(m.from()),
    }
}

/// The continuation block a move opens for the moves after it.
#[inline]
pub(crate) fn cont_block(pc: Piece, to: Square) -> usize {
    if pc.is_none() {
        NO_CONT
    } else {
        pc.idx() * 64 + (to as usize & 63)
    }
}

impl Worker<'_> {
    /// The static evaluation `raw` corrected by what searches found before.
    #[inline]
    pub(crate) fn corrected(&self, pos: &Position, raw: i32) -> i32 {
        if !self.on(Feature::Correction) {
            return raw.clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        }
        let c = self.hist.corr[pos.side().idx()][corr_index(pos)] / CORR_GRAIN;
        (raw + c).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Moves the correction of `pos` toward `diff` (search result less corrected eval).
    #[inline]
    pub(crate) fn update_correction(&mut self, pos: &Position, depth: i32, diff: i32) {
        if !self.on(Feature::Correction) {
            return;
        }
        let bonus = (diff * depth * CORR_GRAIN / 8).clamp(-CORR_LIMIT / 4, CORR_LIMIT / 4);
        let e = &mut self.hist.corr[pos.side().idx()][corr_index(pos)];
        *e += bonus - *e * bonus.abs() / CORR_LIMIT;
    }

    /// Continuation blocks of the moves one and two plies before `ply`.
    #[inline(always)]
    pub(crate) fn cont_blocks(&self, ply: usize) -> (usize, usize) {
        (
            if ply >= 1 {
                self.cont_block[ply - 1]
            } else {
                NO_CONT
            },
            if ply >= 2 {
                self.cont_block[ply - 2]
            } else {
                NO_CONT
            },
        )
    }

    /// The history score of a quiet move: butterfly plus both continuations.
    #[inline]
    pub(crate) fn quiet_score(&self, pos: &Position, m: Move, ply: usize) -> i32 {
        let us = pos.side().idx();
        let (f, t) = hist_idx(m);
        let pc = moved_piece(pos, m);
        let (b1, b2) = self.cont_blocks(ply);
        let mut s = self.hist.main[us][f][t] as i32;
        if !pc.is_none() {
            s += self.hist.cont(b1, pc, m.to()) + self.hist.cont(b2, pc, m.to());
        }
        s
    }

    /// The capture history entry of a capture of `victim`.
    #[inline]
    pub(crate) fn capture_score(&self, pos: &Position, m: Move, victim: Kind) -> i32 {
        let pc = moved_piece(pos, m);
        if pc.is_none() {
            return 0;
        }
        self.hist.capture[pc.idx()][m.to() as usize & 63][victim.idx()] as i32
    }

    fn bump_quiet(&mut self, pos: &Position, m: Move, ply: usize, bonus: i32) {
        let us = pos.side().idx();
        let (f, t) = hist_idx(m);
        gravity(&mut self.hist.main[us][f][t], bonus);
        let pc = moved_piece(pos, m);
        if !pc.is_none() {
            let (b1, b2) = self.cont_blocks(ply);
            gravity(self.hist.cont_mut(b1, pc, m.to()), bonus);
            gravity(self.hist.cont_mut(b2, pc, m.to()), bonus);
        }
    }

    fn bump_capture(&mut self, pos: &Position, m: Move, bonus: i32) {
        let pc = moved_piece(pos, m);
        if let (false, Some(victim)) = (pc.is_none(), super::movepick::captured_kind(pos, m)) {
            gravity(
                &mut self.hist.capture[pc.idx()][m.to() as usize & 63][victim.idx()],
                bonus,
            );
        }
    }

    /// Rewards `best`, which refuted the position at `ply`, and penalises the moves
    /// tried before it: quiet ones when `best` is quiet, captures always.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn update_stats(
        &mut self,
        pos: &Position,
        best: Move,
        best_quiet: bool,
        ply: usize,
        depth: i32,
        quiets: &[Move],
        captures: &[Move],
    ) {
        let bonus = stat_bonus(depth);
        if best_quiet {
            self.bump_quiet(pos, best, ply, bonus);
            for &q in quiets {
                if q != best {
                    self.bump_quiet(pos, q, ply, -bonus);
                }
            }
            if self.killers[ply][0] != best {
                self.killers[ply][1] = self.killers[ply][0];
                self.killers[ply][0] = best;
            }
            if ply > 0 {
                let (pp, psq) = self.prev[ply - 1];
                if !pp.is_none() {
                    self.counters[pp.idx()][psq as usize & 63] = best;
                }
            }
        } else {
            self.bump_capture(pos, best, bonus);
        }
        for &c in captures {
            if c != best {
                self.bump_capture(pos, c, -bonus);
            }
        }
    }
}
