//! One browser tab's game: its position and moves, the view being looked at, the
//! game's settings (play against lancer or analyse, level, clock), and its own
//! engine. The WebSocket handler feeds it the page's messages and the search's
//! reports; everything it answers is JSON (docs/protocols.md, `lancer serve`).

use super::board::{game_json, position_at, refusal, replay, side_letter, start_position};
use crate::engine::Engine;
use crate::rules::notation::pgn;
use crate::rules::notation::{parse_any, san};
use crate::rules::{Color, Game, Move, Position, Variants};
use crate::search::{wdl, Info, Limits, MATE, MATE_BOUND};
use serde_json::{json, Value};
use std::time::Instant;
use tokio::sync::mpsc::UnboundedSender;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Table size of a tab's engine (MB): small, since many tabs may be open.
const SESSION_HASH_MB: usize = 16;
/// The longest analysis (ms): a page cannot start an endless search.
const MAX_ANALYSIS_MS: u64 = 120_000;
/// The longest engine move without a clock (ms).
const MAX_MOVETIME_MS: u64 = 60_000;
/// Most lines of an analysis.
const MAX_MULTIPV: usize = 8;
/// Longest PV shown, in plies.
const PV_PLIES: usize = 16;
/// Most moves of a game (a URL or a PGN longer than this is refused).
pub const MAX_PLIES: usize = 2000;

/// What the search thread tells the tab's handler.
pub enum Event {
    /// An iteration's report (already JSON), for the game generation it searched.
    Info(u64, Value),
    /// The search ended with this best move.
    Done(u64, Option<Move>),
}

/// Play against lancer, or analyse.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Analyse,
    Play,
}

/// What the running search is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Search {
    Move,
    Analysis,
}

/// One tab's game and engine.
pub struct Session {
    variants: Variants,
    game: Game,
    view: usize,
    /// A result the rules do not give: resignation, time.
    ended: Option<(String, String)>,
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
    /// Bumped by every change of the game, so a stale search's report is dropped.
    generation: u64,
    search: Option<Search>,
    permit: Option<OwnedSemaphorePermit>,
    searches: std::sync::Arc<Semaphore>,
    events: UnboundedSender<Event>,
}

/// A message for the page.
pub fn error(msg: impl Into<String>) -> Value {
    json!({"type": "error", "message": msg.into()})
}

fn str_field<'a>(msg: &'a Value, key: &str) -> Option<&'a str> {
    msg.get(key).and_then(Value::as_str)
}

fn int_field(msg: &Value, key: &str) -> Option<i64> {
    msg.get(key).and_then(|v| {
        v.as_i64()
            .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
    })
}

/// A score from the side to move's view as the page shows it: White's view,
/// `+0.35` or `#3` / `#-3`.
fn score_json(score: i32, side: Color) -> Value {
    let white = if side == Color::White { score } else { -score };
    let text = if white.abs() >= MATE_BOUND {
        let moves = (MATE - white.abs() + 1) / 2;
        if white > 0 {
            format!("#{moves}")
        } else {
            format!("#-{moves}")
        }
    } else {
        format!("{:+.2}", white as f64 / 100.0)
    };
    json!({"cp": white.clamp(-MATE, MATE), "text": text, "mate": white.abs() >= MATE_BOUND})
}

