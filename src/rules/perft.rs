//! Perft: counts the leaves of the legal move tree (docs/notation.md, "Perft").

use super::moves::*;
use super::notation::move_text;
use super::position::Position;
use rayon::prelude::*;

/// Leaves of the legal move tree of depth `depth` (bulk-counted at the last ply).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut n = 0;
    for &m in list.iter() {
        n += perft(&pos.after(m), depth - 1);
    }
    n
}

/// Perft split by root move over the rayon pool: `report` gets each root move's text
/// and count in move order (as Stockfish prints them), each as soon as it and every
/// move before it are counted. Returns the total.
pub fn divide(pos: &Position, depth: u32, report: &(dyn Fn(&str, u64) + Sync)) -> u64 {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let d = depth.max(1);
    let moves = list.as_slice();
    // Counts finish in any order on several threads; the next move to report and the
    // counts waiting for it live under one lock, so lines come out in move order.
    let pending = std::sync::Mutex::new((0usize, vec![None; moves.len()]));
    moves
        .par_iter()
        .enumerate()
        .map(|(i, &m)| {
            let n = perft(&pos.after(m), d - 1);
            if let Ok(mut p) = pending.lock() {
                let (next, counts) = &mut *p;
                counts[i] = Some(n);
                while let Some(c) = counts.get(*next).copied().flatten() {
                    report(&move_text(pos, moves[*next]), c);
                    *next += 1;
                }
            }
            n
        })
        .sum()
}
