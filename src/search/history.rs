//! History heuristics: what refuted positions before orders moves now.
//! - the butterfly history (side, from or drop, to) of quiet moves;
//! - continuation histories: a quiet move's record after a given move one and two
//!   plies earlier (piece and square of each);
//! - the capture history (piece, square, captured kind);
//! - killers and counter moves.
//!
//! Every table is updated with a "gravity" rule that keeps entries within
//! ±[`HIST_MAX`] and lets old knowledge fade as new bonuses arrive.

use super::score::{MATE_BOUND, MAX_PLY};
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
    main: Box<[[[i16; 64]; 65]; 2]>,
    capture: Box<[[[i16; NKINDS]; 64]; PIECES]>,
    /// `(NO_CONT + 1)` blocks of `PIECES * 64` entries: block = previous piece and
    /// square, entry = this move's piece and square.
    cont: Vec<i16>,
    /// Correction history per side and pawn-structure key: how far the static
    /// evaluation has missed the search's result in such positions.
    corr: Box<[[i32; CORR_SIZE]; 2]>,
    /// The same per side to move and key of one side's pieces other than pawns:
    /// `CORR_SIZE` entries for each (side of the pieces, side to move), White's first.
    piece_corr: Vec<i32>,
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
    let mut h = (pawns & white).wrapping_mul(KIND_MIX[0])
        ^ (pawns & !white).wrapping_mul(KIND_MIX[1]).rotate_left(17)
        ^ (royals & white).wrapping_mul(KIND_MIX[2]).rotate_left(29)
        ^ (royals & !white).wrapping_mul(KIND_MIX[3]).rotate_left(43);
    if pos.variant().drops {
        for k in ALL_KINDS {
            let n = pos.hand(Color::White, k) as u64 | (pos.hand(Color::Black, k) as u64) << 4;
            h = (h ^ n.wrapping_mul(KIND_MIX[4]).rotate_left(k as u32 * 5))
                .wrapping_mul(KIND_MIX[5]);
        }
    }
    (h >> (64 - 14)) as usize
}

/// Odd multipliers that spread a bitboard (or a count) over a key: [`corr_index`] takes
/// the first six, [`piece_index`] one a kind.
const KIND_MIX: [u64; NKINDS] = [
    0x9E37_79B9_7F4A_7C15,
    0xC2B2_AE3D_27D4_EB4F,
    0x1656_67B1_9E37_79F9,
    0x27D4_EB2F_1656_67C5,
    0xFF51_AFD7_ED55_8CCD,
    0xC4CE_B9FE_1A85_EC53,
    0x94D0_49BB_1331_11EB,
    0xBF58_476D_1CE4_E5B9,
    0x2545_F491_4F6C_DD1D,
    0x8538_ECB5_BD45_6EA3,
    0xD6E8_FEB8_6659_FD93,
    0xA076_1D64_78BD_642F,
];

/// The index in the piece correction tables of `c`'s pieces other than pawns (which
/// [`corr_index`] reads) in `pos`: the material and where it stands.
#[inline]
fn piece_index(pos: &Position, c: Color) -> usize {
    let own = pos.pieces(c) & !pos.kind_bb(Kind::Pawn);
    let mut h = 0u64;
    for (k, mix) in ALL_KINDS.iter().zip(KIND_MIX) {
        let b = pos.kind_bb(*k) & own;
        if b != 0 {
            h = (h ^ b.wrapping_mul(mix)).rotate_left(23);
        }
    }
    (h.wrapping_mul(KIND_MIX[0]) >> (64 - 14)) as usize
}

impl Histories {
    /// A placeholder with only the small tables (no continuation or piece correction
    /// tables are allocated).
    pub(crate) fn empty() -> Histories {
        Histories {
            main: Box::new([[[0; 64]; 65]; 2]),
            capture: Box::new([[[0; NKINDS]; 64]; PIECES]),
            cont: Vec::new(),
            corr: Box::new([[0; CORR_SIZE]; 2]),
            piece_corr: Vec::new(),
        }
    }

    pub(crate) fn new() -> Histories {
        Histories {
            main: Box::new([[[0; 64]; 65]; 2]),
            capture: Box::new([[[0; NKINDS]; 64]; PIECES]),
            cont: vec![0; (NO_CONT + 1) * BLOCK],
            corr: Box::new([[0; CORR_SIZE]; 2]),
            piece_corr: vec![0; 4 * CORR_SIZE],
        }
    }

