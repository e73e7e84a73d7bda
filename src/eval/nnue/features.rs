//! A network's inputs (docs/formats.md, Networks): each is a colour, a group and a
//! bit. A group is a piece kind with its state on the board (a lancer with each facing
//! is a group of its own, a frozen standard-bearer too), whose bit is the square, or a
//! kind in hand, whose bit `i` says the hand holds more than `i` of it, or (optional)
//! the units an enemy jailer holds. Holes never hold a piece, so they are never inputs.
//!
//! Each side sees the position as its own: its pieces first, and for Black the board
//! turned upside down (ranks counted from its side, a lancer's facing turned with it).
//!
//! A layout may also make the inputs relative to the side's own king ([`KingBuckets`]):
//! the square of its king picks one of several copies of the inputs, and with a mirror
//! a king on the right half of the board sees the board turned left to right (files
//! and facings), so that it always stands on the left half.

use super::kings::{KingBuckets, Perspective, MAX_KING_BUCKETS};
use crate::rules::bitboard::{bb, Bitboard};
use crate::rules::piece::{Color, Kind, ALL_KINDS, FACING_MASK};
use crate::rules::{Position, Variant};

/// Groups a network can have.
pub const MAX_GROUPS: usize = 32;

/// What one group of 64 inputs stands for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Group {
    /// A piece of this kind on a square (any kind without a state of its own).
    Piece(Kind),
    /// A lancer with this facing (0 = north, clockwise) on a square.
    Lancer(u8),
    /// A standard-bearer, frozen or not, on a square.
    Bearer { frozen: bool },
    /// Pieces of this kind in hand: bit `i` is the hand holding more than `i`.
    Hand(Kind),
    /// A piece of any kind held by an enemy jailer, on a square (beside its own
    /// piece input). Optional: a network without it still judges jailer variants.
    Held,
}

/// A facing seen with the board turned upside down (north and south swap).
fn facing_vflip(f: u8) -> u8 {
    (12 - f) % 8
}

/// A facing seen in a mirror (files a-h turned round: east and west swap).
fn facing_hflip(f: u8) -> u8 {
    (8 - f) & 7
}

impl Group {
    /// The two bytes a network file stores for the group.
    pub fn encode(self) -> [u8; 2] {
        match self {
            Group::Piece(k) => [0, k.idx() as u8],
            Group::Lancer(f) => [1, f],
            Group::Bearer { frozen } => [2, u8::from(frozen)],
            Group::Hand(k) => [3, k.idx() as u8],
            Group::Held => [4, 0],
        }
    }

    /// The group of two stored bytes.
    pub fn decode(b: [u8; 2]) -> Result<Group, String> {
        let kind = || {
            ALL_KINDS
                .get(b[1] as usize)
                .copied()
                .ok_or_else(|| format!("network names kind {}, which does not exist", b[1]))
        };
        match b[0] {
            0 => Ok(Group::Piece(kind()?)),
            1 if b[1] <= FACING_MASK => Ok(Group::Lancer(b[1])),
            2 if b[1] <= 1 => Ok(Group::Bearer { frozen: b[1] == 1 }),
            3 => Ok(Group::Hand(kind()?)),
            4 if b[1] == 0 => Ok(Group::Held),
            _ => Err(format!("network has an unknown input group {b:?}")),
        }
    }

    /// Whether its bits are squares (not counts in hand).
    pub fn on_board(self) -> bool {
        !matches!(self, Group::Hand(_))
    }

    /// The group seen with the board turned upside down.
    fn vflip(self) -> Group {
        match self {
            Group::Lancer(f) => Group::Lancer(facing_vflip(f)),
            g => g,
        }
    }

    /// The group seen in a mirror.
    fn hflip(self) -> Group {
        match self {
            Group::Lancer(f) => Group::Lancer(facing_hflip(f)),
            g => g,
        }
    }

