//! Piece activity: mobility (under the mobility rule where it applies), the lancer's
//! facing, the jailer's holds, the sentry's capture chances, standard-bearer range,
//! and danger around the king (including drops in hand).

use super::{count, Score};
use crate::rules::bitboard::*;
use crate::rules::variant::Goal;
use crate::rules::{Color, Kind, Position};

/// Per-square mobility weights (middlegame, endgame).
fn mobility_weight(k: Kind) -> Score {
    match k {
        Kind::Knight => Score::new(4, 4),
        Kind::Bishop | Kind::ForwardBishop => Score::new(4, 5),
        Kind::Rook => Score::new(2, 4),
        Kind::Queen => Score::new(1, 2),
        Kind::Lancer => Score::new(4, 4),
        Kind::Jailer => Score::new(2, 3),
        Kind::Sentry => Score::new(3, 3),
        Kind::Windmill => Score::new(4, 4),
        _ => Score::new(0, 0),
    }
}

/// King-attack weight of a piece near the enemy king.
fn attack_weight(k: Kind) -> i32 {
    match k {
        Kind::Queen => 5,
        Kind::Rook | Kind::Lancer => 3,
        Kind::Knight | Kind::Bishop | Kind::ForwardBishop | Kind::Sentry | Kind::Windmill => 2,
        Kind::Pawn => 1,
        // It captures nothing but the king: one next to the king's square wins it.
        Kind::Bearer => 3,
        _ => 0,
    }
}

/// Activity score of side `c`.
pub fn side(pos: &Position, c: Color) -> Score {
    let v = pos.variant();
    let t = tables();
    let them = c.flip();
    let occ = pos.occupied();
    let own = pos.pieces(c);
    let enemy = pos.pieces(them);
    let held = pos.held(c);
    let zone = pos.mobility_zone(c);
    let blk = occ | !v.mask | !zone;
    let targets = !own & v.mask & zone;
    let enemy_king = pos.king_sq(them);
    let king_zone = enemy_king.map_or(0, |k| (t.king(k) | bb(k)) & v.mask);
    let mut s = Score::default();
    let mut attack_units = 0;
    let mut attackers = 0;
    for sq in squares(own & !held) {
        let k = pos.piece_at(sq).kind();
        let att: Bitboard = match k {
            Kind::Knight => t.knight(sq),
            Kind::Bishop => t.bishop(sq, blk),
            Kind::Rook => t.rook(sq, blk),
            Kind::Queen => t.queen(sq, blk),
            Kind::ForwardBishop => {
                let fwd = match c {
                    Color::White => {
                        if sq < 56 {
                            bb(sq + 8)
                        } else {
                            0
                        }
                    }
                    Color::Black => sq.checked_sub(8).map(bb).unwrap_or(0),
                };
                t.bishop(sq, blk) | fwd
            }
            Kind::Lancer => {
                let f = pos.facing_at(sq) as usize;
                let ray = t.ray_attack(f, sq, (occ & !own) | !v.mask);
                let moves = ray & !own & v.mask;
                if moves == 0 {
                    // Facing the edge or a friendly wall: it must wait for nothing.
                    s -= Score::new(25, 20);
                }
                moves
            }
            Kind::Jailer => {
                // Holding power: every enemy unit it holds is worth a bonus beyond the
                // value the held unit loses.
                s += Score::new(12, 10) * count(t.orth_adjacent(sq) & enemy);
                t.rook(sq, blk) & !occ
            }
            Kind::Sentry => {
                let quiet = t.bishop(sq, blk) & !occ;
                let mut chances = 0;
                for d in DIAGONALS {
                    let victim = t.ray_attack(d, sq, occ | !v.mask) & enemy & v.mask;
                    if victim != 0 {
                        let beyond = step(lsb(victim), d);
                        if beyond.is_none_or(|b| !v.on_board(b) || occ & bb(b) == 0) {
                            chances += 1;
                        }
                    }
                }
                s += Score::new(14, 10) * chances;
                quiet
            }
            Kind::Windmill => pos.windmill_reaches(sq, pos.pieces_of(c, Kind::Bearer), occ),
            Kind::Pawn => t.pawn(c.idx(), sq),
            Kind::Bearer if pos.frozen() & bb(sq) == 0 => t.king(sq) & v.mask,
            _ => 0,
        };
        if k != Kind::Pawn {
            s += mobility_weight(k) * count(att & targets);
        }
        let a = att & king_zone;
        if a != 0 {
            attackers += 1;
            attack_units += attack_weight(k) * count(a);
        }
    }
    // Pieces in hand can be dropped next to the king.
    if v.drops {
        let hand: i32 = crate::rules::piece::ALL_KINDS
            .iter()
            .map(|&k| pos.hand(c, k) as i32 * attack_weight(k).max(1))
            .sum();
        attack_units += hand;
        attackers += (hand > 0) as i32;
    }
    if attackers >= 2 || (v.goal == Goal::KingCapture && attackers >= 1) {
        let danger = attack_units * attack_units * 2;
        s += Score::new(danger.min(500), danger.min(500) / 4);
    }
    if v.mobility_rule {
        let bearers = pos.pieces_of(c, Kind::Bearer);
        // Pieces outside every bearer's range cannot move.
        let exempt = bearers | pos.pieces_of(c, Kind::King);
        s -= Score::new(18, 12) * count(own & !exempt & !zone);
        s -= Score::new(8, 4) * count(bearers & pos.frozen());
    }
    // King shelter: own pawns in front of the king (checkmate variants with pawns).
    if v.goal == Goal::Checkmate {
        if let Some(k) = pos.king_sq(c) {
            let front = match c {
                Color::White if rank_of(k) >= 7 => 0,
                Color::White => t.king(k) & (!0u64 << (8 * (rank_of(k) as u32 + 1))),
                Color::Black => t.king(k) & ((1u64 << (8 * rank_of(k) as u32)) - 1),
            };
            s += Score::new(10, 0) * count(front & pos.pieces_of(c, Kind::Pawn));
        }
    }
    s
}
