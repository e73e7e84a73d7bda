//! Per-variant evaluation tables (weights, square tables), built once per thread
//! and variant, so the evaluation reads tables instead of recomputing formulas.

use super::tables::Tables;
use super::MgEg;
use crate::rules::piece::{Color, ALL_KINDS, NKINDS};
use crate::rules::variant::Variant;
use std::cell::RefCell;
use std::rc::Rc;

/// The tables of variant `v` with weights `params`.
pub fn build(v: &Variant, params: super::params::Params) -> Tables {
    let mut t = Tables {
        params,
        pst: [[[MgEg::default(); 64]; NKINDS]; 2],
        pawns: Default::default(),
    };
    for k in ALL_KINDS {
        for c in [Color::White, Color::Black] {
            for sq in 0..64u8 {
                if v.on_board(sq) {
                    t.pst[c.idx()][k.idx()][sq as usize] =
                        super::pst::entry(v, &t.params, k, c, sq);
                }
            }
        }
    }
    t
}

thread_local! {
    // One entry per variant used on this thread: a session that switches variants
    // (or `bench`, which visits them all) builds each one's tables once.
    static CACHE: RefCell<Vec<(usize, Rc<Tables>)>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with the tables of `v` (built on first use in this thread).
#[inline]
pub fn with_tables<R>(v: &Variant, f: impl FnOnce(&Tables) -> R) -> R {
    // Variants are never freed (`Variants::load` leaks them), so an address names one.
    let id = v as *const Variant as usize;
    let t = CACHE.with(|c| {
        let mut c = c.borrow_mut();
        match c.iter().find(|(k, _)| *k == id) {
            Some((_, t)) => Rc::clone(t),
            None => {
                let t = Rc::new(build(v, super::params::for_variant(v)));
                c.push((id, Rc::clone(&t)));
                t
            }
        }
    });
    f(&t)
}
