//! Static evaluation, tapered between middlegame and endgame, from the side to move's
//! point of view, in centipawns. Every term is a weight of [`params`] times a count, so
//! one pass over the position can score it ([`evaluate`]), split it by term
//! ([`breakdown`]) or list the counts for the tuner ([`trace`]). Each term in its file:
//! - [`material`]: pieces on the board, held units, pieces in hand;
//! - [`pst`]: square tables from centrality and advance, for any board;
//! - [`activity`]: mobility, lancer facing, jailer holds, sentry capture chances,
//!   standard-bearer range, windmill pivots and the Royal Standard's mobility rule;
//! - [`king`]: danger from attackers (drops in hand included), pawn shelter, and drop
//!   checks waiting in hand; each kind's attacks on the king zone also have a linear
//!   weight, counted in [`activity`]'s pass over the attacks;
//! - [`pawns`]: doubled, isolated, backward and passed pawns (with Lighthouse's one-queen limit,
//!   and the kings' distance to a passed pawn's promotion square);
//! - [`threats`]: pieces attacked by pawns, majors by minors, hanging pieces, and
//!   standard-bearers that can be displaced or stand next to the enemy king;
//! - the tempo, for the side to move;
//! - and a scale, not a term: the evaluation shrinks as the n-move counter runs
//!   ([`counter_scale`]), by a weight the tuner fits like the others.

pub mod activity;
pub mod cache;
pub mod king;
pub mod material;
pub mod nnue;
pub mod params;
pub mod pawns;
pub mod pst;
pub mod tables;
pub mod threats;

use crate::rules::bitboard::*;
use crate::rules::{Color, Position};
use params::{Params, NPARAMS};

/// A middlegame/endgame pair of evaluation values (the search's own score is
/// [`crate::search::Score`]).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct MgEg {
    pub mg: i32,
    pub eg: i32,
}

impl MgEg {
    /// A pair.
    pub const fn new(mg: i32, eg: i32) -> MgEg {
        MgEg { mg, eg }
    }

    /// Blended by `phase` (0 endgame ..= 256 full material).
    pub fn taper(self, phase: i32) -> i32 {
        (self.mg * phase + self.eg * (256 - phase)) / 256
    }
}

impl std::ops::AddAssign for MgEg {
    fn add_assign(&mut self, o: MgEg) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl std::ops::SubAssign for MgEg {
    fn sub_assign(&mut self, o: MgEg) {
        self.mg -= o.mg;
        self.eg -= o.eg;
    }
}

impl std::ops::Mul<i32> for MgEg {
    type Output = MgEg;
    fn mul(self, k: i32) -> MgEg {
        MgEg::new(self.mg * k, self.eg * k)
    }
}

/// Where the terms put their counts: `add(i, n)` is n times weight `i` for the side
/// being scored. The evaluation sums, the breakdown sums per group, the tracer counts.
pub trait Acc {
    /// Whether the counts themselves are wanted (the square tables are then scored from
    /// their features instead of the precomputed table).
    const TRACE: bool;
    /// Whether the pawn structure may come from the thread's cache as one score
    /// (only where the weights are summed, not counted or grouped).
    const PAWN_CACHE: bool;
    /// The side the next counts belong to.
    fn side(&mut self, c: Color);
    /// `n` times weight `i`.
    fn add(&mut self, i: usize, n: i32);
    /// A square-table score read from the precomputed table (never called when tracing).
    fn add_squares(&mut self, s: MgEg);
}

/// Checks that the weights and the network each variant of `vs` names are built in
/// (and the network can judge it); the error names the first that is not.
pub fn check_variants(vs: &crate::rules::Variants) -> Result<(), String> {
    for v in vs.all() {
        nnue::check(v)?;
        if let Some(w) = &v.weights {
            if !params::has_section(params::EMBEDDED, w) {
                return Err(format!("[{}]: weights '{w}' are not built in", v.name));
            }
        }
    }
    Ok(())
}

/// Sums the weights: the evaluation.
struct Sum<'a> {
    p: &'a Params,
    sign: i32,
    s: MgEg,
}

