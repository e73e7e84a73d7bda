//! Inputs relative to the own king: which copy of the inputs each square of a side's
//! king picks, and whether the board is turned left to right for it (docs/formats.md,
//! Networks). [`super::Layout`] applies them.

/// Most copies of the inputs a layout may have, one per bucket of king squares.
pub const MAX_KING_BUCKETS: usize = 32;

/// How the own king's square picks a copy of the inputs: the bucket of each square
/// (in the side's own view, after the mirror), and whether a king on the right half
/// turns the board left to right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingBuckets {
    pub table: [u8; 64],
    pub mirror: bool,
}

impl KingBuckets {
    /// One copy of the inputs and no mirror: the inputs know nothing of the kings.
    pub const NONE: KingBuckets = KingBuckets {
        table: [0; 64],
        mirror: false,
    };

    /// Copies of the inputs (the largest bucket plus one).
    pub fn count(&self) -> usize {
        *self.table.iter().max().unwrap_or(&0) as usize + 1
    }

    /// The buckets `lancer train --kings` names for a `width` x `height` board, by the
    /// rank from the side's own end and, for the first two ranks, the file: `none`; `m`,
    /// one bucket with the mirror; `4`: the first rank's two outer files, the rest of
    /// the first rank, the second rank, the rest; `8`: the first two ranks each split
    /// into outer files and inner, then the third, the fourth, the fifth and the rest;
    /// `4` and `8` mirror.
    pub fn preset(name: &str, width: u8, height: u8) -> Result<KingBuckets, String> {
        let mut table = [0u8; 64];
        let outer = width.div_ceil(4).max(1);
        let bucket = |rank: u8, file: u8, eight: bool| -> u8 {
            let inner = u8::from(file >= outer);
            match (eight, rank) {
                (false, 0) => inner,
                (false, 1) => 2,
                (false, _) => 3,
                (true, 0) => inner,
                (true, 1) => 2 + inner,
                (true, r) => (2 + r).min(7),
            }
        };
        let mirror = match name {
            "none" => false,
            "m" => true,
            "4" | "8" => {
                for rank in 0..height {
                    for file in 0..width {
                        table[(rank * 8 + file) as usize] = bucket(rank, file, name == "8");
                    }
                }
                true
            }
            _ => return Err(format!("unknown king buckets '{name}' (none, m, 4 or 8)")),
        };
        Ok(KingBuckets { table, mirror })
    }
}

/// How one side sees the board: the bucket of its king's square and whether the
/// board is turned left to right for it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Perspective {
    pub bucket: u8,
    pub mirror: bool,
}
