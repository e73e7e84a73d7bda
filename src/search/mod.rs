//! The searcher: iterative deepening PVS alpha-beta with aspiration windows,
//! quiescence, check extension, null move, late move reductions, futility and
//! reverse futility pruning, killer/history/counter-move ordering, mate-distance
//! pruning, draws by the variant's own rules inside the tree, a shared lock-free
//! transposition table and Lazy SMP threads.

pub mod eval;
pub mod time;
pub mod tt;

use crate::rules::bitboard::*;
use crate::rules::moves::*;
use crate::rules::piece::*;
use crate::rules::variant::Goal;
use crate::rules::Position;
use eval::evaluate;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;
use tt::{Bound, Tt};

/// Deepest ply searched.
pub const MAX_PLY: usize = 120;
/// Score of mate at the root (mate in n plies scores `MATE - n`).
pub const MATE: i32 = 32000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1000;
const INF: i32 = 32500;

/// What the search is asked to do.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    /// Remaining time per side (ms), White first.
    pub time: [Option<u64>; 2],
    /// Increment per side (ms).
    pub inc: [u64; 2],
    pub movestogo: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// Stop once a mate in this many moves is found.
    pub mate: Option<u32>,
    /// Restrict the root to these moves.
    pub searchmoves: Vec<Move>,
    /// Number of principal variations.
    pub multipv: usize,
    /// Safety margin subtracted from the clock (ms).
    pub move_overhead: u64,
    /// Search features switched off, for measuring what each one gains (bits of [`Feature`]).
    pub disabled: u32,
}

/// Search features that can be switched off for self-play measurements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    NullMove = 1,
    Lmr = 2,
    /// Reverse futility, futility and late-move pruning.
    Pruning = 4,
    Aspiration = 8,
    /// Reverse futility pruning alone.
    Rfp = 16,
    /// Futility and late-move pruning of quiet moves alone.
    Futility = 32,
}

impl Feature {
    /// Parses a comma list such as `null,lmr` into bits.
    pub fn parse_list(s: &str) -> Result<u32, String> {
        let mut bits = 0;
        for t in s
            .split([',', ' '])
            .filter(|t| !t.is_empty() && *t != "<empty>" && *t != "none")
        {
            bits |= match t {
                "null" => Feature::NullMove as u32,
                "lmr" => Feature::Lmr as u32,
                "pruning" => Feature::Pruning as u32,
                "aspiration" => Feature::Aspiration as u32,
                _ => {
                    return Err(format!(
                        "unknown search feature '{t}' (null, lmr, pruning, aspiration)"
                    ))
                }
            };
        }
        Ok(bits)
    }
}

/// State shared by all search threads and the protocol.
pub struct Shared {
    pub tt: Tt,
    pub stop: AtomicBool,
    /// True while pondering: time limits wait for `ponderhit`.
    pub pondering: AtomicBool,
    nodes: AtomicU64,
}

impl Shared {
    /// Shared state with a table of `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Shared {
        Shared {
            tt: Tt::new(hash_mb),
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        }
    }
}

/// One line of search output.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: i32,
    pub seldepth: i32,
    pub multipv: usize,
    pub score: i32,
    pub bound: Bound,
    pub nodes: u64,
    pub nps: u64,
    pub hashfull: u32,
    pub time_ms: u64,
    pub pv: Vec<Move>,
}

/// The final answer.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
}

/// Formats a score as UCI does: `cp N` or `mate N` (moves, negative when mated).
pub fn uci_score(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}

#[inline]
fn to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

#[inline]
fn from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

struct Lmr([[u8; 64]; 64]);

fn lmr_table() -> &'static Lmr {
    static T: std::sync::OnceLock<Lmr> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as u8;
            }
        }
        Lmr(t)
    })
}

/// Whether `m` wins material: a capture that removes a piece. Capturing a
/// standard-bearer only displaces it, so the search treats it as a quiet move
/// (quiescence would otherwise chase endless displacements).
#[inline]
pub fn is_capture(pos: &Position, m: Move) -> bool {
    match m.move_type() {
        MoveType::EnPassant | MoveType::SentryCapture | MoveType::SentryEdge => true,
        MoveType::Normal | MoveType::Promotion => {
            !pos.piece_at(m.to()).is_none() && !m.is_displacement()
        }
        _ => false,
    }
}