impl Acc for Sum<'_> {
    const TRACE: bool = false;
    const PAWN_CACHE: bool = true;
    #[inline(always)]
    fn side(&mut self, c: Color) {
        self.sign = sign(c);
    }
    #[inline(always)]
    fn add(&mut self, i: usize, n: i32) {
        self.s += self.p.w[i] * (n * self.sign);
    }
    #[inline(always)]
    fn add_squares(&mut self, s: MgEg) {
        self.s += s * self.sign;
    }
}

/// Sums the weights per group.
struct Groups<'a> {
    p: &'a Params,
    sign: i32,
    g: [MgEg; params::GROUPS.len()],
}

impl Acc for Groups<'_> {
    const TRACE: bool = false;
    const PAWN_CACHE: bool = false;
    fn side(&mut self, c: Color) {
        self.sign = sign(c);
    }
    fn add(&mut self, i: usize, n: i32) {
        self.g[params::group(i)] += self.p.w[i] * (n * self.sign);
    }
    fn add_squares(&mut self, s: MgEg) {
        self.g[params::group(params::CENTRE)] += s * self.sign;
    }
}

/// Counts per weight, White minus Black: what the tuner fits.
struct Counts {
    sign: i32,
    n: [i32; NPARAMS],
}

impl Acc for Counts {
    const TRACE: bool = true;
    const PAWN_CACHE: bool = false;
    fn side(&mut self, c: Color) {
        self.sign = sign(c);
    }
    fn add(&mut self, i: usize, n: i32) {
        self.n[i] += n * self.sign;
    }
    fn add_squares(&mut self, _: MgEg) {
        unreachable!("the tracer scores squares from their features")
    }
}

/// Runs every term (but the tempo) for both sides into `acc`.
#[inline(always)]
fn terms<A: Acc>(pos: &Position, t: &tables::Tables, acc: &mut A) {
    let mut attacks = [activity::Attack::default(); 2];
    for c in [Color::White, Color::Black] {
        acc.side(c);
        material::side(pos, c, acc);
        pst::side(pos, c, t, acc);
        attacks[c.idx()] = activity::side(pos, c, acc);
        if !A::PAWN_CACHE {
            pawns::side(pos, c, acc);
        }
    }
    if A::PAWN_CACHE {
        pawns::both_cached(pos, &t.pawns, &t.params, acc);
    }
    // What needs both sides' attacks.
    for c in [Color::White, Color::Black] {
        acc.side(c);
        let (ours, theirs) = (&attacks[c.idx()], &attacks[c.flip().idx()]);
        king::side(pos, c, ours, theirs, acc);
        threats::side(pos, c, ours, theirs, acc);
    }
}

/// Per-group evaluation terms, White minus Black.
#[derive(Default, Debug)]
pub struct Breakdown {
    /// One score per group of [`params::GROUPS`] (the tempo's is zero: see `tempo`).
    pub groups: [MgEg; params::GROUPS.len()],
    /// The tempo weight (for the side to move).
    pub tempo: MgEg,
    /// 0 (endgame) ..= 256 (full material).
    pub phase: i32,
    /// What the n-move counter leaves of the evaluation, out of 256.
    pub scale: i32,
}

/// Evaluates every term for White minus Black.
pub fn breakdown(pos: &Position) -> Breakdown {
    cache::with_tables(pos.variant(), |t| {
        let mut acc = Groups {
            p: &t.params,
            sign: 1,
            g: Default::default(),
        };
        terms(pos, t, &mut acc);
        let phase = material::phase(pos);
        Breakdown {
            groups: acc.g,
            tempo: t.params.w[params::TEMPO],
            phase,
            scale: counter_scale(pos, &t.params, phase),
        }
    })
}

