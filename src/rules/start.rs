//! The start position of a variant: its fixed EFEN, or one of its random setups
//! (numbered in [`super::setups`]), drawn from a seed when one is given.

use super::position::Position;
use super::variant::{Start, Variant};
use rand::SeedableRng;

/// The setup number a seeded game of a random variant starts from.
pub fn seeded_setup(v: &Variant, seed: u64) -> Option<usize> {
    v.random_setup(&mut rand::rngs::StdRng::seed_from_u64(seed))
}

/// The start position of `v` (a seeded random setup when `seed` is given).
pub fn start_position(v: &'static Variant, seed: Option<u64>) -> Result<Position, String> {
    let fen = match (&v.start, seed) {
        (Start::Random(r), Some(s)) => {
            let n = seeded_setup(v, s).unwrap_or(0);
            v.setup_fen(*r, n)?
        }
        _ => v.default_start_fen(),
    };
    Position::from_efen(v, &fen)
}