/// The kind captured by `m`, if any.
#[inline]
fn captured_kind(pos: &Position, m: Move) -> Option<Kind> {
    match m.move_type() {
        MoveType::EnPassant => Some(Kind::Pawn),
        MoveType::SentryCapture | MoveType::SentryEdge | MoveType::Normal | MoveType::Promotion => {
            let p = pos.piece_at(m.to());
            (!p.is_none() && !m.is_displacement()).then(|| p.kind())
        }
        _ => None,
    }
}

fn ordering_value(k: Kind) -> i32 {
    match k {
        Kind::Pawn => 1,
        Kind::Knight | Kind::Bishop | Kind::ForwardBishop | Kind::Sentry | Kind::Windmill => 3,
        Kind::Jailer => 4,
        Kind::Rook | Kind::Lancer => 5,
        Kind::Queen => 9,
        Kind::King => 50,
        Kind::Bearer => 2,
    }
}

/// Moves the best-scored move of `moves[i..]` to `i` (selection sort, one step) and returns it.
#[inline]
fn pick(moves: &mut [Move], scores: &mut [i32], i: usize) -> Move {
    let mut bi = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[bi] {
            bi = j;
        }
    }
    moves.swap(i, bi);
    scores.swap(i, bi);
    moves[i]
}

/// Index of a move in the history tables: (from or 64 for drops, to).
#[inline(always)]
fn hist_idx(m: Move) -> (usize, usize) {
    let from = if m.move_type() == MoveType::Drop || m.is_pass() {
        64
    } else {
        m.from() as usize & 63
    };
    (from, m.to() as usize & 63)
}

/// A ply's move list and ordering scores, kept between nodes so that no node clears
/// or allocates 8 KB of arrays.
struct Buf {
    list: MoveList,
    scores: [i32; MAX_MOVES],
}

struct Worker<'a> {
    bufs: Vec<Option<Box<Buf>>>,
    shared: &'a Shared,
    main: bool,
    limits: &'a Limits,
    start: Instant,
    hard_ms: u64,
    nodes: u64,
    seldepth: usize,
    keys: Vec<u64>,
    history: Box<[[[i32; 64]; 65]; 2]>,
    killers: [[Move; 2]; MAX_PLY + 2],
    counters: Box<[[Move; 64]; 2 * NKINDS]>,
    prev: [(Piece, Square); MAX_PLY + 2],
    pv: Box<[[Move; MAX_PLY + 2]; MAX_PLY + 2]>,
    pv_len: [usize; MAX_PLY + 2],
    eval_stack: [i32; MAX_PLY + 2],
    root_excluded: Vec<Move>,
    stopped: bool,
}

