//! One browser tab's game: its move tree (variations kept), the node being looked
//! at, the game's settings (play against lancer or analyse, level, clock), its own
//! engine and its review. The WebSocket handler feeds it the page's messages and
//! the search's reports; everything it answers is JSON (docs/serve.md, The web
//! board).
//!
//! A search needs one of the server's slots; a tab holds at most one. When none is
//! free the tab waits in line (first come, first served) and the page says so;
//! lancer's move is then played as soon as a slot frees.

use super::board::{line_json, refusal, side_letter, start_position};
use crate::engine::{self, Engine, Info, Limits, Score, Strength, MAX_ELO, MIN_ELO};
use crate::review::{self, Budget, Review};
use crate::rules::notation::pgn;
use crate::rules::notation::{parse_any, san};
use crate::rules::tree::{NodeId, Tree, ROOT};
use crate::rules::{Color, Game, GameEnd, Move, Position, Termination, Variants};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc::UnboundedSender;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Table size of a tab's engine (MB): small, since many tabs may be open.
const SESSION_HASH_MB: usize = 16;
/// The longest analysis, and the longest review (ms): a page cannot start an
/// endless search.
pub const MAX_ANALYSIS_MS: u64 = 120_000;
/// The longest engine move without a clock (ms).
const MAX_MOVETIME_MS: u64 = 60_000;
/// Most lines of an analysis.
pub const MAX_MULTIPV: usize = 5;
/// Longest PV shown, in plies.
const PV_PLIES: usize = 16;
/// Most moves of a line (a URL or a PGN longer than this is refused).
pub const MAX_PLIES: usize = 2000;
/// Most moves in a tab's tree, variations included.
pub const MAX_NODES: usize = 5000;
/// A review's time a position (ms) unless the page asks for another (10 to 1000).
const REVIEW_MS: u64 = 200;

/// What the search thread, a slot's waiter and the review tell the tab's handler.
pub enum Event {
    /// An iteration's report (already JSON), for the game generation it searched.
    Info(u64, Value),
    /// The search ended with this best move.
    Done(u64, Option<Move>),
    /// The slot the tab waited for (the number of its request).
    Slot(u64, OwnedSemaphorePermit),
    /// A position of the review done: its point on the graph, and the judgment of
    /// the move that led to it.
    ReviewStep(u64, usize, Value, Option<&'static str>),
    /// The review ended.
    ReviewDone(u64, Result<Review, String>),
}

/// Play against lancer, or analyse.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Analyse,
    Play,
}

/// What a slot is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Search {
    Move,
    Analysis,
    Review,
}

/// The search the tab runs.
struct Running {
    kind: Search,
    started: Instant,
    /// The slot (a review's thread holds its own).
    _permit: Option<OwnedSemaphorePermit>,
}

/// The tab's place in line for a slot.
struct Queued {
    kind: Search,
    id: u64,
    task: tokio::task::JoinHandle<()>,
}

/// The review of the main line: asked for, running or done.
struct ReviewState {
    /// The main line reviewed (node 0 is the start).
    line: Vec<NodeId>,
    status: &'static str,
    movetime: u64,
    /// One point a position done: `{ply, node, eval, cp, wc}`.
    points: Vec<Value>,
    /// The judged moves: node and symbol.
    nags: Vec<(NodeId, &'static str)>,
    summary: Value,
    id: u64,
    cancel: Arc<AtomicBool>,
}

/// One tab's game and engine.
pub struct Session {
    variants: Variants,
    start: Position,
    tree: Tree,
    view: NodeId,
    /// A result the rules do not give (resignation, time, a PGN's word) at a node.
    ended: Option<(NodeId, GameEnd)>,
    mode: Mode,
    /// The colour the person plays against lancer.
    human: Color,
    /// `Skill Level` 0..=20, or `UCI_Elo` when `elo` is set.
    skill: i64,
    elo: Option<i64>,
    /// Clock: base and increment (ms); `None`: lancer thinks `movetime` a move.
    clock: Option<(u64, u64)>,
    movetime: u64,
    clocks: [i64; 2],
    turn_started: Instant,
    analysing: bool,
    multipv: usize,
    engine: Engine,
    /// Whether the engine's table has been made (at the first search).
    table: bool,
    /// Bumped by every change of the game, so a stale search's report is dropped.
    generation: u64,
    running: Option<Running>,
    queued: Option<Queued>,
    requests: u64,
    review: Option<ReviewState>,
    searches: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
    events: UnboundedSender<Event>,
}

/// An error message for the page.
pub fn error(msg: impl Into<String>) -> Value {
    json!({"type": "error", "message": msg.into()})
}

/// The message a refused tab gets before its socket closes.
pub fn refused(msg: &str) -> Value {
    json!({"type": "refused", "message": msg})
}

fn str_field<'a>(msg: &'a Value, key: &str) -> Option<&'a str> {
    msg.get(key).and_then(Value::as_str)
}

/// A whole number given as a number or a string; an error names the field.
fn int_field(msg: &Value, key: &str) -> Result<Option<i64>, String> {
    match msg.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_i64()
            .or_else(|| {
                v.as_f64()
                    .filter(|f| f.fract() == 0.0 && f.abs() < 9e15)
                    .map(|f| f as i64)
            })
            .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
            .map(Some)
            .ok_or_else(|| format!("'{key}' is a whole number")),
    }
}