/// An iteration's report for the page: score (White's view), WDL (the side to
/// move's), the line in SAN and the first move's squares for the arrow.
fn info_json(pos: &Position, i: &Info) -> Value {
    let [w, d, l] = wdl::wdl(&wdl::model(pos.variant()), i.score, pos.game_ply());
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

impl Session {
    /// A new tab: chess from the start, analysing, nothing searched.
    pub fn new(
        variants: Variants,
        searches: std::sync::Arc<Semaphore>,
        events: UnboundedSender<Event>,
    ) -> Result<Session, String> {
        let mut engine = Engine::with_variants(variants.clone());
        engine.set_hash(SESSION_HASH_MB)?;
        let start = start_position(&variants, "chess", None, None)?;
        Ok(Session {
            variants,
            game: Game::new(start),
            view: 0,
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
            generation: 0,
            search: None,
            permit: None,
            searches,
            events,
        })
    }

    /// Stops any search and waits for it (the tab went, or the game changed).
    pub fn stop(&mut self) {
        self.engine.stop();
        self.search = None;
        self.permit = None;
    }

    fn result(&self) -> Option<(String, String)> {
        if let Some(e) = &self.ended {
            return Some(e.clone());
        }
        self.game.outcome().map(|o| {
            (
                o.score().to_string(),
                o.describe(self.game.position().variant()).to_string(),
            )
        })
    }

    fn engine_to_move(&self) -> bool {
        self.mode == Mode::Play
            && self.result().is_none()
            && self.game.position().side() != self.human
            && self.view == self.game.moves().len()
    }

    /// The clocks now (ms), with the running side's time taken off.
    fn clocks_now(&self) -> Option<[i64; 2]> {
        self.clock?;
        let mut c = self.clocks;
        if self.mode == Mode::Play && self.result().is_none() {
            let side = self.game.position().side().idx();
            c[side] -= self.turn_started.elapsed().as_millis() as i64;
        }
        Some(c)
    }

    /// The state message: the game at the view, the result and the settings.
    pub fn state(&self) -> Value {
        let result = self.result();
        let mut s = game_json(&self.game, self.view, result.is_some());
        if let Value::Object(o) = &mut s {
            o.insert("type".into(), json!("state"));
            o.insert(
                "result".into(),
                match &result {
                    Some((score, text)) => json!({"score": score, "text": text}),
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
            o.insert("thinking".into(), json!(self.search == Some(Search::Move)));
            o.insert("analysing".into(), json!(self.analysing));
            o.insert("clocks".into(), json!(self.clocks_now()));
            o.insert("skill".into(), json!(self.skill));
            o.insert("elo".into(), json!(self.elo));
        }
        s
    }

    /// Handles one message of the page; returns the messages to send back.
    pub fn handle(&mut self, msg: &Value) -> Vec<Value> {
        let op = str_field(msg, "op").unwrap_or("");
        let r = match op {
            "new" => self.new_game(msg),
            "move" => self.play_move(msg),
            "undo" => self.undo(),
            "view" => self.set_view(msg),
            "settings" => self.settings(msg),
            "analyse" => self.analyse(msg),
            "resign" => self.resign(),
            "pgn" => return vec![json!({"type": "pgn", "text": self.pgn()})],
            "loadpgn" => self.load_pgn(msg),
            "state" => Ok(()),
            "stop" => {
                self.analysing = false;
                self.stop();
                Ok(())
            }
            "" => Err("a message needs an 'op'".to_string()),
            other => Err(format!("unknown op '{other}'")),
        };
        let mut out = Vec::new();
        if let Err(e) = r {
            out.push(error(e));
        }
        if let Err(e) = self.after_change() {
            out.push(error(e));
        }
        out.push(self.state());
        out
    }

    /// Starts what the new state asks for: lancer's move, or the analysis.
    fn after_change(&mut self) -> Result<(), String> {
        if self.search.is_some() {
            return Ok(());
        }
        if self.engine_to_move() {
            self.start_search(Search::Move)
        } else if self.analysing && self.mode == Mode::Analyse {
            self.start_search(Search::Analysis)
        } else {
            Ok(())
        }
    }

    /// The game changed: stale searches are stopped and their reports dropped.
    fn changed(&mut self) {
        self.generation += 1;
        self.stop();
    }

    fn reset_clocks(&mut self) {
        if let Some((base, _)) = self.clock {
            self.clocks = [base as i64, base as i64];
        }
        self.turn_started = Instant::now();
    }

    fn new_game(&mut self, msg: &Value) -> Result<(), String> {
        let variant = str_field(msg, "variant").unwrap_or("chess");
        let setup = match msg.get("setup") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if s.trim().is_empty() => None,
            Some(_) => Some(
                int_field(msg, "setup")
                    .filter(|n| *n >= 0)
                    .ok_or("the setup is a number")? as usize,
            ),
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
        let game = replay(start, &moves)?;
        self.changed();
        self.engine.set_variant(&start.variant().name)?;
        self.view = game.moves().len();
        self.game = game;
        self.ended = None;
        self.reset_clocks();
        Ok(())
    }

    fn play_move(&mut self, msg: &Value) -> Result<(), String> {
        let text = str_field(msg, "move").ok_or("a move needs its text")?;
        if text.len() > 64 {
            return Err("that is not a move".into());
        }
        if let Some((_, why)) = self.result() {
            return Err(format!("the game is over: {why}"));
        }
        if self.mode == Mode::Play && self.search == Some(Search::Move) {
            return Err("it is lancer's turn".into());
        }
        let pos = position_at(&self.game, self.view);
        let m = parse_any(&pos, text).map_err(|_| refusal(&pos, text))?;
        if self.game.moves().len() >= MAX_PLIES {
            return Err(format!("the game has reached {MAX_PLIES} moves"));
        }
        self.changed();
        self.truncate_to_view();
        self.tick_clock();
        self.game.play(m);
        self.view = self.game.moves().len();
        Ok(())
    }

    /// Playing from an earlier view starts a new line there.
    fn truncate_to_view(&mut self) {
        while self.game.moves().len() > self.view {
            self.game.undo();
        }
    }

    /// The side that moved pays its time and gets its increment.
    fn tick_clock(&mut self) {
        if let (Some((_, inc)), Mode::Play) = (self.clock, self.mode) {
            let side = self.game.position().side().idx();
            self.clocks[side] -= self.turn_started.elapsed().as_millis() as i64;
            self.clocks[side] += inc as i64;
        }
        self.turn_started = Instant::now();
    }

    /// A side whose clock ran out loses.
    pub fn check_flag(&mut self) -> bool {
        if self.ended.is_some() || self.result().is_some() || self.mode != Mode::Play {
            return false;
        }
        let Some(c) = self.clocks_now() else {
            return false;
        };
        let side = self.game.position().side();
        if c[side.idx()] > 0 {
            return false;
        }
        self.changed();
        self.clocks[side.idx()] = 0;
        self.ended = Some((
            if side == Color::White { "0-1" } else { "1-0" }.into(),
            format!("{} loses on time", side.name()),
        ));
        true
    }

    fn undo(&mut self) -> Result<(), String> {
        self.changed();
        self.truncate_to_view();
        if self.game.moves().is_empty() {
            return Err("no move to take back".into());
        }
        self.ended = None;
        self.game.undo();
        // Against lancer, back to a position where the person is to move.
        if self.mode == Mode::Play
            && self.game.position().side() != self.human
            && !self.game.moves().is_empty()
        {
            self.game.undo();
        }
        self.view = self.game.moves().len();
        self.turn_started = Instant::now();
        Ok(())
    }

    fn set_view(&mut self, msg: &Value) -> Result<(), String> {
        let ply = int_field(msg, "ply").ok_or("a view needs a ply")?;
        let ply = ply.clamp(0, self.game.moves().len() as i64) as usize;
        if ply != self.view {
            self.changed();
            self.view = ply;
        }
        Ok(())
    }

    fn settings(&mut self, msg: &Value) -> Result<(), String> {
        self.changed();
        if let Some(m) = str_field(msg, "mode") {
            self.mode = match m {
                "play" => Mode::Play,
                "analyse" => Mode::Analyse,
                _ => return Err(format!("unknown mode '{m}'")),
            };
        }
        if let Some(h) = str_field(msg, "human") {
            self.human = match h {
                "w" => Color::White,
                "b" => Color::Black,
                _ => return Err(format!("unknown colour '{h}'")),
            };
        }
        if let Some(s) = int_field(msg, "skill") {
            self.skill = s.clamp(0, 20);
        }
        match msg.get("elo") {
            Some(Value::Null) => self.elo = None,
            Some(_) => {
                self.elo = int_field(msg, "elo")
                    .map(|e| e.clamp(crate::search::skill::MIN_ELO, crate::search::skill::MAX_ELO))
            }
            None => {}
        }
        match msg.get("base") {
            Some(Value::Null) => self.clock = None,
            Some(_) => {
                let base = int_field(msg, "base").ok_or("the clock's base is a number (ms)")?;
                let inc = int_field(msg, "inc").unwrap_or(0);
                self.clock = Some((
                    base.clamp(1000, 3 * 3_600_000) as u64,
                    inc.clamp(0, 60_000) as u64,
                ));
            }
            None => {}
        }
        if let Some(t) = int_field(msg, "movetime") {
            self.movetime = t.clamp(10, MAX_MOVETIME_MS as i64) as u64;
        }
        if let Some(n) = int_field(msg, "multipv") {
            self.multipv = n.clamp(1, MAX_MULTIPV as i64) as usize;
        }
        if msg.get("mode").is_some() || msg.get("base").is_some() {
            self.ended = None;
            self.reset_clocks();
        }
        self.engine
            .set_option("Skill Level", Some(&self.skill.to_string()))?;
        match self.elo {
            Some(e) => {
                self.engine.set_option("UCI_LimitStrength", Some("true"))?;
                self.engine.set_option("UCI_Elo", Some(&e.to_string()))?;
            }
            None => self.engine.set_option("UCI_LimitStrength", Some("false"))?,
        }
        Ok(())
    }

    fn analyse(&mut self, msg: &Value) -> Result<(), String> {
        self.changed();
        self.analysing = msg.get("on").and_then(Value::as_bool).unwrap_or(true);
        if let Some(n) = int_field(msg, "multipv") {
            self.multipv = n.clamp(1, MAX_MULTIPV as i64) as usize;
        }
        if self.analysing && self.mode == Mode::Play {
            self.mode = Mode::Analyse;
        }
        Ok(())
    }

    fn resign(&mut self) -> Result<(), String> {
        if self.result().is_some() {
            return Err("the game is already over".into());
        }
        let side = if self.mode == Mode::Play {
            self.human
        } else {
            self.game.position().side()
        };
        self.changed();
        self.truncate_to_view();
        self.ended = Some((
            if side == Color::White { "0-1" } else { "1-0" }.into(),
            format!("{} resigns", side.name()),
        ));
        Ok(())
    }

    fn start_search(&mut self, kind: Search) -> Result<(), String> {
        let permit = match self.searches.clone().try_acquire_owned() {
            Ok(p) => p,
            Err(_) => {
                self.analysing = false;
                return Err("the server is busy: too many searches at once; try again soon".into());
            }
        };
        let mut limits = Limits::default();
        match kind {
            Search::Analysis => {
                limits.movetime = Some(MAX_ANALYSIS_MS);
                limits.multipv = self.multipv;
            }
            Search::Move => {
                limits.multipv = 1;
                match (self.clock, self.clocks_now()) {
                    (Some((_, inc)), Some(c)) => {
                        limits.time = [Some(c[0].max(1) as u64), Some(c[1].max(1) as u64)];
                        limits.inc = [inc, inc];
                    }
                    _ => limits.movetime = Some(self.movetime),
                }
            }
        }
        // The engine searches the position at the view, with the game's history
        // before it for repetitions.
        self.engine.set_start(*self.game.start());
        for &m in self.game.moves().iter().take(self.view) {
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
        self.search = Some(kind);
        self.permit = Some(permit);
        Ok(())
    }

    /// Handles a report of the search thread; returns the messages to send.
    pub fn event(&mut self, ev: Event) -> Vec<Value> {
        match ev {
            Event::Info(gen, v) if gen == self.generation => vec![v],
            Event::Info(..) => Vec::new(),
            Event::Done(gen, best) if gen == self.generation => {
                let kind = self.search;
                self.stop();
                let mut out = Vec::new();
                if kind == Some(Search::Move) {
                    match best.filter(|&m| self.game.position().is_legal(m)) {
                        Some(m) => {
                            self.generation += 1;
                            self.tick_clock();
                            self.game.play(m);
                            self.view = self.game.moves().len();
                        }
                        None => out.push(error("lancer found no move")),
                    }
                    if let Err(e) = self.after_change() {
                        out.push(error(e));
                    }
                } else {
                    self.analysing = false;
                }
                out.push(self.state());
                out
            }
            Event::Done(..) => Vec::new(),
        }
    }

    /// The game as `lancer match` writes it (docs/protocols.md).
    pub fn pgn(&self) -> String {
        let v = self.game.start().variant();
        let result = self.result();
        let score = result.as_ref().map_or("*", |(s, _)| s.as_str());
        let start_fen = self.game.start().efen();
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
        let termination = match &result {
            Some((_, t)) if t.ends_with("on time") => "time forfeit",
            Some(_) => "normal",
            None => "unterminated",
        };
        let tags = pgn::tags(&pgn::TagInfo {
            event: "lancer serve",
            round: "1",
            white: &white,
            black: &black,
            result: score,
            variant: v,
            start_fen: &start_fen,
            time,
            plies: self.game.moves().len(),
            termination,
            game_number: None,
        });
        let mut tree = pgn::Tree::from_moves(self.game.moves());
        if let Some((_, r)) = &result {
            let last = tree.mainline().last().copied().unwrap_or(pgn::ROOT);
            tree.node_mut(last).comment = r.clone();
        }
        pgn::write(
            &pgn::PgnGame {
                tags,
                start: *self.game.start(),
                tree,
                result: score.to_string(),
            },
            pgn::Style::default(),
        )
    }

    fn load_pgn(&mut self, msg: &Value) -> Result<(), String> {
        let text = str_field(msg, "pgn").ok_or("no PGN text")?;
        let games = pgn::read(text);
        let g = games.first().ok_or("no game in that PGN")?;
        let variant = g.tag("Variant").unwrap_or("chess").to_string();
        let start = start_position(&self.variants, &variant, g.tag("FEN"), None)?;
        let sans = g.sans();
        if sans.len() > MAX_PLIES {
            return Err(format!("more than {MAX_PLIES} moves"));
        }
        let game = replay(start, &sans)?;
        self.changed();
        self.engine.set_variant(&start.variant().name)?;
        self.mode = Mode::Analyse;
        self.view = game.moves().len();
        self.game = game;
        self.ended = match g.result.as_str() {
            r @ ("1-0" | "0-1" | "1/2-1/2") if self.game.outcome().is_none() => {
                Some((r.to_string(), "as the PGN says".to_string()))
            }
            _ => None,
        };
        Ok(())
    }
}