impl<'a> Worker<'a> {
    fn new(
        shared: &'a Shared,
        limits: &'a Limits,
        history_keys: &[u64],
        main: bool,
        start: Instant,
        hard_ms: u64,
    ) -> Worker<'a> {
        Worker {
            bufs: (0..MAX_PLY + 4)
                .map(|_| {
                    Some(Box::new(Buf {
                        list: MoveList::new(),
                        scores: [0; MAX_MOVES],
                    }))
                })
                .collect(),
            shared,
            main,
            limits,
            start,
            hard_ms,
            nodes: 0,
            seldepth: 0,
            keys: history_keys.to_vec(),
            history: Box::new([[[0; 64]; 65]; 2]),
            killers: [[Move::NONE; 2]; MAX_PLY + 2],
            counters: Box::new([[Move::NONE; 64]; 2 * NKINDS]),
            prev: [(NO_PIECE, 0); MAX_PLY + 2],
            pv: Box::new([[Move::NONE; MAX_PLY + 2]; MAX_PLY + 2]),
            pv_len: [0; MAX_PLY + 2],
            eval_stack: [0; MAX_PLY + 2],
            root_excluded: Vec::new(),
            stopped: false,
        }
    }

    #[inline]
    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Polls the stop conditions; true when the search must unwind.
    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if let Some(n) = self.limits.nodes {
            if self.main && self.nodes >= n {
                self.stopped = true;
                self.shared.stop.store(true, Ordering::Relaxed);
                return true;
            }
        }
        if self.nodes & 1023 == 0 {
            if self.shared.stop.load(Ordering::Relaxed) {
                self.stopped = true;
                return true;
            }
            if self.main
                && !self.shared.pondering.load(Ordering::Relaxed)
                && self.elapsed_ms() >= self.hard_ms
            {
                self.stopped = true;
                self.shared.stop.store(true, Ordering::Relaxed);
                return true;
            }
        }
        false
    }

    fn is_repetition(&self, pos: &Position) -> bool {
        let n = self.keys.len();
        let span = (pos.halfmove() as usize).min(n.saturating_sub(1));
        let k = pos.key();
        let mut i = 2;
        while i <= span {
            if self.keys[n - 1 - i] == k {
                return true;
            }
            i += 2;
        }
        false
    }

    fn order(
        &self,
        pos: &Position,
        list: &MoveList,
        scores: &mut [i32],
        tt_move: Move,
        ply: usize,
    ) {
        let us = pos.side().idx();
        let (pp, psq) = if ply > 0 {
            self.prev[ply - 1]
        } else {
            (NO_PIECE, 0)
        };
        let counter = if pp.is_none() {
            Move::NONE
        } else {
            self.counters[pp.idx()][psq as usize & 63]
        };
        for (i, &m) in list.iter().enumerate() {
            scores[i] = if m == tt_move {
                10_000_000
            } else if let Some(victim) = captured_kind(pos, m) {
                let attacker = if m.move_type() == MoveType::Drop {
                    Kind::Pawn
                } else {
                    pos.piece_at(m.from()).kind()
                };
                let sentry_loss = (m.move_type() == MoveType::SentryEdge) as i32 * 3;
                1_000_000 + 100 * ordering_value(victim)
                    - ordering_value(attacker)
                    - 10 * sentry_loss
                    + m.kind().map_or(0, |k| 10 * ordering_value(k))
            } else if let Some(k) = m.kind().filter(|_| m.move_type() == MoveType::Promotion) {
                900_000 + ordering_value(k)
            } else if m == self.killers[ply][0] {
                800_000
            } else if m == self.killers[ply][1] {
                700_000
            } else if m == counter {
                600_000
            } else {
                let (f, t) = hist_idx(m);
                self.history[us][f][t]
            };
        }
    }

    fn update_quiet(&mut self, pos: &Position, m: Move, ply: usize, depth: i32, tried: &[Move]) {
        let us = pos.side().idx();
        let bonus = (depth * depth).min(400);
        let (f, t) = hist_idx(m);
        let h = &mut self.history[us][f][t];
        *h += 32 * bonus - *h * bonus / 512;
        for &q in tried {
            if q != m {
                let (f, t) = hist_idx(q);
                let h = &mut self.history[us][f][t];
                *h -= 32 * bonus + *h * bonus / 512;
            }
        }
        if self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
        if ply > 0 {
            let (pp, psq) = self.prev[ply - 1];
            if !pp.is_none() {
                self.counters[pp.idx()][psq as usize & 63] = m;
            }
        }
    }

    /// Counts a node and answers what needs no search: a stop, a king already lost,
    /// a king that can be taken now (king-capture variants).
    #[inline]
    fn enter(&mut self, pos: &Position, ply: usize) -> Option<i32> {
        self.nodes += 1;
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.should_stop() {
            return Some(0);
        }
        if pos.variant().goal == Goal::KingCapture {
            let us = pos.side();
            if pos.king_sq(us).is_none() {
                return Some(-MATE + ply as i32);
            }
            if ply > 0 && pos.king_attacked(us.flip()) {
                return Some(MATE - ply as i32 - 1);
            }
        }
        None
    }

    #[inline(always)]
    fn on(&self, f: Feature) -> bool {
        self.limits.disabled & f as u32 == 0
    }

    fn null_allowed(&self, pos: &Position) -> bool {
        let v = pos.variant();
        let us = pos.side();
        let own = pos.pieces(us);
        let pawns_kings =
            pos.kind_bb(Kind::Pawn) | pos.kind_bb(Kind::King) | pos.kind_bb(Kind::Bearer);
        let pieces = popcount(own & !pawns_kings);
        if v.drops {
            let hand: u32 = ALL_KINDS.iter().map(|&k| pos.hand(us, k) as u32).sum();
            return pieces + hand >= 2 && !(hand == 0 && pieces < 2);
        }
        pieces >= 1 && pos.held(us) & pos.pieces_of(us, Kind::King) == 0
    }

    /// Drops next to the enemy king that give check (at most a few): in a drop variant
    /// a quiet-looking position can hide a mate by drops.
    fn add_checking_drops(&self, pos: &Position, list: &mut MoveList) {
        let us = pos.side();
        let Some(ek) = pos.king_sq(us.flip()) else {
            return;
        };
        if !ALL_KINDS.iter().any(|&k| pos.hand(us, k) > 0) {
            return;
        }
        let t = tables();
        let near = (t.king(ek) | t.knight(ek)) & !pos.occupied() & pos.variant().mask;
        let mut all = MoveList::new();
        pos.legal_moves(&mut all);
        let mut added = 0;
        for &m in all.iter() {
            if m.move_type() == MoveType::Drop && near & bb(m.to()) != 0 && pos.after(m).in_check()
            {
                list.push(m);
                added += 1;
                if added >= 8 {
                    break;
                }
            }
        }
    }

    fn take_buf(&mut self, ply: usize) -> Box<Buf> {
        self.bufs[ply.min(MAX_PLY + 3)].take().unwrap_or_else(|| {
            Box::new(Buf {
                list: MoveList::new(),
                scores: [0; MAX_MOVES],
            })
        })
    }

    fn qsearch(&mut self, pos: &Position, alpha: i32, beta: i32, ply: usize, qd: u32) -> i32 {
        let mut buf = self.take_buf(ply);
        let r = self.qsearch_inner(&mut buf, pos, alpha, beta, ply, qd);
        self.bufs[ply.min(MAX_PLY + 3)] = Some(buf);
        r
    }

    fn qsearch_inner(
        &mut self,
        buf: &mut Buf,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qd: u32,
    ) -> i32 {
        if let Some(score) = self.enter(pos, ply) {
            return score;
        }
        let v = pos.variant();
        if ply >= MAX_PLY {
            return evaluate(pos);
        }
        let in_check = v.goal == Goal::Checkmate && pos.in_check();
        let mut best = -INF;
        if !in_check {
            let stand = evaluate(pos);
            if stand >= beta {
                return stand;
            }
            if stand > alpha {
                alpha = stand;
            }
            best = stand;
        }
        let list = &mut buf.list;
        if in_check {
            pos.legal_moves(list);
            if list.is_empty() {
                return -MATE + ply as i32;
            }
        } else {
            pos.legal_captures(list);
            let first = v.promotions.first().copied();
            list.retain(|m| {
                is_capture(pos, m) || (m.move_type() == MoveType::Promotion && m.kind() == first)
            });
            if v.drops && qd == 0 {
                self.add_checking_drops(pos, list);
            }
        }
        let scores = &mut buf.scores;
        self.order(pos, list, scores, Move::NONE, ply.min(MAX_PLY));
        let n = list.len();
        let moves = list.as_mut_slice();
        for i in 0..n {
            let m = pick(moves, scores, i);
            let child = pos.after(m);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1, qd + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        cut: bool,
        null_ok: bool,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        let mut buf = self.take_buf(ply);
        let r = self.search_inner(&mut buf, pos, alpha, beta, depth, ply, cut, null_ok);
        self.bufs[ply] = Some(buf);
        r
    }

    #[allow(clippy::too_many_arguments)]
    fn search_inner(
        &mut self,
        buf: &mut Buf,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        cut: bool,
        null_ok: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        if let Some(score) = self.enter(pos, ply) {
            return score;
        }
        let v = pos.variant();
        let us = pos.side();
        let in_check = v.goal == Goal::Checkmate && pos.in_check();
        if ply > 0 {
            if self.is_repetition(pos) {
                return 0;
            }
            if v.n_move_rule > 0
                && pos.halfmove() >= v.n_move_rule
                && (!in_check || pos.legal_move_count() > 0)
            {
                return 0;
            }
            if ply >= MAX_PLY {
                return evaluate(pos);
            }
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let key = pos.key();
        let tt_hit = self.shared.tt.probe(key);
        let mut tt_move = Move::NONE;
        if let Some(h) = tt_hit {
            tt_move = h.mv;
            let s = from_tt(h.score, ply);
            if !pv_node
                && ply > 0
                && h.depth >= depth
                && match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                    Bound::None => false,
                }
            {
                return s;
            }
        }
        let eval = if in_check {
            -INF
        } else if let Some(h) = tt_hit {
            h.eval
        } else {
            evaluate(pos)
        };
        self.eval_stack[ply] = eval;
        let improving = !in_check && ply >= 2 && eval > self.eval_stack[ply - 2];
        if !pv_node && !in_check && ply > 0 {
            // Reverse futility: far above beta at low depth.
            if self.on(Feature::Pruning)
                && self.on(Feature::Rfp)
                && depth <= 7
                && eval - 80 * depth + 30 * improving as i32 >= beta
                && beta.abs() < MATE_BOUND
            {
                return eval;
            }
            if null_ok
                && self.on(Feature::NullMove)
                && depth >= 3
                && eval >= beta
                && beta.abs() < MATE_BOUND
                && self.null_allowed(pos)
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                let child = pos.after(Move::PASS);
                self.keys.push(child.key());
                self.prev[ply] = (NO_PIECE, 0);
                let s = -self.search(&child, -beta, -beta + 1, depth - r, ply + 1, !cut, false);
                self.keys.pop();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }
        // Internal iterative reduction: no table move to guide a deep search.
        let depth = if tt_move == Move::NONE && depth >= 6 && (pv_node || cut) {
            depth - 1
        } else {
            depth
        };
        let list = &mut buf.list;
        pos.legal_moves(list);
        if list.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        if ply == 0 {
            if !self.limits.searchmoves.is_empty() {
                let sm = &self.limits.searchmoves;
                list.retain(|m| sm.contains(&m));
            }
            if !self.root_excluded.is_empty() {
                let ex = &self.root_excluded;
                list.retain(|m| !ex.contains(&m));
            }
            if list.is_empty() {
                return -INF;
            }
        }
        let scores = &mut buf.scores;
        self.order(pos, list, scores, tt_move, ply);
        let n = list.len();
        let mut best = -INF;
        let mut best_move = Move::NONE;
        let orig_alpha = alpha;
        let mut tried_quiets: [Move; 64] = [Move::NONE; 64];
        let mut nq = 0;
        let mut searched = 0;
        let lmr = lmr_table();
        let moves = list.as_mut_slice();
        for i in 0..n {
            let m = pick(moves, scores, i);
            let capture = is_capture(pos, m);
            let quiet = !capture && m.move_type() != MoveType::Promotion;
            let child = pos.after(m);
            let gives_check = match v.goal {
                Goal::Checkmate => child.in_check(),
                Goal::KingCapture => child
                    .king_sq(child.side())
                    .is_some_and(|_| child.king_attacked(child.side())),
            };
            // Late-move and futility pruning of quiet moves; a checking move may mate, so
            // it is always searched.
            if ply > 0
                && quiet
                && !in_check
                && !gives_check
                && best > -MATE_BOUND
                && searched > 0
                && self.on(Feature::Pruning)
                && self.on(Feature::Futility)
            {
                if depth <= 6 && nq as i32 > 3 + depth * depth / (2 - improving as i32) {
                    continue;
                }
                if depth <= 6 && eval + 110 + 100 * depth <= alpha {
                    continue;
                }
            }
            let ext = (gives_check && ply < 2 * depth as usize + 8) as i32;
            let new_depth = depth - 1 + ext;
            self.keys.push(child.key());
            self.prev[ply] = if m.move_type() == MoveType::Drop || m.is_pass() {
                (NO_PIECE, 0)
            } else {
                (pos.piece_at(m.from()), m.to())
            };
            let mut score;
            if searched == 0 {
                score = -self.search(
                    &child,
                    -beta,
                    -alpha,
                    new_depth,
                    ply + 1,
                    !pv_node && !cut,
                    true,
                );
            } else {
                let mut r = 0;
                if depth >= 3
                    && searched >= 2
                    && quiet
                    && !in_check
                    && !gives_check
                    && self.on(Feature::Lmr)
                {
                    r = lmr.0[(depth as usize).min(63)][searched.min(63)] as i32;
                    r -= pv_node as i32;
                    r += (!pv_node && cut) as i32;
                    let (f, t) = hist_idx(m);
                    r -= self.history[us.idx()][f][t] / 8192;
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.search(
                    &child,
                    -alpha - 1,
                    -alpha,
                    new_depth - r,
                    ply + 1,
                    true,
                    true,
                );
                if score > alpha && r > 0 {
                    score =
                        -self.search(&child, -alpha - 1, -alpha, new_depth, ply + 1, !cut, true);
                }
                if score > alpha && score < beta {
                    score = -self.search(&child, -beta, -alpha, new_depth, ply + 1, false, true);
                }
            }
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            searched += 1;
            if quiet && nq < tried_quiets.len() {
                tried_quiets[nq] = m;
                nq += 1;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    self.pv[ply][0] = m;
                    let cl = self.pv_len[ply + 1];
                    for k in 0..cl {
                        self.pv[ply][k + 1] = self.pv[ply + 1][k];
                    }
                    self.pv_len[ply] = cl + 1;
                    if score >= beta {
                        if quiet {
                            self.update_quiet(pos, m, ply, depth, &tried_quiets[..nq]);
                        }
                        break;
                    }
                }
            }
        }
        if searched == 0 {
            // Every move was pruned (cannot happen at the first move) — keep alpha.
            return alpha;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if ply > 0 || self.root_excluded.is_empty() {
            self.shared.tt.store(
                key,
                best_move,
                to_tt(best, ply),
                if in_check { 0 } else { eval },
                depth,
                bound,
            );
        }
        best
    }
}

/// Runs a search on `pos` (with `history`: keys of earlier positions of the game, the
/// current one last) and reports each completed iteration through `on_info`. The caller
/// clears `shared.stop` first; setting it ends the search.
pub fn search(
    pos: &Position,
    history: &[u64],
    limits: &Limits,
    shared: &Arc<Shared>,
    threads: usize,
    on_info: &mut dyn FnMut(&Info),
) -> SearchResult {
    let start = Instant::now();
    // `stop` is cleared by the caller before the search thread starts, so a `stop`
    // that arrives before this line still counts.
    shared.nodes.store(0, Ordering::Relaxed);
    shared.tt.new_search();
    let (soft, hard) = time::budget(limits, pos.side(), pos.variant());
    let mut keys = history.to_vec();
    if keys.last() != Some(&pos.key()) {
        keys.push(pos.key());
    }
    let mut root = MoveList::new();
    pos.legal_moves(&mut root);
    if !limits.searchmoves.is_empty() {
        root.retain(|m| limits.searchmoves.contains(&m));
    }
    if root.is_empty() {
        return SearchResult {
            best: None,
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
        };
    }
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as i32 - 1)
        .clamp(1, MAX_PLY as i32 - 1);
    let multipv = limits.multipv.clamp(1, root.len());
    let threads = threads.max(1);
    std::thread::scope(|s| {
        let mut helpers = Vec::new();
        for id in 1..threads {
            let keys = keys.clone();
            let shared = &**shared;
            helpers.push(
                std::thread::Builder::new()
                    .stack_size(32 << 20)
                    .spawn_scoped(s, move || {
                        let mut w = Worker::new(shared, limits, &keys, false, start, u64::MAX);
                        let mut d = 1 + (id as i32 % 2);
                        while d <= max_depth && !shared.stop.load(Ordering::Relaxed) {
                            w.search(pos, -INF, INF, d, 0, false, false);
                            d += 1;
                        }
                        shared.nodes.fetch_add(w.nodes, Ordering::Relaxed);
                    })
                    .expect("spawn search thread"),
            );
        }
        let mut w = Worker::new(shared, limits, &keys, true, start, hard);
        let mut best: Option<(Move, Option<Move>, i32, i32)> = None;
        let mut prev_score = 0;
        let mut last_best = Move::NONE;
        let mut stable = 0;
        for depth in 1..=max_depth {
            w.root_excluded.clear();
            let mut lines: Vec<(i32, Vec<Move>)> = Vec::new();
            for pv_idx in 0..multipv {
                w.seldepth = 0;
                let mut delta = 30;
                let (mut a, mut b) = if depth >= 5
                    && pv_idx == 0
                    && limits.disabled & Feature::Aspiration as u32 == 0
                {
                    (prev_score - delta, prev_score + delta)
                } else {
                    (-INF, INF)
                };
                let score = loop {
                    let s = w.search(pos, a, b, depth, 0, false, false);
                    if w.stopped {
                        break s;
                    }
                    let bound = if s <= a {
                        Bound::Upper
                    } else if s >= b {
                        Bound::Lower
                    } else {
                        break s;
                    };
                    // Long iterations tell the GUI about the failed window (as Stockfish does).
                    let ms = w.elapsed_ms();
                    if ms > 1000 && multipv == 1 && w.pv_len[0] > 0 {
                        let nodes = w.nodes + shared.nodes.load(Ordering::Relaxed);
                        on_info(&Info {
                            depth,
                            seldepth: w.seldepth as i32,
                            multipv: 1,
                            score: s,
                            bound,
                            nodes,
                            nps: nodes * 1000 / ms.max(1),
                            hashfull: shared.tt.hashfull(),
                            time_ms: ms,
                            pv: w.pv[0][..w.pv_len[0]].to_vec(),
                        });
                    }
                    if bound == Bound::Upper {
                        b = (a + b) / 2;
                        a = (s - delta).max(-INF);
                    } else {
                        b = (s + delta).min(INF);
                    }
                    delta += delta / 2;
                };
                if w.stopped && (depth > 1 || w.pv_len[0] == 0) {
                    break;
                }
                let pv: Vec<Move> = w.pv[0][..w.pv_len[0]].to_vec();
                if pv.is_empty() {
                    break;
                }
                if pv_idx == 0 {
                    prev_score = score;
                }
                w.root_excluded.push(pv[0]);
                lines.push((score, pv));
            }
            if lines.is_empty() {
                break;
            }
            // Later lines can score better than earlier ones (a narrower search found more).
            lines.sort_by_key(|l| std::cmp::Reverse(l.0));
            let total_nodes = w.nodes + shared.nodes.load(Ordering::Relaxed);
            let ms = w.elapsed_ms();
            for (i, (score, pv)) in lines.iter().enumerate() {
                on_info(&Info {
                    depth,
                    seldepth: w.seldepth as i32,
                    multipv: i + 1,
                    score: *score,
                    bound: Bound::Exact,
                    nodes: total_nodes,
                    nps: total_nodes * 1000 / ms.max(1),
                    hashfull: shared.tt.hashfull(),
                    time_ms: ms,
                    pv: pv.clone(),
                });
            }
            let (score, pv) = &lines[0];
            best = Some((pv[0], pv.get(1).copied(), *score, depth));
            if w.stopped {
                break;
            }
            if pv[0] == last_best {
                stable += 1;
            } else {
                stable = 0;
                last_best = pv[0];
            }
            if let Some(m) = limits.mate {
                if *score >= MATE - 2 * m as i32 {
                    break;
                }
            }
            if root.len() == 1
                && !limits.infinite
                && limits.depth.is_none()
                && !shared.pondering.load(Ordering::Relaxed)
                && limits.time[pos.side().idx()].is_some()
            {
                break;
            }
            let scale = if stable >= 4 {
                0.5
            } else if stable >= 2 {
                0.8
            } else {
                1.2
            };
            if !shared.pondering.load(Ordering::Relaxed) && (ms as f64) >= soft as f64 * scale * 0.6
            {
                break;
            }
        }
        shared.stop.store(true, Ordering::Relaxed);
        for h in helpers {
            let _ = h.join();
        }
        let nodes = w.nodes + shared.nodes.load(Ordering::Relaxed);
        let (bm, pm, score, depth) = best.unwrap_or((root[0], None, 0, 0));
        SearchResult {
            best: Some(bm),
            ponder: pm,
            score,
            depth,
            nodes,
        }
    })
}