/// `field` within `lo..=hi`, or an error in the page's terms.
fn in_range(field: &str, v: i64, lo: i64, hi: i64, unit: &str) -> Result<i64, String> {
    if (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        Err(format!("'{field}' is {lo} to {hi}{unit}, not {v}"))
    }
}

/// A mate's centipawns on the page (its sign says who mates).
const MATE_CP: i32 = 100_000;

/// A score from the side to move's view as the page shows it: White's view,
/// `+0.35` or `#3` / `#-3`.
fn score_json(score: Score, side: Color) -> Value {
    let white = score.for_side(side, Color::White);
    let text = match white.centipawns() {
        Some(cp) => format!("{:+.2}", cp as f64 / 100.0),
        None => review::eval_text(white),
    };
    json!({"cp": white.capped(MATE_CP), "text": text, "mate": white.is_mate()})
}

/// An iteration's report for the page: score (White's view), WDL (the side to
/// move's), the line in SAN and the first move's squares for the arrow.
fn info_json(pos: &Position, i: &Info) -> Value {
    let [w, d, l] = engine::wdl(pos.variant(), i.score, pos.game_ply());
    let mut p = *pos;
    let mut line = Vec::new();
    for &m in i.pv.iter().take(PV_PLIES) {
        if !p.is_legal(m) {
            break;
        }
        let prefix = if p.side() == Color::White {
            format!("{}. ", p.fullmove())
        } else if line.is_empty() {
            format!("{}... ", p.fullmove())
        } else {
            String::new()
        };
        line.push(format!("{prefix}{}", san(&p, m)));
        p.do_move(m);
    }
    let (from, to) = match i.pv.first() {
        Some(&m) if pos.is_legal(m) => super::board::click_squares(pos, m),
        _ => (None, None),
    };
    use crate::rules::bitboard::square_name;
    json!({
        "type": "info",
        "multipv": i.multipv,
        "depth": i.depth,
        "nodes": i.nodes,
        "nps": i.nps,
        "score": score_json(i.score, pos.side()),
        "wdl": [w, d, l],
        "wdl_side": side_letter(pos.side()),
        "pv": line.join(" "),
        "from": from.map(square_name),
        "to": to.map(square_name),
    })
}

/// A reviewed position as the graph draws it: its ply on the main line, its node,
/// the evaluation as the PGN comment writes it (a finished game: its result),
/// centipawns from White's view (capped at ±1000, a mate at the cap) and White's
/// winning chances (W − L).
fn point_json(ply: usize, node: NodeId, pos: &Position, e: &review::PositionEval) -> Value {
    let cp = e.white().capped(1000);
    json!({
        "ply": ply,
        "node": node,
        "eval": e.text(),
        "cp": cp,
        "wc": (e.chances(pos, Color::White) * 1000.0).round() / 1000.0,
    })
}

fn summary_json(r: &Review) -> Value {
    let side = |s: &review::SideSummary| {
        json!({
            "inaccuracies": s.inaccuracies,
            "mistakes": s.mistakes,
            "blunders": s.blunders,
            "acpl": s.average_loss().round(),
        })
    };
    json!({"w": side(&r.sides[0]), "b": side(&r.sides[1]), "text": r.summary()})
}

impl Session {
    /// A new tab: chess from the start, analysing, nothing searched. `searches` are
    /// the server's slots, `waiting` counts the tabs in line for one.
    pub fn new(
        variants: Variants,
        searches: Arc<Semaphore>,
        waiting: Arc<AtomicUsize>,
        events: UnboundedSender<Event>,
    ) -> Result<Session, String> {
        // Its table is made at its first search: an idle tab costs little.
        let engine = Engine::with_variants(variants.clone());
        let start = start_position(&variants, "chess", None, None)?;
        Ok(Session {
            variants,
            start,
            tree: Tree::new(),
            view: ROOT,
            ended: None,
            mode: Mode::Analyse,
            human: Color::White,
            skill: 20,
            elo: None,
            clock: None,
            movetime: 1000,
            clocks: [0, 0],
            turn_started: Instant::now(),
            analysing: false,
            multipv: 3,
            engine,
            table: false,
            generation: 0,
            running: None,
            queued: None,
            requests: 0,
            review: None,
            searches,
            waiting,
            events,
        })
    }

    /// Stops every search of the tab and leaves the line (the tab went).
    pub fn stop(&mut self) {
        self.engine.stop();
        self.running = None;
        self.cancel_queue();
        if let Some(r) = &self.review {
            r.cancel.store(true, Ordering::SeqCst);
        }
    }

    /// The rules' game along the path to `id`.
    fn game_at(&self, id: NodeId) -> Game {
        let mut g = Game::new(self.start);
        for m in self.tree.moves_to(id) {
            g.play(m);
        }
        g
    }

    fn result_at(&self, id: NodeId) -> Option<GameEnd> {
        if let Some((n, end)) = &self.ended {
            if *n == id {
                return Some(end.clone());
            }
        }
        let g = self.game_at(id);
        g.outcome()
            .map(|o| GameEnd::by_rules(o, g.position().variant()))
    }

