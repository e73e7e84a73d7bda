//! A variant is data: the rule struct built from a `variants.ini` section.

use super::bitboard::*;
use super::piece::*;
pub use super::setups::RandomSetup;
use super::setups::{back_rank, default_index, setup_count};

/// How a game is won.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Goal {
    /// Checkmate wins; moves that leave one's king attacked are illegal.
    Checkmate,
    /// Capturing the king wins; there is no check (The Royal Standard).
    KingCapture,
}

/// Which castling moves exist.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Castling {
    /// No castling.
    None,
    /// King and partners on their standard squares; move text is king from + king to.
    Standard,
    /// Chess960 rules: any start files; move text is king from + partner square.
    Chess960,
}

/// How the start position is chosen.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Start {
    /// A fixed EFEN.
    Fen(String),
    /// One of a numbered family of random setups.
    Random(RandomSetup),
}

/// The rules of one variant. Generic code asks this struct, never the variant's name.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Name used everywhere (CLI, UCI_Variant, XBoard, PGN).
    pub name: String,
    /// Name XBoard knows it by (`normal` for chess).
    pub xboard_name: String,
    /// XBoard's `setup` piece-to-char table (`None`: XBoard knows the variant and
    /// gets no `setup` line).
    pub xboard_setup: Option<String>,
    /// The XBoard variant this one is played as a child of (`fairy`, `crazyhouse`).
    pub xboard_parent: String,
    /// XBoard `piece` commands (without the word `piece`), sent after `setup`.
    pub xboard_pieces: Vec<String>,
    /// XBoard draws this variant's random setups itself and sends them with
    /// `setboard` (fischerandom); otherwise the engine draws one per game.
    pub xboard_shuffles: bool,
    /// The piece values of a small board (long-range pieces are worth less).
    pub small_board_values: bool,
    /// The variant played instead under UCI_Chess960 (chess: fischerandom).
    pub chess960_variant: Option<String>,
    /// The win/draw/loss model `[a0, a1, a2, b0, b1, b2]` of `UCI_ShowWDL` (see
    /// `search::wdl`); `None`: the default model (`search::wdl::DEFAULT_MODEL`).
    pub wdl_model: Option<[f64; 6]>,
    /// The search's parameters in this variant (`searchParams` key: `name=value ...`
    /// over the defaults, see `lancer params`); empty: the defaults.
    pub search_params: String,
    /// The network the evaluation uses (`network` key: a network built into the engine),
    /// `None` for the hand-made evaluation alone.
    pub network: Option<String>,
    /// The section of the tuned weights the evaluation uses (`weights` key), `None` for
    /// the hand-set weights.
    pub weights: Option<String>,
    /// Board width (files).
    pub width: u8,
    /// Board height (ranks).
    pub height: u8,
    /// Real squares of the board.
    pub mask: Bitboard,
    /// Letter of each kind (upper case), `'\0'` when the kind is absent.
    pub letters: [char; NKINDS],
    /// Bit set of the kinds present.
    pub kinds: u32,
    /// Start position rule.
    pub start: Start,
    /// Castling rule.
    pub castling: Castling,
    /// Kinds that may be the castling partner.
    pub castling_partners: u32,
    /// Promotion choices in the order they are generated.
    pub promotions: Vec<Kind>,
    /// At most this many pieces of each kind on the board per side (255 = no limit);
    /// promotion is impossible while the limit is reached.
    pub limits: [u8; NKINDS],
    /// Captured pieces go to the capturer's hand and may be dropped.
    pub drops: bool,
    /// The kind a captured piece turns into in the hand.
    pub demote: [Kind; NKINDS],
    /// How the game is won.
    pub goal: Goal,
    /// Plies of the n-move rule (0 = none).
    pub n_move_rule: u16,
    /// Whether a pawn move resets the n-move counter.
    pub n_move_reset_on_pawn: bool,
    /// Pawns may step twice from their second rank.
    pub double_step: bool,
    /// En passant captures exist.
    pub en_passant: bool,
    /// A lancer may face a direction with no square in front of it.
    pub lancer_may_face_edge: bool,
    /// A side whose king is held (and not in check) may pass.
    pub pass_when_held: bool,
    /// The Royal Standard's mobility rule.
    pub mobility_rule: bool,
    /// A king may capture (and displace) its own standard-bearers.
    pub king_captures_own_bearer: bool,
    /// Draw by insufficient material as in FIDE chess.
    pub insufficient_material: bool,
    // Derived from the fields above when the variant is built: only the rules write
    // them, so that they cannot disagree with the rules they are derived from.
    /// Facings allowed on each square (bit f = facing f), per rule 3 of the lancer.
    pub(super) facing_ok: [u8; 64],
    /// Only the chess family of movers and checkmate: the fast pin-based legality test applies.
    pub(super) simple: bool,
    /// Game-phase weight of the start position's pieces (for tapered evaluation).
    pub(super) start_phase: i32,
}

