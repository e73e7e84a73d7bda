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
/// and count as soon as it is counted (in move order on one thread). Returns the total.
pub fn divide(pos: &Position, depth: u32, report: &(dyn Fn(&str, u64) + Sync)) -> u64 {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let d = depth.max(1);
    list.as_slice()
        .par_iter()
        .map(|&m| {
            let n = perft(&pos.after(m), d - 1);
            report(&move_text(pos, m), n);
            n
        })
        .sum()
}
