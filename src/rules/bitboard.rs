//! Squares, bitboards and attack tables on the 8x8 grid every board here fits in.
//!
//! A square is an index 0..63 (a1 = 0, b1 = 1, ..., h8 = 63); a [`Bitboard`] is a
//! `u64` with one bit per square. Variants with smaller boards or holes use a board
//! mask: slider attacks take `occupied | !mask` as blockers and are then masked, so
//! no square outside the board is ever produced.

use std::sync::LazyLock;

/// A set of squares, one bit per square of the 8x8 grid.
pub type Bitboard = u64;
/// A square index 0..63 (a1 = 0, h8 = 63).
pub type Square = u8;

/// Marker for "no square".
pub const NO_SQUARE: Square = 64;

/// The eight compass directions in facing order: n ne e se s sw w nw.
pub const DIRS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];
/// Direction indices of the diagonals (ne se sw nw).
pub const DIAGONALS: [usize; 4] = [1, 3, 5, 7];
/// Direction indices of the orthogonals (n e s w).
pub const ORTHOGONALS: [usize; 4] = [0, 2, 4, 6];

/// The file (0 = a) of a square.
#[inline(always)]
pub const fn file_of(sq: Square) -> u8 {
    sq & 7
}

/// The rank (0 = rank 1) of a square.
#[inline(always)]
pub const fn rank_of(sq: Square) -> u8 {
    sq >> 3
}

/// The square on `file`, `rank`.
#[inline(always)]
pub const fn square(file: u8, rank: u8) -> Square {
    rank * 8 + file
}

/// The one-square bitboard of `sq`.
#[inline(always)]
pub const fn bb(sq: Square) -> Bitboard {
    1u64 << (sq & 63)
}

/// Lowest set square (the bitboard must not be empty).
#[inline(always)]
pub fn lsb(b: Bitboard) -> Square {
    b.trailing_zeros() as Square
}

/// Highest set square (the bitboard must not be empty).
#[inline(always)]
pub fn msb(b: Bitboard) -> Square {
    63 - b.leading_zeros() as Square
}

/// Number of set squares.
#[inline(always)]
pub fn popcount(b: Bitboard) -> u32 {
    b.count_ones()
}

/// Iterator over the squares of a bitboard, lowest first.
#[derive(Clone, Copy)]
pub struct Squares(pub Bitboard);

impl Iterator for Squares {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let s = lsb(self.0);
            self.0 &= self.0 - 1;
            Some(s)
        }
    }
}

/// Squares of `b`.
#[inline(always)]
pub fn squares(b: Bitboard) -> Squares {
    Squares(b)
}

/// The square one step from `sq` in direction `dir` on the 8x8 grid, if any.
#[inline]
pub fn step(sq: Square, dir: usize) -> Option<Square> {
    let (df, dr) = DIRS[dir];
    let f = file_of(sq) as i8 + df;
    let r = rank_of(sq) as i8 + dr;
    if (0..8).contains(&f) && (0..8).contains(&r) {
        Some(square(f as u8, r as u8))
    } else {
        None
    }
}

/// Name of a square, e.g. `e4`.
pub fn square_name(sq: Square) -> String {
    format!("{}{}", (b'a' + file_of(sq)) as char, rank_of(sq) + 1)
}

/// Parses a square name such as `e4` on the 8x8 grid.
pub fn parse_square(s: &str) -> Option<Square> {
    let b = s.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some(square(b[0] - b'a', b[1] - b'1'))
}

struct Magic {
    mask: Bitboard,
    magic: u64,
    shift: u32,
    offset: usize,
}

/// Precomputed attack tables.
pub struct Tables {
    knight: [Bitboard; 64],
    king: [Bitboard; 64],
    pawn: [[Bitboard; 64]; 2],
    ray: [[Bitboard; 64]; 8],
    between: Box<[[Bitboard; 64]; 64]>,
    line: Box<[[Bitboard; 64]; 64]>,
    orth_adjacent: [Bitboard; 64],
    rook_magics: Vec<Magic>,
    bishop_magics: Vec<Magic>,
    slider_table: Vec<Bitboard>,
}

static TABLES: LazyLock<Tables> = LazyLock::new(Tables::build);

/// The attack tables (built once, on first use).
#[inline(always)]
pub fn tables() -> &'static Tables {
    &TABLES
}