    /// The bits of colour `c`'s pieces of this group in `pos`.
    #[inline(always)]
    fn bits(self, pos: &Position, c: Color) -> Bitboard {
        match self {
            Group::Piece(k) => pos.pieces_of(c, k),
            Group::Lancer(f) => {
                let mut out = 0;
                let mut b = pos.pieces_of(c, Kind::Lancer);
                while b != 0 {
                    let sq = b.trailing_zeros() as u8;
                    b &= b - 1;
                    if pos.facing_at(sq) == f {
                        out |= bb(sq);
                    }
                }
                out
            }
            Group::Bearer { frozen } => {
                let f = if frozen { pos.frozen() } else { !pos.frozen() };
                pos.pieces_of(c, Kind::Bearer) & f
            }
            Group::Hand(k) => {
                let n = u32::from(pos.hand(c, k)).min(63);
                (1u64 << n) - 1
            }
            Group::Held => pos.held(c),
        }
    }
}

/// The groups a network for `v` has, in file order: each kind of the variant on the
/// board (lancers once per facing, bearers frozen and not), then each kind a capture
/// can put in hand where the variant drops.
pub fn groups_of(v: &Variant) -> Result<Vec<Group>, String> {
    let mut gs = Vec::new();
    for k in ALL_KINDS.into_iter().filter(|&k| v.has(k)) {
        match k {
            Kind::Lancer => gs.extend((0..8).map(Group::Lancer)),
            Kind::Bearer => gs.extend([false, true].map(|frozen| Group::Bearer { frozen })),
            _ => gs.push(Group::Piece(k)),
        }
    }
    if v.drops {
        for k in ALL_KINDS.into_iter().filter(|&k| {
            ALL_KINDS
                .iter()
                .any(|&c| c != Kind::King && v.has(c) && v.demote[c.idx()] == k)
        }) {
            gs.push(Group::Hand(k));
        }
    }
    if gs.len() > MAX_GROUPS {
        return Err(format!(
            "{} needs {} input groups; a network has at most {MAX_GROUPS}",
            v.name,
            gs.len()
        ));
    }
    Ok(gs)
}

/// The inputs of one network: its groups, the board they lie on and the king buckets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub groups: Vec<Group>,
    /// Files of the board.
    pub width: u8,
    /// Ranks of the board.
    pub height: u8,
    /// Copies of the inputs by the own king's square.
    pub kings: KingBuckets,
    /// Each group's index seen from Black (a lancer's facing turned).
    vflip: [u8; MAX_GROUPS],
    /// Each group's index seen in a mirror, where the mirrored group is there.
    hflip: [Option<u8>; MAX_GROUPS],
}

impl Layout {
    /// The layout of `groups` on a `width` x `height` board (1 to 8 each).
    pub fn new(groups: Vec<Group>, width: u8, height: u8) -> Result<Layout, String> {
        if groups.is_empty() || groups.len() > MAX_GROUPS {
            return Err(format!(
                "network has {} input groups (1 to {MAX_GROUPS})",
                groups.len()
            ));
        }
        if !(1..=8).contains(&width) || !(1..=8).contains(&height) {
            return Err(format!("network is for a {width}x{height} board"));
        }
        for (i, g) in groups.iter().enumerate() {
            if groups[..i].contains(g) {
                return Err(format!("network names input group {g:?} twice"));
            }
        }
        let mut vflip = [0u8; MAX_GROUPS];
        for (i, g) in groups.iter().enumerate() {
            // A layout whose turned group is missing cannot see Black's pieces.
            vflip[i] = groups
                .iter()
                .position(|x| *x == g.vflip())
                .ok_or_else(|| format!("network has {g:?} but not {:?}", g.vflip()))?
                as u8;
        }
        let mut hflip = [None; MAX_GROUPS];
        for (i, g) in groups.iter().enumerate() {
            hflip[i] = groups.iter().position(|x| *x == g.hflip()).map(|j| j as u8);
        }
        Ok(Layout {
            groups,
            width,
            height,
            kings: KingBuckets::NONE,
            vflip,
            hflip,
        })
    }

