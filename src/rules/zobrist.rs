//! Zobrist keys: pieces, piece state (facing, frozen), hands, side, castling, en passant.

use super::piece::NKINDS;
use std::sync::LazyLock;

/// The random keys.
pub struct Zobrist {
    /// Piece on square.
    pub psq: [[u64; 64]; 2 * NKINDS],
    /// Piece state (lancer facing 0..7 | FROZEN) on square; state 0 has key 0.
    pub state: [[u64; 64]; 16],
    /// Count of a kind in a side's hand (index = count, up to 63).
    pub hand: [[[u64; 64]; NKINDS]; 2],
    /// Castling right slot (side*2 + wing) with its partner square.
    pub castle: [[u64; 64]; 4],
    /// En passant square.
    pub ep: [u64; 64],
    /// Black to move.
    pub side: u64,
}

static ZOBRIST: LazyLock<Box<Zobrist>> = LazyLock::new(|| {
    let mut s: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        // splitmix64: well-mixed and deterministic.
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut z = Box::new(Zobrist {
        psq: [[0; 64]; 2 * NKINDS],
        state: [[0; 64]; 16],
        hand: [[[0; 64]; NKINDS]; 2],
        castle: [[0; 64]; 4],
        ep: [0; 64],
        side: 0,
    });
    for p in z.psq.iter_mut() {
        p.iter_mut().for_each(|k| *k = next());
    }
    for st in z.state.iter_mut().skip(1) {
        st.iter_mut().for_each(|k| *k = next());
    }
    for side in z.hand.iter_mut() {
        for kind in side.iter_mut() {
            kind.iter_mut().skip(1).for_each(|k| *k = next());
        }
    }
    for c in z.castle.iter_mut() {
        c.iter_mut().for_each(|k| *k = next());
    }
    z.ep.iter_mut().for_each(|k| *k = next());
    z.side = next();
    z
});

/// The key tables.
#[inline(always)]
pub fn zobrist() -> &'static Zobrist {
    &ZOBRIST
}