fn slide(sq: Square, dirs: &[usize], occ: Bitboard) -> Bitboard {
    let mut out = 0;
    for &d in dirs {
        let mut s = sq;
        while let Some(n) = step(s, d) {
            out |= bb(n);
            if occ & bb(n) != 0 {
                break;
            }
            s = n;
        }
    }
    out
}

/// Relevant occupancy mask: the rays without their last square.
fn relevant(sq: Square, dirs: &[usize]) -> Bitboard {
    let mut out = 0;
    for &d in dirs {
        let mut s = sq;
        while let Some(n) = step(s, d) {
            if step(n, d).is_none() {
                break;
            }
            out |= bb(n);
            s = n;
        }
    }
    out
}

/// A small deterministic generator so the magic search gives the same tables on every run.
struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(2685821657736338717)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

fn find_magics(dirs: &[usize], table: &mut Vec<Bitboard>, rng: &mut XorShift) -> Vec<Magic> {
    let mut magics = Vec::with_capacity(64);
    for sq in 0..64u8 {
        let mask = relevant(sq, dirs);
        let bits = mask.count_ones();
        let size = 1usize << bits;
        // Enumerate all subsets of the mask (Carry-Rippler).
        let mut occs = Vec::with_capacity(size);
        let mut atts = Vec::with_capacity(size);
        let mut sub: Bitboard = 0;
        loop {
            occs.push(sub);
            atts.push(slide(sq, dirs, sub));
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        let shift = 64 - bits;
        let offset = table.len();
        table.resize(offset + size, 0);
        let mut used = vec![0u32; size];
        let mut attempt = 0u32;
        let magic = loop {
            let m = rng.sparse();
            if (mask.wrapping_mul(m) >> 56).count_ones() < 6 {
                continue;
            }
            attempt += 1;
            let mut ok = true;
            for i in 0..size {
                let idx = (occs[i].wrapping_mul(m) >> shift) as usize;
                if used[idx] != attempt {
                    used[idx] = attempt;
                    table[offset + idx] = atts[i];
                } else if table[offset + idx] != atts[i] {
                    ok = false;
                    break;
                }
            }
            if ok {
                break m;
            }
        };
        magics.push(Magic {
            mask,
            magic,
            shift,
            offset,
        });
    }
    magics
}

impl Tables {
    fn build() -> Tables {
        let mut knight = [0; 64];
        let mut king = [0; 64];
        let mut pawn = [[0; 64]; 2];
        let mut ray = [[0; 64]; 8];
        let mut orth_adjacent = [0; 64];
        for sq in 0..64u8 {
            let (f, r) = (file_of(sq) as i8, rank_of(sq) as i8);
            for (df, dr) in [
                (1, 2),
                (2, 1),
                (2, -1),
                (1, -2),
                (-1, -2),
                (-2, -1),
                (-2, 1),
                (-1, 2),
            ] {
                let (nf, nr) = (f + df, r + dr);
                if (0..8).contains(&nf) && (0..8).contains(&nr) {
                    knight[sq as usize] |= bb(square(nf as u8, nr as u8));
                }
            }
            for d in 0..8 {
                if let Some(n) = step(sq, d) {
                    king[sq as usize] |= bb(n);
                }
                ray[d][sq as usize] = slide(sq, &[d], 0);
            }
            for d in ORTHOGONALS {
                if let Some(n) = step(sq, d) {
                    orth_adjacent[sq as usize] |= bb(n);
                }
            }
            for d in [1, 7] {
                if let Some(n) = step(sq, d) {
                    pawn[0][sq as usize] |= bb(n);
                }
            }
            for d in [3, 5] {
                if let Some(n) = step(sq, d) {
                    pawn[1][sq as usize] |= bb(n);
                }
            }
        }
        let mut between = Box::new([[0; 64]; 64]);
        let mut line = Box::new([[0; 64]; 64]);
        for a in 0..64u8 {
            for d in 0..8 {
                let mut s = a;
                let mut acc = 0;
                while let Some(n) = step(s, d) {
                    between[a as usize][n as usize] = acc;
                    line[a as usize][n as usize] =
                        ray[d][a as usize] | ray[(d + 4) % 8][a as usize] | bb(a);
                    acc |= bb(n);
                    s = n;
                }
            }
        }
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        let mut slider_table = Vec::new();
        let rook_magics = find_magics(&ORTHOGONALS, &mut slider_table, &mut rng);
        let bishop_magics = find_magics(&DIAGONALS, &mut slider_table, &mut rng);
        Tables {
            knight,
            king,
            pawn,
            ray,
            between,
            line,
            orth_adjacent,
            rook_magics,
            bishop_magics,
            slider_table,
        }
    }

    /// Knight attacks from `sq`.
    #[inline(always)]
    pub fn knight(&self, sq: Square) -> Bitboard {
        self.knight[sq as usize & 63]
    }
    /// King-step attacks from `sq`.
    #[inline(always)]
    pub fn king(&self, sq: Square) -> Bitboard {
        self.king[sq as usize & 63]
    }
    /// Squares a pawn of `color` (0 White, 1 Black) on `sq` attacks.
    #[inline(always)]
    pub fn pawn(&self, color: usize, sq: Square) -> Bitboard {
        self.pawn[color & 1][sq as usize & 63]
    }
    /// The four orthogonal neighbours of `sq`.
    #[inline(always)]
    pub fn orth_adjacent(&self, sq: Square) -> Bitboard {
        self.orth_adjacent[sq as usize & 63]
    }
    /// All squares from `sq` in direction `dir` (excluding `sq`), on an empty grid.
    #[inline(always)]
    pub fn ray(&self, dir: usize, sq: Square) -> Bitboard {
        self.ray[dir & 7][sq as usize & 63]
    }
    /// Squares strictly between `a` and `b` when aligned, else empty.
    #[inline(always)]
    pub fn between(&self, a: Square, b: Square) -> Bitboard {
        self.between[a as usize & 63][b as usize & 63]
    }
    /// The whole line through `a` and `b` when aligned, else empty.
    #[inline(always)]
    pub fn line(&self, a: Square, b: Square) -> Bitboard {
        self.line[a as usize & 63][b as usize & 63]
    }
    /// Rook attacks from `sq` with blockers `occ` (the first blocker included).
    #[inline(always)]
    pub fn rook(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let m = &self.rook_magics[sq as usize & 63];
        let idx = ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
        self.slider_table[m.offset + idx]
    }
    /// Bishop attacks from `sq` with blockers `occ` (the first blocker included).
    #[inline(always)]
    pub fn bishop(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let m = &self.bishop_magics[sq as usize & 63];
        let idx = ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
        self.slider_table[m.offset + idx]
    }
    /// Queen attacks from `sq` with blockers `occ`.
    #[inline(always)]
    pub fn queen(&self, sq: Square, occ: Bitboard) -> Bitboard {
        self.rook(sq, occ) | self.bishop(sq, occ)
    }
    /// Squares along one direction from `sq` up to and including the first blocker.
    #[inline(always)]
    pub fn ray_attack(&self, dir: usize, sq: Square, blockers: Bitboard) -> Bitboard {
        let r = self.ray(dir, sq);
        let b = r & blockers;
        if b == 0 {
            return r;
        }
        // n, ne, e, nw go to higher indices.
        let first = if matches!(dir, 0..=2 | 7) {
            lsb(b)
        } else {
            msb(b)
        };
        r ^ self.ray(dir, first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_matches_slow_slide() {
        let t = tables();
        let mut rng = XorShift(12345);
        for _ in 0..2000 {
            let occ = rng.next() & rng.next();
            for sq in 0..64u8 {
                assert_eq!(t.rook(sq, occ), slide(sq, &ORTHOGONALS, occ));
                assert_eq!(t.bishop(sq, occ), slide(sq, &DIAGONALS, occ));
            }
        }
    }

    #[test]
    fn ray_attack_stops_at_first_blocker() {
        let t = tables();
        let e4 = parse_square("e4").unwrap();
        let blk = bb(parse_square("e6").unwrap()) | bb(parse_square("e2").unwrap());
        assert_eq!(
            t.ray_attack(0, e4, blk),
            bb(parse_square("e5").unwrap()) | bb(parse_square("e6").unwrap())
        );
        assert_eq!(
            t.ray_attack(4, e4, blk),
            bb(parse_square("e3").unwrap()) | bb(parse_square("e2").unwrap())
        );
        assert_eq!(
            t.between(0, 63).count_ones(),
            6,
            "a1-h8 has six squares between"
        );
    }
}