/// Game-phase weight of a piece kind: minor pieces 1, rook-like 2, queen 4.
pub fn phase_weight(k: Kind) -> i32 {
    match k {
        Kind::Knight | Kind::Bishop | Kind::Sentry | Kind::ForwardBishop | Kind::Windmill => 1,
        Kind::Rook | Kind::Lancer | Kind::Jailer => 2,
        Kind::Queen => 4,
        Kind::Pawn | Kind::King | Kind::Bearer => 0,
    }
}

impl Variant {
    /// Whether `kind` exists in this variant.
    #[inline(always)]
    pub fn has(&self, kind: Kind) -> bool {
        self.kinds & (1 << kind as u32) != 0
    }

    /// Whether a capture can put a piece of `kind` in hand (drop variants only):
    /// some kind of the variant other than the king turns into it when captured.
    pub fn can_hold(&self, kind: Kind) -> bool {
        self.drops
            && ALL_KINDS
                .iter()
                .any(|&c| c != Kind::King && self.has(c) && self.demote[c.idx()] == kind)
    }

    /// Whether `sq` is a real square of this board.
    #[inline(always)]
    pub fn on_board(&self, sq: Square) -> bool {
        sq < 64 && self.mask & bb(sq) != 0
    }

    /// The rank index (0-based) a side's pieces start on.
    #[inline(always)]
    pub fn back_rank(&self, c: Color) -> u8 {
        match c {
            Color::White => 0,
            Color::Black => self.height - 1,
        }
    }

    /// How many ranks `sq` lies in front of side `c`'s back rank.
    #[inline(always)]
    pub fn relative_rank(&self, c: Color, sq: Square) -> u8 {
        rank_of(sq).abs_diff(self.back_rank(c))
    }

    /// The rank index a side's pawns promote on.
    #[inline(always)]
    pub fn promotion_rank(&self, c: Color) -> u8 {
        self.back_rank(c.flip())
    }

    /// All squares of a rank index, restricted to the board.
    #[inline(always)]
    pub fn rank_bb(&self, r: u8) -> Bitboard {
        (0xFFu64 << (8 * r as u32)) & self.mask
    }

