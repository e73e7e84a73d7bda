//! Board geometry on the 8x8 grid, as the evaluation's pawn, king and piece terms
//! ask for it: files, the ranks ahead of a side, king distance.

use super::bitboard::*;
use super::piece::Color;

/// The squares of file a.
pub const FILE_A: Bitboard = 0x0101_0101_0101_0101;

/// King steps between two squares.
#[inline(always)]
pub fn distance(a: Square, b: Square) -> i32 {
    (file_of(a) as i32 - file_of(b) as i32)
        .abs()
        .max((rank_of(a) as i32 - rank_of(b) as i32).abs())
}

/// The square in front of `sq` as side `c` looks (none beyond the edge of the grid).
#[inline(always)]
pub fn front(c: Color, sq: Square) -> Option<Square> {
    step(sq, if c == Color::White { 0 } else { 4 })
}

/// The files next to file `f`.
#[inline(always)]
pub fn adjacent_files(f: u8) -> Bitboard {
    (if f > 0 { FILE_A << (f - 1) } else { 0 }) | (if f < 7 { FILE_A << (f + 1) } else { 0 })
}

/// The ranks in front of `sq` as side `c` looks (none beyond the eighth).
#[inline(always)]
pub fn ranks_ahead(c: Color, sq: Square) -> Bitboard {
    match c {
        Color::White if rank_of(sq) >= 7 => 0,
        Color::White => !0u64 << (8 * (rank_of(sq) as u32 + 1)),
        Color::Black => (1u64 << (8 * rank_of(sq) as u32)) - 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_of_the_grid() {
        let (a1, h8, e4) = (square(0, 0), square(7, 7), square(4, 3));
        assert_eq!(distance(a1, h8), 7);
        assert_eq!(distance(e4, square(5, 5)), 2);
        assert_eq!(front(Color::White, e4), Some(square(4, 4)));
        assert_eq!(front(Color::Black, e4), Some(square(4, 2)));
        assert_eq!(front(Color::White, h8), None);
        assert_eq!(adjacent_files(0), FILE_A << 1);
        assert_eq!(adjacent_files(4), FILE_A << 3 | FILE_A << 5);
        assert_eq!(ranks_ahead(Color::White, h8), 0);
        assert_eq!(ranks_ahead(Color::White, e4), !0u64 << 32);
        assert_eq!(ranks_ahead(Color::Black, e4), (1u64 << 24) - 1);
    }
}