    /// The layout with inputs relative to the own king by `kings`: refused where a
    /// bucket lies on no square of the board, there are more than
    /// [`MAX_KING_BUCKETS`], or the mirror lacks a group's mirrored twin.
    pub fn with_kings(mut self, kings: KingBuckets) -> Result<Layout, String> {
        let n = kings.count();
        if n > MAX_KING_BUCKETS {
            return Err(format!(
                "network has {n} king buckets (1 to {MAX_KING_BUCKETS})"
            ));
        }
        let mut used = [false; MAX_KING_BUCKETS];
        for rank in 0..self.height {
            for file in 0..self.width {
                if !kings.mirror || file <= (self.width - 1) / 2 {
                    used[kings.table[(rank * 8 + file) as usize] as usize] = true;
                }
            }
        }
        if let Some(b) = (0..n).find(|&b| !used[b]) {
            return Err(format!(
                "network has king bucket {b}, which no square of its {}x{} board uses",
                self.width, self.height
            ));
        }
        if kings.mirror {
            if let Some(i) = (0..self.groups.len()).find(|&i| self.hflip[i].is_none()) {
                return Err(format!(
                    "network mirrors the board but has {:?} and not {:?}",
                    self.groups[i],
                    self.groups[i].hflip()
                ));
            }
        }
        self.kings = kings;
        Ok(self)
    }

    /// Inputs of every copy: [`Layout::inputs`] times the king buckets.
    pub fn features(&self) -> usize {
        self.inputs() * self.kings.count()
    }

    /// How side `view` sees `pos`: its king's bucket and whether it mirrors.
    #[inline(always)]
    pub fn perspective(&self, pos: &Position, view: Color) -> Perspective {
        let Some(k) = pos.king_sq(view) else {
            return Perspective::default();
        };
        let (mut rank, mut file) = (k / 8, k % 8);
        if view == Color::Black {
            rank = self.height - 1 - rank;
        }
        let mirror = self.kings.mirror && file > (self.width - 1) / 2;
        if mirror {
            file = self.width - 1 - file;
        }
        Perspective {
            bucket: self.kings.table[(rank * 8 + file) as usize],
            mirror,
        }
    }

    /// The row of colour `c`'s bit `bit` of group `g` for side `view` seeing the board
    /// as `p` says: [`Layout::input`], turned left to right in a mirror, in the copy of
    /// the king's bucket.
    #[inline(always)]
    pub fn feature(&self, view: Color, p: Perspective, c: Color, g: usize, bit: u8) -> usize {
        let i = self.input(view, c, g, bit);
        let i = if p.mirror { self.mirrored(i) } else { i };
        p.bucket as usize * self.inputs() + i
    }

    /// Input `i` of one copy seen in a mirror (files turned round, facings with them);
    /// the mirrored group must be there ([`Layout::with_kings`] checks it where the
    /// layout mirrors).
    #[inline(always)]
    fn mirrored(&self, i: usize) -> usize {
        let n = self.groups.len();
        let (block, bit) = (i / 64, (i % 64) as u8);
        let (rel, g) = (block / n, block % n);
        let g2 = self.hflip[g].map_or(g, |x| x as usize);
        let bit = if self.groups[g].on_board() {
            (bit / 8) * 8 + (self.width - 1 - bit % 8)
        } else {
            bit
        };
        (rel * n + g2) * 64 + bit as usize
    }

    /// The layout of a network for `v`.
    pub fn for_variant(v: &Variant) -> Result<Layout, String> {
        Layout::new(groups_of(v)?, v.width, v.height)
    }

    /// The layout of a network for `v` with the optional [`Group::Held`] too, where
    /// `v` has jailers.
    pub fn for_variant_held(v: &Variant) -> Result<Layout, String> {
        let mut gs = groups_of(v)?;
        if v.has(Kind::Jailer) {
            gs.push(Group::Held);
        }
        Layout::new(gs, v.width, v.height)
    }

    /// Whether a network of this layout can judge `v`'s positions: the same board and
    /// a group for every group of `v` (optional groups need not be there).
    pub fn covers(&self, v: &Variant) -> bool {
        v.width == self.width
            && v.height == self.height
            && groups_of(v).is_ok_and(|gs| gs.iter().all(|g| self.groups.contains(g)))
    }

    /// Inputs per side.
    pub fn inputs(&self) -> usize {
        2 * self.groups.len() * 64
    }