    fn result(&self) -> Option<GameEnd> {
        self.result_at(self.view)
    }

    fn side_at_view(&self) -> Color {
        // The side to move flips with every ply from the start.
        if self.tree.depth(self.view).is_multiple_of(2) {
            self.start.side()
        } else {
            self.start.side().flip()
        }
    }

    fn engine_to_move(&self) -> bool {
        self.mode == Mode::Play
            && self.tree.node(self.view).children.is_empty()
            && self.side_at_view() != self.human
            && self.result().is_none()
    }

    /// The clocks now (ms), with the running side's time taken off.
    fn clocks_now(&self) -> Option<[i64; 2]> {
        self.clock?;
        let mut c = self.clocks;
        if self.mode == Mode::Play && self.result().is_none() {
            c[self.side_at_view().idx()] -= self.turn_started.elapsed().as_millis() as i64;
        }
        Some(c)
    }

    /// The move tree for the move list: each node's parent, children (the first
    /// continues the line), SAN, ply and symbol (`?!`, `?`, `??`, ...).
    fn tree_json(&self) -> Value {
        let mut out = Vec::with_capacity(self.tree.len());
        let mut positions: Vec<Option<Position>> = vec![None; self.tree.len()];
        positions[ROOT] = Some(self.start);
        let mut stack = vec![ROOT];
        let mut sans = vec![String::new(); self.tree.len()];
        let mut plies = vec![0usize; self.tree.len()];
        while let Some(id) = stack.pop() {
            let Some(pos) = positions[id] else { continue };
            for &c in &self.tree.node(id).children {
                if let Some(m) = self.tree.node(c).mv {
                    sans[c] = san(&pos, m);
                    positions[c] = Some(pos.after(m));
                    plies[c] = plies[id] + 1;
                    stack.push(c);
                }
            }
        }
        for id in 0..self.tree.len() {
            let n = self.tree.node(id);
            let nag = n.nags.iter().find_map(|&g| pgn::nag_glyph(g));
            out.push(json!({
                "p": n.parent,
                "c": n.children,
                "san": (id != ROOT).then(|| sans[id].clone()),
                "ply": plies[id],
                "nag": nag,
            }));
        }
        Value::Array(out)
    }

    fn review_json(&self) -> Value {
        match &self.review {
            None => Value::Null,
            Some(r) => json!({
                "status": r.status,
                "done": r.points.len(),
                "total": r.line.len(),
                "points": r.points,
                "nags": r.nags.iter().map(|(n, s)| json!({"node": n, "nag": s})).collect::<Vec<_>>(),
                "summary": r.summary,
            }),
        }
    }

    /// The state message: the line through the view, the board there, the tree,
    /// the result, the settings, the search and the review.
    pub fn state(&self) -> Value {
        let result = self.result();
        let line = self.tree.line(self.view);
        let moves: Vec<Move> = line.iter().filter_map(|&n| self.tree.node(n).mv).collect();
        let ply = self.tree.depth(self.view);
        let mut s = line_json(&self.start, &moves, ply, result.is_some());
        if let Value::Object(o) = &mut s {
            o.insert("type".into(), json!("state"));
            o.insert("node".into(), json!(self.view));
            let mut nodes = vec![ROOT];
            nodes.extend(line.iter().copied());
            o.insert("line".into(), json!(nodes));
            o.insert("mainline".into(), json!(self.tree.on_mainline(self.view)));
            o.insert("tree".into(), self.tree_json());
            o.insert(
                "result".into(),
                match &result {
                    Some(end) => json!({"score": end.result(), "text": end.reason}),
                    None => Value::Null,
                },
            );
            o.insert(
                "mode".into(),
                json!(match self.mode {
                    Mode::Play => "play",
                    Mode::Analyse => "analyse",
                }),
            );
            o.insert("human".into(), json!(side_letter(self.human)));
            let running = self.running.as_ref().map(|r| r.kind);
            o.insert("thinking".into(), json!(running == Some(Search::Move)));
            o.insert("analysing".into(), json!(self.analysing));
            o.insert("waiting".into(), json!(self.queued.is_some()));
            o.insert("clocks".into(), json!(self.clocks_now()));
            o.insert("skill".into(), json!(self.skill));
            o.insert("elo".into(), json!(self.elo));
            o.insert("multipv".into(), json!(self.multipv));
            o.insert("review".into(), self.review_json());
        }
        s
    }

    /// Answers a message that could not be read: the error, then the state.
    pub fn refuse(&mut self, why: impl Into<String>) -> Vec<Value> {
        vec![error(why), self.state()]
    }

    /// Handles one message of the page; returns the messages to send back (a
    /// refused message changes nothing and gets its error before the state).
    pub fn handle(&mut self, msg: &Value) -> Vec<Value> {
        let op = str_field(msg, "op").unwrap_or("");
        let r = match op {
            "new" => self.new_game(msg),
            "move" => self.play_move(msg),
            "undo" => self.undo(),
            "view" => self.set_view(msg),
            "promote" => self.promote(),
            "settings" => self.settings(msg),
            "analyse" => self.analyse(msg),
            "review" => self.ask_review(msg),
            "resign" => self.resign(),
            "pgn" => return vec![json!({"type": "pgn", "text": self.pgn()})],
            "loadpgn" => self.load_pgn(msg),
            "state" => Ok(()),
            "stop" => {
                self.analysing = false;
                self.stop_review();
                self.changed();
                Ok(())
            }
            "" => Err("a message needs an 'op'".to_string()),
            other => Err(format!("unknown op '{other}'")),
        };
        let mut out = Vec::new();
        if let Err(e) = r {
            out.push(error(e));
        }
        self.check_review();
        if let Err(e) = self.after_change() {
            out.push(error(e));
        }
        out.push(self.state());
        out
    }