impl Breakdown {
    /// The terms by name, in the order `eval` prints them (the tempo apart).
    pub fn terms(&self) -> impl Iterator<Item = (&'static str, MgEg)> + '_ {
        params::GROUPS
            .iter()
            .zip(self.groups)
            .filter(|(n, _)| !matches!(**n, "tempo" | "counter"))
            .map(|(n, s)| (*n, s))
    }

    /// The sum of the terms (White's view, middlegame and endgame).
    pub fn sum(&self) -> MgEg {
        let mut t = MgEg::default();
        for s in self.groups {
            t += s;
        }
        t
    }

    /// The sum blended by the phase (White's view, centipawns).
    pub fn tapered(&self) -> i32 {
        self.sum().taper(self.phase)
    }

    /// The tempo blended by the phase.
    pub fn tempo(&self) -> i32 {
        self.tempo.taper(self.phase)
    }

    /// The evaluation for `side` to move: the tapered sum from its side, plus the tempo,
    /// scaled by the counter.
    pub fn for_side(&self, side: Color) -> i32 {
        let v = self.tapered();
        let v = if side == Color::White { v } else { -v };
        (v + self.tempo()) * self.scale / 256
    }
}

/// The static evaluation for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    cache::with_tables(pos.variant(), |t| evaluate_with(pos, t))
}

/// The static evaluation for the side to move with the weights of `t` (see
/// [`cache::build`]).
#[inline(always)]
pub fn evaluate_with(pos: &Position, t: &tables::Tables) -> i32 {
    let mut acc = Sum {
        p: &t.params,
        sign: 1,
        s: MgEg::default(),
    };
    terms(pos, t, &mut acc);
    let phase = material::phase(pos);
    let v = acc.s.taper(phase);
    let v = if pos.side() == Color::White { v } else { -v };
    (v + t.params.w[params::TEMPO].taper(phase)) * counter_scale(pos, &t.params, phase) / 256
}

/// The share of the n-move counter that has run: halfmove clock / limit (0 without the
/// rule).
pub fn counter_share(pos: &Position) -> f64 {
    let limit = pos.variant().n_move_rule;
    if limit == 0 {
        return 0.0;
    }
    pos.halfmove().min(limit) as f64 / limit as f64
}

/// What is kept of the evaluation as the n-move counter runs, out of 256:
/// `256 − w · halfmove / limit`, `w` the [`params::COUNTER`] weight blended by `phase`.
/// Where no capture may come soon the game is heading for a draw, however it looks.
#[inline(always)]
pub fn counter_scale(pos: &Position, p: &Params, phase: i32) -> i32 {
    let limit = pos.variant().n_move_rule as i32;
    if limit == 0 {
        return 256;
    }
    let w = p.w[params::COUNTER].taper(phase);
    (256 - w * (pos.halfmove() as i32).min(limit) / limit).clamp(0, 512)
}

/// What the tuner needs of a position: every weight's count (White minus Black, the
/// tempo's +1 for White to move and −1 for Black), the phase, and the counter's share
/// ([`counter_share`]; the counter's weight scales the rest instead of adding to it).
pub fn trace(pos: &Position) -> ([i32; NPARAMS], i32, f64) {
    cache::with_tables(pos.variant(), |t| {
        let mut acc = Counts {
            sign: 1,
            n: [0; NPARAMS],
        };
        terms(pos, t, &mut acc);
        acc.n[params::TEMPO] = sign(pos.side());
        (acc.n, material::phase(pos), counter_share(pos))
    })
}

/// +1 for White, −1 for Black: how a side's counts enter White's view.
#[inline(always)]
fn sign(c: Color) -> i32 {
    if c == Color::White {
        1
    } else {
        -1
    }
}

/// Squares of `b` a bitboard helper re-export for the feature files.
#[inline(always)]
pub(crate) fn count(b: Bitboard) -> i32 {
    popcount(b) as i32
}