    /// The continuation entry of `pc` to `to` under `block`.
    #[inline(always)]
    fn cont(&self, block: usize, pc: Piece, to: Square) -> i32 {
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

/// Index of a move in the history tables: (from or 64 for drops, to).
#[inline(always)]
pub(crate) fn hist_idx(m: Move) -> (usize, usize) {
    let from = if m.move_type() == MoveType::Drop || m.is_pass() {
        64
    } else {
        m.from() as usize & 63
    };
    (from, m.to() as usize & 63)
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

impl Histories {
    /// The piece correction entries of `pos` (White's pieces, Black's), if the
    /// tables exist.
    #[inline]
    fn piece_slots(&self, pos: &Position) -> Option<[usize; 2]> {
        if self.piece_corr.is_empty() {
            return None;
        }
        let s = pos.side().idx();
        Some(
            [Color::White, Color::Black]
                .map(|c| (c.idx() * 2 + s) * CORR_SIZE + piece_index(pos, c)),
        )
    }

    /// The static evaluation `raw` corrected by what searches found before: by the
    /// pawns' key and, with `pieces`, half of each side's piece key.
    #[inline]
    pub(crate) fn corrected(&self, pos: &Position, raw: i32, pieces: bool) -> i32 {
        let mut c = self.corr[pos.side().idx()][corr_index(pos)];
        if let Some([w, b]) = self.piece_slots(pos).filter(|_| pieces) {
            c += (self.piece_corr[w] + self.piece_corr[b]) / 2;
        }
        (raw + c / CORR_GRAIN).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Moves the corrections of `pos` toward `diff` (search result less corrected
    /// eval); with `pieces` the piece tables too.
    #[inline]
    pub(crate) fn update_correction(
        &mut self,
        pos: &Position,
        depth: i32,
        diff: i32,
        pieces: bool,
    ) {
        let bonus = (diff * depth * CORR_GRAIN / 8).clamp(-CORR_LIMIT / 4, CORR_LIMIT / 4);
        let toward = |e: &mut i32| *e += bonus - *e * bonus.abs() / CORR_LIMIT;
        toward(&mut self.corr[pos.side().idx()][corr_index(pos)]);
        if let Some(slots) = self.piece_slots(pos).filter(|_| pieces) {
            for i in slots {
                toward(&mut self.piece_corr[i]);
            }
        }
    }
}

/// A search thread's move-ordering knowledge: the history tables (kept between
/// searches), the killers and counter moves, and the move made at each ply, which
/// the continuation histories and counter moves are indexed by.
pub(crate) struct Heuristics {
    tables: Box<Histories>,
    killers: [[Move; 2]; MAX_PLY + 2],
    counters: Box<[[Move; 64]; PIECES]>,
    /// Piece and destination of the move made at each ply (none for a drop or pass).
    prev: [(Piece, Square); MAX_PLY + 2],
    /// Continuation block of the move made at each ply.
    cont_block: [usize; MAX_PLY + 2],
}

impl Heuristics {
    /// Heuristics over `tables` (what earlier searches learnt), with no killers.
    pub(crate) fn new(tables: Box<Histories>) -> Heuristics {
        Heuristics {
            tables,
            killers: [[Move::NONE; 2]; MAX_PLY + 2],
            counters: Box::new([[Move::NONE; 64]; PIECES]),
            prev: [(NO_PIECE, 0); MAX_PLY + 2],
            cont_block: [NO_CONT; MAX_PLY + 2],
        }
    }

    /// Gives the history tables back, leaving tables that own nothing.
    pub(crate) fn take_tables(&mut self) -> Box<Histories> {
        std::mem::replace(&mut self.tables, Box::new(Histories::empty()))
    }

    /// The history tables.
    #[inline(always)]
    pub(crate) fn tables(&self) -> &Histories {
        &self.tables
    }

    /// The history tables, to be updated.
    #[inline(always)]
    pub(crate) fn tables_mut(&mut self) -> &mut Histories {
        &mut self.tables
    }

    /// Records `m`, played from `pos` at `ply`, for the plies after it.
    #[inline]
    pub(crate) fn played(&mut self, pos: &Position, m: Move, ply: usize) {
        self.cont_block[ply] = cont_block(pos.moved_piece(m), m.to());
        self.prev[ply] = if m.move_type() == MoveType::Drop || m.is_pass() {
            (NO_PIECE, 0)
        } else {
            (pos.piece_at(m.from()), m.to())
        };
    }

    /// Records the null move at `ply`.
    #[inline]
    pub(crate) fn played_null(&mut self, ply: usize) {
        self.prev[ply] = (NO_PIECE, 0);
        self.cont_block[ply] = NO_CONT;
    }

    /// The two killer moves of `ply`.
    #[inline(always)]
    pub(crate) fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply]
    }

    /// The move that last refuted the move played before `ply`.
    #[inline]
    pub(crate) fn counter(&self, ply: usize) -> Move {
        let (pp, psq) = if ply > 0 {
            self.prev[ply - 1]
        } else {
            (NO_PIECE, 0)
        };
        if pp.is_none() {
            Move::NONE
        } else {
            self.counters[pp.idx()][psq as usize & 63]
        }
    }

    /// Continuation blocks of the moves one and two plies before `ply`.
    #[inline(always)]
    fn cont_blocks(&self, ply: usize) -> (usize, usize) {
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
        let pc = pos.moved_piece(m);
        let (b1, b2) = self.cont_blocks(ply);
        let h = &self.tables;
        let mut s = h.main[us][f][t] as i32;
        if !pc.is_none() {
            s += h.cont(b1, pc, m.to()) + h.cont(b2, pc, m.to());
        }
        s
    }

    /// The capture history entry of a capture of `victim`.
    #[inline]
    pub(crate) fn capture_score(&self, pos: &Position, m: Move, victim: Kind) -> i32 {
        let pc = pos.moved_piece(m);
        if pc.is_none() {
            return 0;
        }
        self.tables.capture[pc.idx()][m.to() as usize & 63][victim.idx()] as i32
    }

    fn bump_quiet(&mut self, pos: &Position, m: Move, ply: usize, bonus: i32) {
        let us = pos.side().idx();
        let (f, t) = hist_idx(m);
        gravity(&mut self.tables.main[us][f][t], bonus);
        let pc = pos.moved_piece(m);
        if !pc.is_none() {
            let (b1, b2) = self.cont_blocks(ply);
            gravity(self.tables.cont_mut(b1, pc, m.to()), bonus);
            gravity(self.tables.cont_mut(b2, pc, m.to()), bonus);
        }
    }

    fn bump_capture(&mut self, pos: &Position, m: Move, bonus: i32) {
        let pc = pos.moved_piece(m);
        if let (false, Some(victim)) = (pc.is_none(), pos.captured_kind(m)) {
            gravity(
                &mut self.tables.capture[pc.idx()][m.to() as usize & 63][victim.idx()],
                bonus,
            );
        }
    }

    /// Rewards `best`, which refuted the position at `ply`, by `bonus` and penalises
    /// the moves tried before it: quiet ones when `best` is quiet, captures always.
    pub(crate) fn update_stats(
        &mut self,
        pos: &Position,
        best: Move,
        best_quiet: bool,
        ply: usize,
        bonus: i32,
        tried: &Tried,
    ) {
        if best_quiet {
            self.bump_quiet(pos, best, ply, bonus);
            for &q in tried.quiets() {
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
        for &c in tried.captures() {
            if c != best {
                self.bump_capture(pos, c, -bonus);
            }
        }
    }
}

/// The quiet moves and captures a node has searched, for the history updates (the
/// first 64 and 32: later ones are not penalised).
pub(crate) struct Tried {
    quiets: [Move; 64],
    captures: [Move; 32],
    nq: usize,
    nc: usize,
}

impl Tried {
    pub(crate) fn new() -> Tried {
        Tried {
            quiets: [Move::NONE; 64],
            captures: [Move::NONE; 32],
            nq: 0,
            nc: 0,
        }
    }

    /// Adds a searched move (neither a quiet move nor a capture is not kept).
    #[inline]
    pub(crate) fn add(&mut self, m: Move, quiet: bool, capture: bool) {
        if quiet && self.nq < self.quiets.len() {
            self.quiets[self.nq] = m;
            self.nq += 1;
        } else if capture && self.nc < self.captures.len() {
            self.captures[self.nc] = m;
            self.nc += 1;
        }
    }

    /// The quiet moves searched so far.
    #[inline]
    pub(crate) fn quiets(&self) -> &[Move] {
        &self.quiets[..self.nq]
    }

    /// How many quiet moves have been searched (up to 64).
    #[inline]
    pub(crate) fn quiet_count(&self) -> usize {
        self.nq
    }

    /// The captures searched so far.
    #[inline]
    pub(crate) fn captures(&self) -> &[Move] {
        &self.captures[..self.nc]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ini::Variants;

    #[test]
    fn corrections_follow_the_pawns_and_each_sides_pieces() {
        let vs = Variants::builtin();
        let chess = vs.get("chess").unwrap();
        let pos = |fen: &str| Position::from_efen(chess, fen).unwrap();
        let a = pos("r3k3/pp3ppp/2n5/8/8/2N5/PP3PPP/R3K3 w - - 0 1");
        // The same pawns, White's knight elsewhere: only White's piece key differs.
        let b = pos("r3k3/pp3ppp/2n5/8/8/5N2/PP3PPP/R3K3 w - - 0 1");
        // The same pieces, Black to move: other tables.
        let a_black = pos("r3k3/pp3ppp/2n5/8/8/2N5/PP3PPP/R3K3 b - - 0 1");
        let mut h = Histories::new();
        for _ in 0..50 {
            h.update_correction(&a, 8, 100, true);
        }
        let (with, without) = (h.corrected(&a, 0, true), h.corrected(&a, 0, false));
        assert!(without > 0 && with > without, "{with} {without}");
        // Black's piece key still matches: half of that entry is added.
        let (b_with, b_without) = (h.corrected(&b, 0, true), h.corrected(&b, 0, false));
        assert_eq!(b_without, without);
        assert!(
            b_with > b_without && b_with < with,
            "{b_with} {b_without} {with}"
        );
        assert_eq!(h.corrected(&a_black, 0, true), 0);
        // Updated without the piece tables, they stay as they were.
        let mut h = Histories::new();
        h.update_correction(&a, 8, 100, false);
        assert_eq!(h.corrected(&a, 0, true), h.corrected(&a, 0, false));
        // The tables a placeholder lacks are never read.
        let e = Histories::empty();
        assert_eq!(e.corrected(&a, 7, true), 7);
    }
}