    /// What the state asks the engine for.
    fn wanted(&self) -> Option<Search> {
        if self
            .review
            .as_ref()
            .is_some_and(|r| r.status == "queued" || r.status == "running")
        {
            Some(Search::Review)
        } else if self.engine_to_move() {
            Some(Search::Move)
        } else if self.analysing && self.mode == Mode::Analyse && self.result().is_none() {
            Some(Search::Analysis)
        } else {
            None
        }
    }

    /// Starts what the state asks for, at once or when a slot frees.
    fn after_change(&mut self) -> Result<(), String> {
        let want = self.wanted();
        if let Some(r) = &self.running {
            // A review being stopped still holds its slot: what comes next waits
            // for its end (a tab holds one slot at most).
            if Some(r.kind) == want || r.kind == Search::Review {
                return Ok(());
            }
            self.stop_search();
        }
        match want {
            None => {
                self.cancel_queue();
                Ok(())
            }
            Some(kind) => {
                if let Some(q) = &self.queued {
                    if q.kind == kind {
                        return Ok(());
                    }
                    self.cancel_queue();
                }
                match self.searches.clone().try_acquire_owned() {
                    Ok(p) => self.begin(kind, p),
                    Err(_) => {
                        self.queue(kind);
                        Ok(())
                    }
                }
            }
        }
    }

    /// Waits in line for a slot: a task asks the server's semaphore (first come,
    /// first served) and sends the slot back as an event.
    fn queue(&mut self, kind: Search) {
        self.requests += 1;
        let id = self.requests;
        let sem = self.searches.clone();
        let tx = self.events.clone();
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let task = tokio::spawn(async move {
            if let Ok(p) = sem.acquire_owned().await {
                let _ = tx.send(Event::Slot(id, p));
            }
        });
        self.queued = Some(Queued { kind, id, task });
    }

    fn cancel_queue(&mut self) {
        if let Some(q) = self.queued.take() {
            q.task.abort();
            self.waiting.fetch_sub(1, Ordering::SeqCst);
        }
    }

