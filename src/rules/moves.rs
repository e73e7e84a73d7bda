//! `Move`: a small `Copy` value, and a fixed-capacity move list (no allocation).

use super::bitboard::Square;
use super::piece::Kind;

/// What sort of move a [`Move`] is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveType {
    /// A plain move or capture (also lancer moves, with a facing).
    Normal = 0,
    /// A pawn promotion (with a facing when promoting to a lancer).
    Promotion = 1,
    /// En passant capture.
    EnPassant = 2,
    /// Castling: `from` is the king, `to` the partner's square.
    Castle = 3,
    /// A drop: `to` is the square, the piece kind is in `kind()`.
    Drop = 4,
    /// The pass of a side whose king is held.
    Pass = 5,
    /// Sentry capture: `to` is the victim, `aux` the landing square.
    SentryCapture = 6,
    /// Sentry capture over the edge: `to` is the victim, the sentry leaves the board.
    SentryEdge = 7,
}

/// A move. Layout: from(6) to(6) aux(6) kind+1(4) facing(3) has_facing(1) type(3) displace(1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u32);

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Move({:?} {}->{} aux {} kind {:?} facing {:?} displace {})",
            self.move_type(),
            self.from(),
            self.to(),
            self.aux(),
            self.kind(),
            self.facing(),
            self.is_displacement()
        )
    }
}

const TYPES: [MoveType; 8] = [
    MoveType::Normal,
    MoveType::Promotion,
    MoveType::EnPassant,
    MoveType::Castle,
    MoveType::Drop,
    MoveType::Pass,
    MoveType::SentryCapture,
    MoveType::SentryEdge,
];

impl Move {
    /// The "no move" value.
    pub const NONE: Move = Move(0);
    /// The pass.
    pub const PASS: Move = Move((MoveType::Pass as u32) << 26);

    /// A move of the given type between two squares.
    #[inline(always)]
    pub const fn new(t: MoveType, from: Square, to: Square) -> Move {
        Move((from as u32) | (to as u32) << 6 | (t as u32) << 26)
    }
    /// A plain move or capture.
    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move::new(MoveType::Normal, from, to)
    }
    /// A drop of `kind` on `to`.
    #[inline(always)]
    pub const fn drop(kind: Kind, to: Square) -> Move {
        Move((to as u32) << 6 | (kind as u32 + 1) << 18 | (MoveType::Drop as u32) << 26)
    }
    /// This move with a promotion kind set.
    #[inline(always)]
    pub const fn with_kind(self, k: Kind) -> Move {
        Move((self.0 & !(0xF << 18)) | (k as u32 + 1) << 18)
    }
    /// This move with a lancer facing set.
    #[inline(always)]
    pub const fn with_facing(self, f: u8) -> Move {
        Move((self.0 & !(0xF << 22)) | ((f as u32 & 7) << 22) | 1 << 25)
    }
    /// This move with an aux square (landing square, displacement square).
    #[inline(always)]
    pub const fn with_aux(self, sq: Square) -> Move {
        Move((self.0 & !(0x3F << 12)) | (sq as u32 & 63) << 12)
    }
    /// This capture of a standard-bearer, with the bearer put on `sq`.
    #[inline(always)]
    pub const fn with_displacement(self, sq: Square) -> Move {
        Move(self.with_aux(sq).0 | 1 << 29)
    }
    /// Origin square (meaningless for drops and the pass).
    #[inline(always)]
    pub const fn from(self) -> Square {
        (self.0 & 63) as Square
    }
    /// Destination (castling: partner square; sentry capture: victim square).
    #[inline(always)]
    pub const fn to(self) -> Square {
        ((self.0 >> 6) & 63) as Square
    }
    /// Aux square (sentry landing or displacement square).
    #[inline(always)]
    pub const fn aux(self) -> Square {
        ((self.0 >> 12) & 63) as Square
    }
    /// Promotion or drop kind.
    #[inline(always)]
    pub fn kind(self) -> Option<Kind> {
        let k = (self.0 >> 18) & 0xF;
        if k == 0 {
            None
        } else {
            Some(Kind::from_idx(k as usize - 1))
        }
    }
    /// New lancer facing, if the move sets one.
    #[inline(always)]
    pub const fn facing(self) -> Option<u8> {
        if self.0 & (1 << 25) != 0 {
            Some(((self.0 >> 22) & 7) as u8)
        } else {
            None
        }
    }
    /// The move type.
    #[inline(always)]
    pub const fn move_type(self) -> MoveType {
        TYPES[((self.0 >> 26) & 7) as usize]
    }
    /// Whether this captures a standard-bearer and displaces it to `aux`.
    #[inline(always)]
    pub const fn is_displacement(self) -> bool {
        self.0 & (1 << 29) != 0
    }
    /// Whether this is the pass.
    #[inline(always)]
    pub const fn is_pass(self) -> bool {
        self.0 == Move::PASS.0
    }
}

/// Capacity of a [`MoveList`]; enough for any position with at most 16 pieces a side.
pub const MAX_MOVES: usize = 1024;

/// A fixed-capacity list of moves on the stack; `N` moves at most (a smaller `N` is
/// cheaper to create, for lists that hold few moves).
#[derive(Clone)]
pub struct MoveList<const N: usize = MAX_MOVES> {
    moves: [Move; N],
    len: usize,
}

impl<const N: usize> Default for MoveList<N> {
    fn default() -> Self {
        Self::empty()
    }
}

impl MoveList {
    /// An empty list of the full capacity.
    #[inline(always)]
    pub fn new() -> MoveList {
        Self::empty()
    }
}

impl<const N: usize> MoveList<N> {
    /// An empty list.
    #[inline(always)]
    pub fn empty() -> Self {
        MoveList {
            moves: [Move::NONE; N],
            len: 0,
        }
    }
    /// Whether the list holds as many moves as it can (a further push would be lost).
    #[inline(always)]
    pub fn is_full(&self) -> bool {
        self.len == N
    }
    /// Appends a move (ignored when full: no reachable position fills the full capacity,
    /// and a smaller list's user checks [`MoveList::is_full`]).
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        if self.len < N {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }
    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }
    /// Whether there are none.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Empties the list.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// Keeps the first `n` moves.
    #[inline(always)]
    pub fn truncate(&mut self, n: usize) {
        self.len = self.len.min(n);
    }
    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
    /// The moves as a mutable slice.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
    /// Keeps only the moves for which `f` is true (order kept).
    #[inline(always)]
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if f(m) {
                self.moves[j] = m;
                j += 1;
            }
        }
        self.len = j;
    }
    /// Whether `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl<const N: usize> std::ops::Deref for MoveList<N> {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}
