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

/// The two characters of a square's name on the 8x8 grid (`e4` as `b"e4"`), for
/// comparing with text without making a string.
pub const fn square_chars(sq: Square) -> [u8; 2] {
    [b'a' + file_of(sq), b'1' + rank_of(sq)]
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

// Magic numbers found by `find_magics` itself (seed below) and kept so that start-up
// does not repeat the search; `magics_are_valid` re-derives them if they ever fail.
const ROOK_MAGICS: [u64; 64] = [
    0x1080004008801020,
    0x0840092002C03000,
    0x1900200010400900,
    0x0880100008000480,
    0x4200100420080200,
    0x8100020100080400,
    0x0200040110886200,
    0x0200008040220411,
    0x0404800084400220,
    0x0000401000402000,
    0x0086001081220440,
    0x0408800800100280,
    0x000A001201040820,
    0x8848800200840080,
    0x4001000100040200,
    0x0442000102105084,
    0x9080010020804100,
    0x0040404000201009,
    0x0000808010002009,
    0x2200090021D00100,
    0x0008008008040080,
    0x0004004002010040,
    0x0011040008015042,
    0x00000A0001768104,
    0x0000800080204009,
    0x2010004140002001,
    0x9800200280100080,
    0x1000100080080080,
    0x0442000A00049020,
    0x2100040080020080,
    0x0800120400900148,
    0x0010040A00128541,
    0x2800804000800030,
    0x1010002000400041,
    0x4000200011004100,
    0x0610008410800800,
    0x0400802402800800,
    0xC100020080800400,
    0x0002000802000401,
    0x0182085882000401,
    0x0220204000808000,
    0x2860100040024022,
    0x0001002004110040,
    0x99101042000A0020,
    0x0004080004008080,
    0x0010040002008080,
    0x2012004881020004,
    0x8300842444820011,
    0x0088403882010200,
    0x0820400080210100,
    0x0110910040A00300,
    0x0801100280080480,
    0x0242009008200600,
    0x1002000489500200,
    0x0040800200010080,
    0x0091800041000080,
    0x0000209300488001,
    0x04C1002414824001,
    0x020020000B001041,
    0x7000100004200901,
    0x8002002004100802,
    0x30010002084C0007,
    0x0888221800813004,
    0x4000002840840112,
];
const BISHOP_MAGICS: [u64; 64] = [
    0xA010041108003100,
    0x006082020A002900,
    0x6810010619200000,
    0x08281A0520000408,
    0x0001104001000400,
    0x0018901008048400,
    0x00040A0210245280,
    0x000200210808A402,
    0x9140048410821200,
    0x0800091010820041,
    0x20504804832202C0,
    0x0100091401081000,
    0x8021011140000012,
    0x0810020804450400,
    0x208B0542109008A2,
    0x0080084A08040204,
    0x0040E2A80811244C,
    0x2505022008008108,
    0x0430220100420040,
    0x010A040420220040,
    0x1105000290400000,
    0x0093001200822120,
    0x4000A62048043004,
    0x280120048A015004,
    0x006090002A020814,
    0x44042000240800D0,
    0x01102800040A4400,
    0x1004080080220040,
    0x0001001011004024,
    0x0010044000805040,
    0x0914041200820100,
    0x0004821012821480,
    0x0024040500C05021,
    0x0088611002080200,
    0x0116080A00040020,
    0x4000020080080080,
    0x2450450140840040,
    0x0000880201484100,
    0x0222020404020092,
    0x8081110600002E00,
    0x2842101105000801,
    0x1100809008001025,
    0x00020202221C0400,
    0x0422014022009020,
    0x0210046102100C00,
    0xC004008082029102,
    0x00AA461801101200,
    0x0404080080201108,
    0x020542108C205002,
    0x0410544804100100,
    0x0040910841100000,
    0x0400200042021100,
    0x00004204850400C0,
    0x0200100410A42102,
    0x1040020801210102,
    0x0805040410420000,
    0x2884804130100200,
    0x800C262201242000,
    0x1058000194108800,
    0x0014221054420204,
    0x0104000012A02200,
    0x0200881003300100,
    0x0140400202840100,
    0x0402020801010201,
];

struct Magic {
    mask: Bitboard,
    magic: u64,
    shift: u32,
    offset: usize,
}

/// Precomputed attack tables.
pub struct AttackTables {
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

static TABLES: LazyLock<AttackTables> = LazyLock::new(AttackTables::build);

/// The attack tables (built once, on first use).
#[inline(always)]
pub fn tables() -> &'static AttackTables {
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

fn find_magics(
    dirs: &[usize],
    known: &[u64; 64],
    table: &mut Vec<Bitboard>,
    rng: &mut XorShift,
) -> Vec<Magic> {
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
            // Try the number this search found before; search again only if it fails.
            let m = if attempt == 0 {
                known[sq as usize]
            } else {
                rng.sparse()
            };
            if attempt > 0 && (mask.wrapping_mul(m) >> 56).count_ones() < 6 {
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

impl AttackTables {
    fn build() -> AttackTables {
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
        let rook_magics = find_magics(&ORTHOGONALS, &ROOK_MAGICS, &mut slider_table, &mut rng);
        let bishop_magics = find_magics(&DIAGONALS, &BISHOP_MAGICS, &mut slider_table, &mut rng);
        AttackTables {
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

    /// Prints the magic numbers for the constants above (`cargo test print_magics -- --ignored --nocapture`).
    #[test]
    #[ignore = "tool"]
    fn print_magics() {
        let t = tables();
        let r: Vec<String> = t
            .rook_magics
            .iter()
            .map(|m| format!("0x{:016X}", m.magic))
            .collect();
        let b: Vec<String> = t
            .bishop_magics
            .iter()
            .map(|m| format!("0x{:016X}", m.magic))
            .collect();
        println!("ROOK {}", r.join(", "));
        println!("BISHOP {}", b.join(", "));
    }

    #[test]
    fn magics_are_the_stored_ones() {
        let t = tables();
        for sq in 0..64 {
            assert_eq!(t.rook_magics[sq].magic, ROOK_MAGICS[sq], "rook {sq}");
            assert_eq!(t.bishop_magics[sq].magic, BISHOP_MAGICS[sq], "bishop {sq}");
        }
    }

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