    /// The input of colour `c`'s bit `bit` of group `g` as side `view` sees it.
    #[inline(always)]
    pub fn input(&self, view: Color, c: Color, g: usize, bit: u8) -> usize {
        let rel = usize::from(c != view);
        let n = self.groups.len();
        let (g, bit) = if view == Color::White {
            (g, bit)
        } else if self.groups[g].on_board() {
            let (rank, file) = (bit / 8, bit % 8);
            (self.vflip[g] as usize, (self.height - 1 - rank) * 8 + file)
        } else {
            (g, bit)
        };
        (rel * n + g) * 64 + bit as usize
    }

    /// White's input `i` in a mirror (files turned round, facings with them), for
    /// training on the mirrored position too; `None` where the layout lacks the
    /// mirrored group.
    pub fn mirror(&self, i: usize) -> Option<usize> {
        let n = self.groups.len();
        self.hflip[(i / 64) % n]?;
        Some(self.mirrored(i))
    }

    /// The bits of every group of `pos` (White's groups, then Black's).
    #[inline(always)]
    pub fn bits(&self, pos: &Position) -> [Bitboard; 2 * MAX_GROUPS] {
        let mut p = [0; 2 * MAX_GROUPS];
        let n = self.groups.len();
        for (i, g) in self.groups.iter().enumerate() {
            p[i] = g.bits(pos, Color::White);
            p[n + i] = g.bits(pos, Color::Black);
        }
        p
    }

    /// The inputs of `pos` as White sees it.
    pub fn white_inputs(&self, pos: &Position, out: &mut Vec<u16>) {
        let n = self.groups.len();
        for (i, mut b) in self.bits(pos).into_iter().take(2 * n).enumerate() {
            let (c, g) = if i < n {
                (Color::White, i)
            } else {
                (Color::Black, i - n)
            };
            while b != 0 {
                let bit = b.trailing_zeros() as u8;
                b &= b - 1;
                out.push(self.input(Color::White, c, g, bit) as u16);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_counts_are_the_documented_ones() {
        let vs = crate::rules::Variants::builtin();
        for (name, n) in [
            ("chess", 768),
            ("fischerandom", 768),
            ("fullcavalry", 1664),
            ("eightpiece", 2048),
            ("eightpiecerandom", 2048),
            ("royalstandard", 768),
            ("lighthouse", 1280),
        ] {
            let l = Layout::for_variant(vs.get(name).unwrap()).unwrap();
            assert_eq!(l.inputs(), n, "{name}: {:?}", l.groups);
        }
    }

    #[test]
    fn held_units_have_inputs_of_their_own_only_in_a_held_layout() {
        let vs = crate::rules::Variants::builtin();
        let v = vs.get("eightpiece").unwrap();
        let plain = Layout::for_variant(v).unwrap();
        let held = Layout::for_variant_held(v).unwrap();
        assert_eq!(held.inputs(), plain.inputs() + 128);
        assert!(plain.covers(v) && held.covers(v));
        // Black's king on e8 beside White's jailer on e7 (docs/rules.md, the jailer).
        let pos = Position::from_efen(v, "4k3/4J3/8/8/8/8/8/4K3 b - - 0 1").unwrap();
        assert_eq!(pos.held(Color::Black), bb(60));
        let (mut a, mut b) = (Vec::new(), Vec::new());
        plain.white_inputs(&pos, &mut a);
        held.white_inputs(&pos, &mut b);
        let g = held.groups.len() - 1;
        assert_eq!(held.groups[g], Group::Held);
        let king = held.input(Color::White, Color::Black, g, 60) as u16;
        assert_eq!(b.len(), a.len() + 1);
        assert!(b.contains(&king) && !a.contains(&king));
        // Seen from Black, its own held king stands on its first rank.
        assert_eq!(held.input(Color::Black, Color::Black, g, 60), g * 64 + 4);
    }

    #[test]
    fn facings_turn_with_the_board() {
        // n ne e se s sw w nw
        assert_eq!(
            (0..8).map(facing_vflip).collect::<Vec<_>>(),
            [4, 3, 2, 1, 0, 7, 6, 5]
        );
        assert_eq!(
            (0..8).map(facing_hflip).collect::<Vec<_>>(),
            [0, 7, 6, 5, 4, 3, 2, 1]
        );
    }
}