    /// The piece letter for a piece (upper case for White).
    pub fn piece_char(&self, p: Piece) -> char {
        let c = self.letters[p.kind().idx()];
        match p.color() {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece for a letter, if this variant has it.
    pub fn piece_from_char(&self, ch: char) -> Option<Piece> {
        let up = ch.to_ascii_uppercase();
        let kind = (0..NKINDS).find(|&k| self.letters[k] == up && self.kinds & (1 << k) != 0)?;
        let color = if ch.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(Kind::from_idx(kind), color))
    }

    /// The facings a lancer may have on `sq` (bit f = facing f), per rule 3 of the lancer.
    #[inline(always)]
    pub fn facing_ok(&self, sq: Square) -> u8 {
        self.facing_ok.get(sq as usize).copied().unwrap_or(0)
    }

    /// Whether only the chess family of movers and checkmate are played, so that the
    /// fast pin-based legality test applies.
    #[inline(always)]
    pub fn simple(&self) -> bool {
        self.simple
    }

    /// Game-phase weight of the start position's pieces (for tapered evaluation).
    #[inline(always)]
    pub fn start_phase(&self) -> i32 {
        self.start_phase
    }

    /// Computes the derived fields (mask-dependent tables and flags).
    pub(super) fn finish(&mut self) {
        for sq in 0..64u8 {
            let mut ok = 0u8;
            if self.on_board(sq) {
                for d in 0..8 {
                    if self.lancer_may_face_edge || step(sq, d).is_some_and(|n| self.on_board(n)) {
                        ok |= 1 << d;
                    }
                }
            }
            self.facing_ok[sq as usize] = ok;
        }
        let chess_family = [
            Kind::Pawn,
            Kind::Knight,
            Kind::Bishop,
            Kind::Rook,
            Kind::Queen,
            Kind::King,
            Kind::ForwardBishop,
        ]
        .iter()
        .fold(0u32, |acc, k| acc | 1 << *k as u32);
        self.simple = self.goal == Goal::Checkmate && self.kinds & !chess_family == 0;
    }

    /// The start EFEN for a fixed start, or the standard member of a random family.
    pub fn default_start_fen(&self) -> String {
        match &self.start {
            Start::Fen(f) => f.clone(),
            Start::Random(r) => self.setup_fen(*r, default_index(*r)).unwrap_or_default(),
        }
    }

    /// A random setup number for this variant (`None` for a fixed start). Draws
    /// exactly one number from `rng` for a random variant, none otherwise.
    pub fn random_setup<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Option<usize> {
        match &self.start {
            Start::Random(r) => Some(rng.gen_range(0..setup_count(*r))),
            Start::Fen(_) => None,
        }
    }

    /// A start EFEN drawn with `rng`: a random setup for a random variant, the fixed
    /// start otherwise.
    pub fn random_start<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Result<String, String> {
        match (&self.start, self.random_setup(rng)) {
            (Start::Random(r), Some(n)) => self.setup_fen(*r, n),
            _ => Ok(self.default_start_fen()),
        }
    }

    /// The EFEN of setup `n` of family `r`, with this variant's letters.
    pub fn setup_fen(&self, r: RandomSetup, n: usize) -> Result<String, String> {
        let rank = back_rank(r, n)
            .ok_or_else(|| format!("setup {n} does not exist (0..{})", setup_count(r) - 1))?;
        if self.width != 8 || self.height != 8 {
            return Err("random setups need an 8x8 board".into());
        }
        let mut white = String::new();
        let mut black = String::new();
        let mut castle_w = String::new();
        for (f, k) in rank.iter().enumerate() {
            if !self.has(*k) {
                return Err(format!(
                    "random setup needs a {} in the variant",
                    k.ini_name()
                ));
            }
            let l = self.letters[k.idx()];
            white.push(l);
            black.push(l.to_ascii_lowercase());
            if *k == Kind::Lancer {
                white.push_str("(n)");
                black.push_str("(s)");
            }
            if self.castling != Castling::None && self.castling_partners & (1 << *k as u32) != 0 {
                castle_w.insert(0, (b'A' + f as u8) as char);
            }
        }
        let castle = if castle_w.is_empty() {
            "-".to_string()
        } else {
            format!("{castle_w}{}", castle_w.to_ascii_lowercase())
        };
        Ok(format!(
            "{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {castle} - 0 1"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::super::Variants;

    /// The derived fields read back as the rules derive them.
    #[test]
    fn derived_fields_follow_the_rules() {
        let vs = Variants::builtin();
        let chess = vs.get("chess").unwrap();
        assert!(chess.simple());
        // Two queens (4), four rooks (2), eight minors (1).
        assert_eq!(chess.start_phase(), 24);
        let fc = vs.get("fullcavalry").unwrap();
        assert!(!fc.simple());
        // A lancer in a corner faces only into the board: a1 allows n, ne, e.
        assert_eq!(fc.facing_ok(0), 0b0000_0111);
        assert_eq!(fc.facing_ok(64), 0);
    }
}