    /// Stops the engine's search (a review goes on: it has its own engine).
    fn stop_search(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.kind != Search::Review)
        {
            self.engine.stop();
            self.running = None;
        }
    }

    /// The game or the view changed: stale searches are stopped and their reports
    /// dropped (the tab keeps its place in line).
    fn changed(&mut self) {
        self.generation += 1;
        self.stop_search();
    }

    fn reset_clocks(&mut self) {
        if let Some((base, _)) = self.clock {
            self.clocks = [base as i64, base as i64];
        }
        self.turn_started = Instant::now();
    }

    /// A new game: `start` and the tree, shown at the main line's end.
    fn set_game(&mut self, start: Position, tree: Tree) -> Result<(), String> {
        self.changed();
        self.engine.set_variant(&start.variant().name)?;
        self.start = start;
        self.tree = tree;
        self.view = *self.tree.mainline().last().unwrap_or(&ROOT);
        self.ended = None;
        if let Some(r) = self.review.take() {
            r.cancel.store(true, Ordering::SeqCst);
        }
        self.reset_clocks();
        Ok(())
    }

    fn new_game(&mut self, msg: &Value) -> Result<(), String> {
        let variant = str_field(msg, "variant").unwrap_or("chess");
        let setup = match msg.get("setup") {
            Some(Value::String(s)) if s.trim().is_empty() => None,
            _ => int_field(msg, "setup")
                .map_err(|_| "the setup is a number".to_string())?
                .map(|n| usize::try_from(n).map_err(|_| "the setup is a number".to_string()))
                .transpose()?,
        };
        let start = start_position(&self.variants, variant, str_field(msg, "fen"), setup)?;
        let moves: Vec<String> = match msg.get("moves") {
            Some(Value::Array(a)) => a
                .iter()
                .filter_map(|m| m.as_str().map(str::to_string))
                .collect(),
            Some(Value::String(s)) => s.split([',', ' ']).map(str::to_string).collect(),
            _ => Vec::new(),
        };
        if moves.len() > MAX_PLIES {
            return Err(format!("more than {MAX_PLIES} moves"));
        }
        let game = super::board::replay(start, &moves)?;
        self.set_game(start, Tree::from_moves(game.moves()))
    }

    fn play_move(&mut self, msg: &Value) -> Result<(), String> {
        let text = str_field(msg, "move").ok_or("a move needs its text")?;
        if text.len() > 64 {
            return Err("that is not a move".into());
        }
        if let Some(end) = self.result() {
            return Err(format!("the game is over: {}", end.reason));
        }
        if self.mode == Mode::Play && self.side_at_view() != self.human {
            return Err("it is lancer's turn".into());
        }
        let pos = self.tree.position(&self.start, self.view);
        let m = parse_any(&pos, text).map_err(|_| refusal(&pos, text))?;
        let known = self
            .tree
            .node(self.view)
            .children
            .iter()
            .any(|&c| self.tree.node(c).mv == Some(m));
        if !known && self.tree.len() >= MAX_NODES {
            return Err(format!(
                "the game has {MAX_NODES} moves with its variations"
            ));
        }
        if self.tree.depth(self.view) >= MAX_PLIES {
            return Err(format!("the line has reached {MAX_PLIES} moves"));
        }
        self.changed();
        self.tick_clock();
        self.view = self.tree.child_or_push(self.view, m);
        Ok(())
    }

    /// The side that moved pays its time and gets its increment.
    fn tick_clock(&mut self) {
        if let (Some((_, inc)), Mode::Play) = (self.clock, self.mode) {
            let side = self.side_at_view().idx();
            self.clocks[side] -= self.turn_started.elapsed().as_millis() as i64;
            self.clocks[side] += inc as i64;
        }
        self.turn_started = Instant::now();
    }

    /// A side whose clock ran out loses.
    fn check_flag(&mut self) -> bool {
        if self.mode != Mode::Play || self.result().is_some() {
            return false;
        }
        let Some(c) = self.clocks_now() else {
            return false;
        };
        let side = self.side_at_view();
        if c[side.idx()] > 0 {
            return false;
        }
        self.changed();
        self.clocks[side.idx()] = 0;
        let reason = format!("{} loses on time", side.name());
        self.ended = Some((
            self.view,
            GameEnd::loss(side, reason, Termination::TimeForfeit),
        ));
        true
    }

    /// Every quarter second: the clock's flag, and an analysis that has had its
    /// `slice` while another tab waits for a slot goes back in line.
    pub fn tick(&mut self, slice: Duration) -> Vec<Value> {
        let mut changed = self.check_flag();
        let long = self
            .running
            .as_ref()
            .is_some_and(|r| r.kind == Search::Analysis && r.started.elapsed() > slice);
        if long && self.waiting.load(Ordering::SeqCst) > 0 {
            self.changed();
            self.queue(Search::Analysis);
            changed = true;
        }
        if !changed {
            return Vec::new();
        }
        let mut out = Vec::new();
        if let Err(e) = self.after_change() {
            out.push(error(e));
        }
        out.push(self.state());
        out
    }

    /// Removes `id` and what follows it, keeping every other node's place.
    fn remove(&mut self, id: NodeId) {
        let map = self.tree.remove(id);
        let at = |n: NodeId| map.get(n).copied().flatten();
        self.view = at(self.view).unwrap_or(ROOT);
        self.ended = self
            .ended
            .take()
            .and_then(|(n, end)| at(n).map(|n| (n, end)));
        if let Some(r) = &mut self.review {
            let line: Option<Vec<NodeId>> = r.line.iter().map(|&n| at(n)).collect();
            match line {
                Some(l) => {
                    r.line = l;
                    r.nags = r
                        .nags
                        .iter()
                        .filter_map(|&(n, s)| at(n).map(|n| (n, s)))
                        .collect();
                    for p in &mut r.points {
                        if let Some(n) = p["node"].as_u64().and_then(|n| at(n as usize)) {
                            p["node"] = json!(n);
                        }
                    }
                }
                None => {
                    r.cancel.store(true, Ordering::SeqCst);
                    self.review = None;
                }
            }
        }
    }

    fn undo(&mut self) -> Result<(), String> {
        if self.view == ROOT {
            return Err("no move to take back".into());
        }
        self.changed();
        let parent = self.tree.node(self.view).parent.unwrap_or(ROOT);
        self.remove(self.view);
        self.view = parent.min(self.tree.len() - 1);
        // Against lancer, back to a position where the person is to move.
        if self.mode == Mode::Play && self.side_at_view() != self.human && self.view != ROOT {
            let parent = self.tree.node(self.view).parent.unwrap_or(ROOT);
            self.remove(self.view);
            self.view = parent.min(self.tree.len() - 1);
        }
        self.turn_started = Instant::now();
        Ok(())
    }

    fn set_view(&mut self, msg: &Value) -> Result<(), String> {
        let target = match (int_field(msg, "node")?, int_field(msg, "ply")?) {
            (Some(n), _) => {
                let n = usize::try_from(n).ok().filter(|&n| self.tree.contains(n));
                n.ok_or("no such move in the game")?
            }
            (None, Some(ply)) => {
                let line = self.tree.line(self.view);
                let ply = ply.clamp(0, line.len() as i64) as usize;
                if ply == 0 {
                    ROOT
                } else {
                    line[ply - 1]
                }
            }
            (None, None) => return Err("a view needs a node or a ply".into()),
        };
        if target != self.view {
            self.changed();
            self.view = target;
        }
        Ok(())
    }

    /// Makes the line shown the main line.
    fn promote(&mut self) -> Result<(), String> {
        self.tree.promote(self.view);
        self.changed();
        Ok(())
    }

    fn settings(&mut self, msg: &Value) -> Result<(), String> {
        // Everything is read and checked first: a refused message changes nothing.
        let mode = match str_field(msg, "mode") {
            None => self.mode,
            Some("play") => Mode::Play,
            Some("analyse") => Mode::Analyse,
            Some(m) => return Err(format!("unknown mode '{m}'")),
        };
        let human = match str_field(msg, "human") {
            None => self.human,
            Some("w") => Color::White,
            Some("b") => Color::Black,
            Some(h) => return Err(format!("unknown colour '{h}'")),
        };
        let skill = match int_field(msg, "skill")? {
            Some(s) => in_range("skill", s, 0, 20, "")?,
            None => self.skill,
        };
        let (lo, hi) = (MIN_ELO, MAX_ELO);
        let elo = match msg.get("elo") {
            Some(Value::Null) => None,
            Some(_) => Some(in_range(
                "elo",
                int_field(msg, "elo")?.unwrap_or(lo),
                lo,
                hi,
                "",
            )?),
            None => self.elo,
        };
        let clock = match msg.get("base") {
            Some(Value::Null) => None,
            Some(_) => {
                let base = int_field(msg, "base")?.unwrap_or(0);
                let base = in_range("base", base, 1000, 3 * 3_600_000, " ms")?;
                let inc = in_range("inc", int_field(msg, "inc")?.unwrap_or(0), 0, 60_000, " ms")?;
                Some((base as u64, inc as u64))
            }
            None => self.clock,
        };
        let movetime = match int_field(msg, "movetime")? {
            Some(t) => in_range("movetime", t, 10, MAX_MOVETIME_MS as i64, " ms")? as u64,
            None => self.movetime,
        };
        let multipv = match int_field(msg, "multipv")? {
            Some(n) => in_range("multipv", n, 1, MAX_MULTIPV as i64, "")? as usize,
            None => self.multipv,
        };
        self.changed();
        let restart = msg.get("mode").is_some() || msg.get("base").is_some();
        (self.mode, self.human, self.skill, self.elo) = (mode, human, skill, elo);
        (self.clock, self.movetime, self.multipv) = (clock, movetime, multipv);
        if restart {
            self.ended = None;
            self.reset_clocks();
        }
        if self.mode == Mode::Play {
            self.analysing = false;
        }
        self.engine.set_strength(match self.elo {
            Some(e) => Strength::Elo(e),
            None => Strength::Level(self.skill),
        });
        Ok(())
    }

    fn analyse(&mut self, msg: &Value) -> Result<(), String> {
        let on = msg.get("on").and_then(Value::as_bool).unwrap_or(true);
        let multipv = match int_field(msg, "multipv")? {
            Some(n) => in_range("multipv", n, 1, MAX_MULTIPV as i64, "")? as usize,
            None => self.multipv,
        };
        self.changed();
        self.analysing = on;
        self.multipv = multipv;
        if on {
            self.mode = Mode::Analyse;
            self.stop_review();
        }
        Ok(())
    }

    fn stop_review(&mut self) {
        if let Some(r) = &mut self.review {
            if r.status == "queued" || r.status == "running" {
                r.cancel.store(true, Ordering::SeqCst);
                r.status = "stopped";
            }
        }
    }

    /// `review`: reviews the main line (`on: false` stops it).
    fn ask_review(&mut self, msg: &Value) -> Result<(), String> {
        let on = msg.get("on").and_then(Value::as_bool).unwrap_or(true);
        let movetime = match int_field(msg, "movetime")? {
            Some(t) => in_range("movetime", t, 10, 1000, " ms")? as u64,
            None => REVIEW_MS,
        };
        if !on {
            self.stop_review();
            return Ok(());
        }
        self.stop_review();
        self.changed();
        self.analysing = false;
        self.mode = Mode::Analyse;
        let mut line = vec![ROOT];
        line.extend(self.tree.mainline());
        self.requests += 1;
        self.review = Some(ReviewState {
            line,
            status: "queued",
            movetime,
            points: Vec::new(),
            nags: Vec::new(),
            summary: Value::Null,
            id: self.requests,
            cancel: Arc::new(AtomicBool::new(false)),
        });
        Ok(())
    }

    /// A review whose main line changed is dropped.
    fn check_review(&mut self) {
        let Some(r) = &self.review else { return };
        let main = self.tree.mainline();
        let same = r.line.len() <= main.len() + 1 && r.line[1..] == main[..r.line.len() - 1];
        if !same {
            r.cancel.store(true, Ordering::SeqCst);
            self.review = None;
        }
    }

    fn resign(&mut self) -> Result<(), String> {
        if self.result().is_some() {
            return Err("the game is already over".into());
        }
        let side = if self.mode == Mode::Play {
            self.human
        } else {
            self.side_at_view()
        };
        self.changed();
        let reason = format!("{} resigns", side.name());
        self.ended = Some((self.view, GameEnd::loss(side, reason, Termination::Normal)));
        Ok(())
    }

    /// Starts a search of `kind` with the slot `permit`.
    fn begin(&mut self, kind: Search, permit: OwnedSemaphorePermit) -> Result<(), String> {
        if kind == Search::Review {
            return self.begin_review(permit);
        }
        let mut limits = Limits::default();
        match kind {
            Search::Analysis => {
                limits.movetime = Some(MAX_ANALYSIS_MS);
                self.engine.set_multipv(self.multipv);
            }
            _ => {
                self.engine.set_multipv(1);
                match (self.clock, self.clocks_now()) {
                    (Some((_, inc)), Some(c)) => {
                        limits.time = [Some(c[0].max(1) as u64), Some(c[1].max(1) as u64)];
                        limits.inc = [inc, inc];
                    }
                    _ => limits.movetime = Some(self.movetime),
                }
            }
        }
        if !self.table {
            self.engine.set_hash(SESSION_HASH_MB)?;
            self.table = true;
        }
        // The engine searches the position at the view, with the line before it
        // for repetitions.
        self.engine.set_start(self.start);
        for m in self.tree.moves_to(self.view) {
            self.engine.play(m);
        }
        let gen = self.generation;
        let info_tx = self.events.clone();
        let done_tx = self.events.clone();
        let analysis = kind == Search::Analysis;
        self.engine.go(
            limits,
            Box::new(move |pos, i| {
                if i.currmove.is_none() && (analysis || i.multipv <= 1) {
                    let _ = info_tx.send(Event::Info(gen, info_json(pos, i)));
                }
            }),
            Box::new(move |_, r| {
                let _ = done_tx.send(Event::Done(gen, r.best));
            }),
        )?;
        self.running = Some(Running {
            kind,
            started: Instant::now(),
            _permit: Some(permit),
        });
        Ok(())
    }

    /// Starts the review on a thread of its own with its own engine; the thread
    /// holds the slot until it ends.
    fn begin_review(&mut self, permit: OwnedSemaphorePermit) -> Result<(), String> {
        let Some(r) = &mut self.review else {
            return Ok(());
        };
        r.status = "running";
        let line = r.line.clone();
        let moves: Vec<Move> = line[1..]
            .iter()
            .filter_map(|&n| self.tree.node(n).mv)
            .collect();
        let per = (MAX_ANALYSIS_MS / line.len() as u64).clamp(10, r.movetime);
        let budget = Budget {
            movetime: Some(per),
            depth: None,
            multipv: 1,
        };
        let (id, cancel) = (r.id, r.cancel.clone());
        let (tx, start, variants) = (self.events.clone(), self.start, self.variants.clone());
        let spawned = std::thread::Builder::new()
            .name("review".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let _slot = permit;
                let mut engine = Engine::with_variants(variants);
                let ready = engine
                    .set_hash(SESSION_HASH_MB)
                    .and_then(|_| engine.set_variant(&start.variant().name));
                let result = ready.and_then(|_| {
                    let mut pos = start;
                    let mut i_moves = moves.iter();
                    review::review(&mut engine, &start, &moves, budget, &cancel, |i, e, j| {
                        if i > 0 {
                            if let Some(&m) = i_moves.next() {
                                pos.do_move(m);
                            }
                        }
                        let point = point_json(i, line[i], &pos, e);
                        let nag = j.and_then(|j| j.judgment).map(|j| j.symbol());
                        let _ = tx.send(Event::ReviewStep(id, i, point, nag));
                    })
                });
                let _ = tx.send(Event::ReviewDone(id, result));
            });
        match spawned {
            Ok(_) => {
                self.running = Some(Running {
                    kind: Search::Review,
                    started: Instant::now(),
                    _permit: None,
                });
                Ok(())
            }
            Err(e) => {
                self.review = None;
                Err(format!("cannot start the review: {e}"))
            }
        }
    }

    /// Handles a report of a search, a slot or the review; returns the messages to
    /// send.
    pub fn event(&mut self, ev: Event) -> Vec<Value> {
        match ev {
            Event::Info(gen, v) if gen == self.generation => vec![v],
            Event::Done(gen, best) if gen == self.generation => self.search_done(best),
            Event::Info(..) | Event::Done(..) => Vec::new(),
            Event::Slot(id, permit) => {
                if self.queued.as_ref().map(|q| q.id) != Some(id) {
                    return Vec::new();
                }
                let kind = self.queued.take().map(|q| q.kind);
                self.waiting.fetch_sub(1, Ordering::SeqCst);
                let mut out = Vec::new();
                let r = if kind.is_some() && kind == self.wanted() && self.running.is_none() {
                    self.begin(kind.unwrap_or(Search::Analysis), permit)
                } else {
                    drop(permit);
                    self.after_change()
                };
                if let Err(e) = r {
                    out.push(error(e));
                }
                out.push(self.state());
                out
            }
            Event::ReviewStep(id, i, point, nag) => {
                let Some(r) = self.review.as_mut().filter(|r| r.id == id) else {
                    return Vec::new();
                };
                let node = r.line.get(i).copied().unwrap_or(ROOT);
                r.points.push(point.clone());
                if let Some(s) = nag {
                    r.nags.push((node, s));
                }
                vec![json!({
                    "type": "review",
                    "point": point,
                    "nag": nag.map(|s| json!({"node": node, "nag": s})),
                    "done": r.points.len(),
                    "total": r.line.len(),
                })]
            }
            Event::ReviewDone(id, result) => {
                if self.review.as_ref().map(|r| r.id) != Some(id) {
                    return Vec::new();
                }
                self.running = None;
                let mut out = Vec::new();
                match result {
                    Ok(rev) => self.review_done(&rev),
                    Err(e) => {
                        if let Some(r) = &mut self.review {
                            if r.status == "running" {
                                r.status = "stopped";
                                out.push(error(e));
                            }
                        }
                    }
                }
                if let Err(e) = self.after_change() {
                    out.push(error(e));
                }
                out.push(self.state());
                out
            }
        }
    }

    /// Lancer's move or the analysis ended.
    fn search_done(&mut self, best: Option<Move>) -> Vec<Value> {
        let kind = self.running.take().map(|r| r.kind);
        self.engine.stop();
        let mut out = Vec::new();
        if kind == Some(Search::Move) {
            let pos = self.tree.position(&self.start, self.view);
            match best.filter(|&m| pos.is_legal(m)) {
                Some(m) => {
                    self.generation += 1;
                    self.tick_clock();
                    self.view = self.tree.child_or_push(self.view, m);
                }
                None => out.push(error("lancer found no move")),
            }
        } else {
            self.analysing = false;
        }
        if let Err(e) = self.after_change() {
            out.push(error(e));
        }
        out.push(self.state());
        out
    }

    /// The finished review goes into the tree: evaluations and verdicts as
    /// comments, symbols as NAGs, the best lines as variations.
    fn review_done(&mut self, rev: &Review) {
        let mut game = pgn::PgnGame {
            tags: Vec::new(),
            start: self.start,
            tree: std::mem::take(&mut self.tree),
            result: "*".into(),
        };
        review::annotate(&mut game, rev, "lancer serve");
        self.tree = game.tree;
        if let Some(r) = &mut self.review {
            r.status = "done";
            r.summary = summary_json(rev);
        }
    }

    /// The game with its variations as `lancer match` writes a game
    /// (docs/match.md): the tags of [`pgn::tags`], the result's reason after
    /// the main line's last move.
    pub fn pgn(&self) -> String {
        let v = self.start.variant();
        let main = self.tree.mainline();
        let end = *main.last().unwrap_or(&ROOT);
        let result = self.result_at(end);
        let score = result.as_ref().map_or("*", GameEnd::result);
        let engine_name = match self.elo {
            Some(e) => format!("lancer (Elo {e})"),
            None => format!("lancer (Skill Level {})", self.skill),
        };
        let (white, black) = match (self.mode, self.human) {
            (Mode::Play, Color::White) => ("?".to_string(), engine_name),
            (Mode::Play, Color::Black) => (engine_name, "?".to_string()),
            (Mode::Analyse, _) => ("?".to_string(), "?".to_string()),
        };
        let time = match self.clock {
            Some((base, inc)) => pgn::TimeTags::Both(if inc > 0 {
                format!("{}+{}", base as f64 / 1000.0, inc as f64 / 1000.0)
            } else {
                format!("{}", base as f64 / 1000.0)
            }),
            None => pgn::TimeTags::None,
        };
        let termination = result
            .as_ref()
            .map_or(Termination::Unterminated, |e| e.termination);
        let tags = pgn::tags(&pgn::TagInfo {
            event: "lancer serve",
            round: "1",
            white: &white,
            black: &black,
            result: score,
            variant: v,
            start_fen: &self.start.efen(),
            time,
            plies: main.len(),
            termination,
            game_number: None,
        });
        let mut tree = self.tree.clone();
        if let Some(GameEnd { reason: r, .. }) = &result {
            let c = &mut tree.node_mut(end).comment;
            if !c.ends_with(r.as_str()) {
                if !c.is_empty() {
                    c.push_str(", ");
                }
                c.push_str(r);
            }
        }
        pgn::write(
            &pgn::PgnGame {
                tags,
                start: self.start,
                tree,
                result: score.to_string(),
            },
            pgn::Style::EXPORT,
        )
    }

    fn load_pgn(&mut self, msg: &Value) -> Result<(), String> {
        let text = str_field(msg, "pgn").ok_or("no PGN text")?;
        let read = pgn::read(text);
        let g = read.first().ok_or("no game in that PGN")?;
        if g.tree.len() > MAX_NODES {
            return Err(format!("more than {MAX_NODES} moves with the variations"));
        }
        let game = g.replay(&self.variants).map_err(|e| e.to_string())?;
        let main = game.tree.mainline();
        if main.len() > MAX_PLIES {
            return Err(format!("more than {MAX_PLIES} moves"));
        }
        self.set_game(game.start, game.tree)?;
        self.mode = Mode::Analyse;
        let end = self.view;
        if self.result_at(end).is_none() {
            let says = "as the PGN says";
            let ended = match game.result.as_str() {
                "1-0" => Some(GameEnd::loss(Color::Black, says, Termination::Normal)),
                "0-1" => Some(GameEnd::loss(Color::White, says, Termination::Normal)),
                "1/2-1/2" => Some(GameEnd::draw(says, Termination::Normal)),
                _ => None,
            };
            self.ended = ended.map(|e| (end, e));
        }
        Ok(())
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // The tab's place in line goes with it (the count of waiting tabs too).
        self.cancel_queue();
        if let Some(r) = &self.review {
            r.cancel.store(true, Ordering::SeqCst);
        }
    }
}
