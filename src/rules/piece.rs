//! Colours, piece kinds (mover families) and lancer facings.

use std::fmt;

/// A side.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline(always)]
    pub fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub fn idx(self) -> usize {
        self as usize
    }
    /// The side from an index (0 = White).
    #[inline(always)]
    pub fn from_idx(i: usize) -> Color {
        if i & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }
    /// `White` / `Black`.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

/// A mover family. A variant maps its piece letters to these.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Kind {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
    /// Moves along its facing over friendly pieces (docs/rules.md, "The lancer").
    Lancer = 6,
    /// Non-capturing rook mover that holds orthogonal enemy neighbours.
    Jailer = 7,
    /// Bishop mover that captures by jumping over its victim.
    Sentry = 8,
    /// The Royal Standard's standard-bearer.
    Bearer = 9,
    /// The Royal Standard's windmill.
    Windmill = 10,
    /// Lighthouse's bishop: a bishop plus one step straight forward.
    ForwardBishop = 11,
}

/// Number of piece kinds.
pub const NKINDS: usize = 12;

/// Every kind, in index order.
pub const ALL_KINDS: [Kind; NKINDS] = [
    Kind::Pawn,
    Kind::Knight,
    Kind::Bishop,
    Kind::Rook,
    Kind::Queen,
    Kind::King,
    Kind::Lancer,
    Kind::Jailer,
    Kind::Sentry,
    Kind::Bearer,
    Kind::Windmill,
    Kind::ForwardBishop,
];

impl Kind {
    /// Index 0..NKINDS.
    #[inline(always)]
    pub fn idx(self) -> usize {
        self as usize
    }
    /// The kind with index `i` (must be < NKINDS).
    #[inline(always)]
    pub fn from_idx(i: usize) -> Kind {
        // `min`, not `%`: a compare is cheaper than a division on this hot path.
        ALL_KINDS[i.min(NKINDS - 1)]
    }
    /// Name used in `variants.ini`.
    pub fn ini_name(self) -> &'static str {
        match self {
            Kind::Pawn => "pawn",
            Kind::Knight => "knight",
            Kind::Bishop => "bishop",
            Kind::Rook => "rook",
            Kind::Queen => "queen",
            Kind::King => "king",
            Kind::Lancer => "lancer",
            Kind::Jailer => "jailer",
            Kind::Sentry => "sentry",
            Kind::Bearer => "standardbearer",
            Kind::Windmill => "windmill",
            Kind::ForwardBishop => "forwardbishop",
        }
    }
    /// Parses a `variants.ini` kind name.
    pub fn from_ini_name(s: &str) -> Option<Kind> {
        ALL_KINDS.iter().copied().find(|k| k.ini_name() == s)
    }
}

/// A coloured piece packed in a byte: `kind << 1 | color`. [`NO_PIECE`] is empty.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Piece(pub u8);

/// The empty square marker.
pub const NO_PIECE: Piece = Piece(255);

impl Piece {
    /// The piece of `kind` and `color`.
    #[inline(always)]
    pub fn new(kind: Kind, color: Color) -> Piece {
        Piece(((kind as u8) << 1) | color as u8)
    }
    /// Its kind (the piece must not be empty).
    #[inline(always)]
    pub fn kind(self) -> Kind {
        Kind::from_idx((self.0 >> 1) as usize)
    }
    /// Its colour (the piece must not be empty).
    #[inline(always)]
    pub fn color(self) -> Color {
        Color::from_idx((self.0 & 1) as usize)
    }
    /// Whether the square is empty.
    #[inline(always)]
    pub fn is_none(self) -> bool {
        self.0 == 255
    }
    /// Index 0..2*NKINDS for tables.
    #[inline(always)]
    pub fn idx(self) -> usize {
        (self.0 as usize).min(2 * NKINDS - 1)
    }
}

/// Facing names in index order (n = toward rank 8).
pub const FACING_NAMES: [&str; 8] = ["n", "ne", "e", "se", "s", "sw", "w", "nw"];

/// Parses a facing name (`n`, `ne`, ...).
pub fn parse_facing(s: &str) -> Option<u8> {
    FACING_NAMES.iter().position(|&n| n == s).map(|i| i as u8)
}

/// A lancer facing 0..7 in the order of [`FACING_NAMES`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Facing(pub u8);

impl fmt::Display for Facing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(FACING_NAMES[(self.0 & 7) as usize])
    }
}

/// Piece state bit: a displaced standard-bearer that may not move on its owner's next turn.
pub const FROZEN: u8 = 8;
/// Piece state mask of the lancer facing.
pub const FACING_MASK: u8 = 7;
