//! XBoard / CECP v2 (docs/xboard.md; its limits in "Known
//! limits of XBoard").
//!
//! Stdin is read on its own thread; its lines and the search's results meet in one
//! channel, so the engine's own moves are played into the game by the main loop.
//! This file holds the session (its state, searches, pondering, the loop); the
//! commands are in `commands.rs`, move highlighting (`lift`/`put`) in
//! `highlight.rs`, the variant's `setup`/`piece` lines and `variant`/`setboard` in
//! `setup.rs`. XBoard's move text and FEN are in the rules core
//! (`rules::notation::xboard`, `rules::notation::xboard_fen`). Known limit: XBoard 4.9.1 cannot
//! show a Royal Standard displacement; such a capture is sent as a plain move
//! (`b2b5`) while the engine keeps the true position. Likewise a fullcavalry castling
//! that turns the lancer cannot be written, so in CECP mode the engine only castles
//! without turning (when it can). A peer that reads move text (docs/notation.md) (`lancer
//! match`) sets the option `Full move text`, and those moves then travel in move
//! text both ways.

use super::out;
use crate::engine::{Engine, MAX_HASH, MAX_THREADS};
use crate::engine::{Info, Limits, SearchResult};
use crate::rules::bitboard::{parse_square, square};
use crate::rules::notation::xboard::{
    hidden_bearers, parse_xboard_move, xboard_move, xboard_move_full, xboard_writable,
    FACING_LETTERS, FULL_TEXT_OPTION, VANISH,
};
use crate::rules::notation::xboard_fen::{efen_from_xboard, xboard_fen};
use crate::rules::variant::Start;
use crate::rules::{Color, Kind, Move, MoveList, MoveType, Outcome, Position};
use std::sync::mpsc::{channel, Sender};

mod commands;
mod highlight;
mod setup;

pub use setup::setup_lines;

/// CECP's error line for a command (the command cut to 80 characters).
fn error(reason: &str, cmd: &str) {
    out(&format!(
        "Error ({reason}): {}",
        cmd.chars().take(80).collect::<String>()
    ));
}

// ---------------------------------------------------------------------------
// The session

/// What a CECP session reacts to: input lines and its searches' results.
pub enum Event {
    Line(String),
    Done(u64, SearchResult),
    Eof,
}

/// One CECP session: the engine plus the protocol state. Its searches report through
/// the `Sender` given to [`Session::new`]; pass what arrives to [`Session::on_event`].
pub struct Session {
    engine: Engine,
    tx: Sender<Event>,
    /// The side the engine plays; `None` in force mode.
    engine_side: Option<Color>,
    post: bool,
    analyzing: bool,
    /// A move search is running whose result will be played.
    thinking: bool,
    /// Generation of the current search; stale results are dropped.
    gen: u64,
    /// The game ended (claimed or `result`): no more thinking.
    over: bool,
    mps: u32,
    base_ms: u64,
    inc_ms: u64,
    st_ms: Option<u64>,
    sd: Option<i32>,
    /// Engine's and opponent's clocks (ms), from `time` / `otim`.
    time_ms: Option<u64>,
    otim_ms: Option<u64>,
    /// The square of the last `lift`, and a sentry's victim after `put` on a cyan square.
    lifted: Option<u8>,
    leg: Option<(u8, u8)>,
    /// `hard`: think on the opponent's time.
    ponder: bool,
    /// The expected reply, played into the game while the engine ponders on it.
    pondering: Option<Move>,
    /// When the engine's clock started for the search that is running (`go`, the
    /// opponent's move, a ponder hit): what that move cost, for pondering after it.
    clock_start: std::time::Instant,
    /// `option Full move text=1`: moves XBoard cannot express go out in move text.
    full_text: bool,
    /// The random setup last announced, while no move has been played from it.
    /// XBoard keeps the first `setup` it receives for a game and relays it to the
    /// second engine, but in match mode it sends `new` + `variant` twice before the
    /// first answer arrives: so every `variant` of the same random variant gets the
    /// same setup until the game has started.
    unplayed_setup: Option<Position>,
}

fn claim(o: &Outcome, v: &crate::rules::Variant) -> String {
    format!("{} {{{}}}", o.score(), o.describe(v))
}

fn thinking_line(pos: &Position, i: &Info, full: bool) -> String {
    let mut p = *pos;
    let mut pv = Vec::new();
    for &m in &i.pv {
        pv.push(if full {
            xboard_move_full(&p, m)
        } else {
            xboard_move(&p, m)
        });
        p.do_move(m);
    }
    format!(
        "{} {} {} {} {}",
        i.depth,
        i.score.xboard(),
        i.time_ms / 10,
        i.nodes,
        pv.join(" ")
    )
}

fn parse_time_ms(s: &str) -> Option<u64> {
    // `level` base: minutes, or `min:sec`.
    match s.split_once(':') {
        // Saturating: absurd clocks must not overflow (found by fuzzing `level`).
        Some((m, sec)) => Some(
            m.parse::<u64>()
                .ok()?
                .saturating_mul(60_000)
                .saturating_add(sec.parse::<u64>().ok()?.saturating_mul(1000)),
        ),
        None => s
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && *x >= 0.0)
            .map(|x| (x * 60_000.0) as u64),
    }
}

impl Session {
    /// A session for `engine`; search results are sent to `tx`.
    pub fn new(engine: Engine, tx: Sender<Event>) -> Session {
        Session {
            engine,
            tx,
            engine_side: Some(Color::Black),
            post: false,
            analyzing: false,
            thinking: false,
            gen: 0,
            over: false,
            mps: 0,
            base_ms: 0,
            inc_ms: 0,
            st_ms: None,
            sd: None,
            time_ms: None,
            otim_ms: None,
            lifted: None,
            leg: None,
            ponder: false,
            pondering: None,
            clock_start: std::time::Instant::now(),
            full_text: false,
            unplayed_setup: None,
        }
    }

    /// Stops any search and forgets its result.
    fn cancel(&mut self) {
        self.gen += 1;
        self.thinking = false;
        self.engine.stop();
    }

    fn limits(&self) -> Limits {
        let mut l = Limits::default();
        let pos = self.engine.position();
        let us = pos.side();
        l.depth = self.sd;
        if let Some(st) = self.st_ms {
            l.movetime = Some(st.max(1));
        } else {
            let mine = self.time_ms.or((self.base_ms > 0).then_some(self.base_ms));
            match mine {
                Some(t) => {
                    l.time[us.idx()] = Some(t.max(1));
                    l.time[us.flip().idx()] = Some(self.otim_ms.unwrap_or(t).max(1));
                    l.inc = [self.inc_ms; 2];
                    if self.mps > 0 {
                        let done = (pos.fullmove().max(1) as u32 - 1) % self.mps;
                        l.movestogo = Some(self.mps - done);
                    }
                }
                None if self.sd.is_none() => l.movetime = Some(1000),
                None => {}
            }
        }
        // Only moves whose XBoard text reads back as the same move: a fullcavalry
        // castling that turns the lancer cannot be written, and a Royal Standard
        // displacement travels as the plain capture, which the other side (another
        // engine behind XBoard) reads as the first displacement square.
        // And no move of a standard-bearer XBoard no longer shows: it removed the
        // bearer at its displacement, so it would call that move invalid.
        // A peer that reads move text (`Full move text`) gets every move as it is.
        if self.full_text {
            return l;
        }
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let ghosts = hidden_bearers(self.engine.game().moves());
        let rest: Vec<Move> = xboard_writable(pos)
            .into_iter()
            .filter(|m| m.is_pass() || !ghosts.contains(&m.from()))
            .collect();
        if rest.len() < list.len() && !rest.is_empty() {
            l.searchmoves = rest;
        }
        l
    }

    /// Starts thinking on the engine's move (if the game is on and it is its turn).
    fn think(&mut self) {
        if self.over || self.engine_side != Some(self.engine.position().side()) {
            return;
        }
        if let Some(o) = self.engine.game().outcome() {
            self.over = true;
            out(&claim(&o, self.engine.variant()));
            return;
        }
        self.cancel();
        let l = self.limits();
        self.thinking = true;
        self.clock_start = std::time::Instant::now();
        self.start_search(l);
    }

    /// Starts the search of generation `self.gen`; its result comes back as an event.
    fn start_search(&mut self, l: Limits) {
        let gen = self.gen;
        let tx = self.tx.clone();
        let post = self.post;
        let full = self.full_text;
        let started = self.engine.go(
            l,
            Box::new(move |pos, i| {
                if post && i.currmove.is_none() {
                    out(&thinking_line(pos, i, full))
                }
            }),
            Box::new(move |_, r| {
                let _ = tx.send(Event::Done(gen, r));
            }),
        );
        if let Err(e) = started {
            self.thinking = false;
            error(&e, "go");
        }
    }

    fn analyze(&mut self) {
        self.cancel();
        if self.engine.game().outcome().is_some() {
            return;
        }
        let l = Limits {
            infinite: true,
            ..Limits::default()
        };
        let full = self.full_text;
        if let Err(e) = self.engine.go(
            l,
            Box::new(move |pos, i| {
                if i.currmove.is_none() {
                    out(&thinking_line(pos, i, full))
                }
            }),
            Box::new(|_, _| {}),
        ) {
            error(&e, "analyze");
        }
    }

    /// After any move: claims the result if the game ended.
    fn check_end(&mut self) -> bool {
        if let Some(o) = self.engine.game().outcome() {
            self.over = true;
            out(&claim(&o, self.engine.variant()));
            true
        } else {
            false
        }
    }

    fn done(&mut self, gen: u64, r: SearchResult) {
        if gen != self.gen || !self.thinking {
            return;
        }
        self.thinking = false;
        let pos = *self.engine.position();
        match r.best {
            Some(m) => {
                let text = if self.full_text {
                    xboard_move_full(&pos, m)
                } else {
                    xboard_move(&pos, m)
                };
                out(&format!("move {text}"));
                self.engine.play(m);
                self.unplayed_setup = None;
                if !self.check_end() {
                    if let Some(p) = r.ponder {
                        self.start_ponder(p);
                    }
                }
            }
            None => {
                self.check_end();
            }
        }
    }

    /// After the engine's move: plays the expected reply `p` and searches on it.
    fn start_ponder(&mut self, p: Move) {
        if !self.ponder || self.analyzing {
            return;
        }
        let mut list = MoveList::new();
        self.engine.position().legal_moves(&mut list);
        if !list.contains(p) {
            return;
        }
        self.engine.play(p);
        if self.engine.game().outcome().is_some() {
            self.engine.undo();
            return;
        }
        let l = self.ponder_limits(self.clock_start.elapsed().as_millis() as u64);
        self.gen += 1;
        self.thinking = true;
        self.pondering = Some(p);
        self.start_search(l);
    }

    /// The limits of a ponder search, after a move of the engine that took `used` ms:
    /// its clock as it stands after that move (the last `time` less `used`, plus the
    /// increment). On a ponder hit the search goes on as the real one, with no new
    /// `time` to read, and must not think longer than that clock allows; its time
    /// counts from the start of pondering, so the opponent's time it thinks on
    /// shortens what it takes after the hit.
    fn ponder_limits(&self, used: u64) -> Limits {
        let mut l = self.limits();
        l.ponder = true;
        let us = self.engine.position().side().idx();
        if let Some(t) = l.time[us] {
            l.time[us] = Some(t.saturating_sub(used).saturating_add(self.inc_ms).max(1));
        }
        l
    }

    /// Ends pondering: the search is dropped and the expected reply taken back.
    fn unponder(&mut self) {
        if self.pondering.take().is_some() {
            self.cancel();
            self.engine.undo();
        }
    }

    /// Reacts to one event; false when the session ends (`quit` or end of input).
    pub fn on_event(&mut self, ev: Event) -> bool {
        match ev {
            Event::Line(l) => self.handle(&l),
            Event::Done(g, r) => {
                self.done(g, r);
                true
            }
            Event::Eof => false,
        }
    }

    /// Whether a search is running whose move will be played (not analysis, not pondering).
    pub fn awaiting_move(&self) -> bool {
        self.thinking && self.pondering.is_none()
    }

    /// The engine (game, options).
    pub fn engine(&self) -> &Engine {
        &self.engine
    }
}

/// The XBoard loop (`first` is the line that selected XBoard, if already read).
pub fn run(first: Option<String>, variants: crate::rules::Variants) {
    let (tx, rx) = channel();
    let mut s = Session::new(Engine::with_variants(variants), tx.clone());
    if let Some(f) = first {
        s.handle(&f);
    }
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        while let Some(line) = super::read_line(&mut buf) {
            if tx.send(Event::Line(line)).is_err() {
                return;
            }
        }
        let _ = tx.send(Event::Eof);
    });
    while let Ok(ev) = rx.recv() {
        let eof = matches!(ev, Event::Eof);
        if !s.on_event(ev) {
            if eof {
                break;
            }
            return;
        }
    }
    s.cancel();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::bitboard::square_name;
    use crate::rules::Variants;

    #[test]
    fn only_writable_displacements_are_searched() {
        // Found by the soak: the engine played a displacement XBoard cannot write, the
        // referee read the plain capture as another one, and the games diverged.
        let vs = Variants::builtin();
        let v = vs.get("royalstandard").unwrap();
        let pos = Position::from_efen(v, "*k4*/7/7/2s4/1SR4/*K4* w - - 0 1").unwrap();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let displacing: Vec<Move> = list
            .iter()
            .copied()
            .filter(|m| m.is_displacement())
            .collect();
        assert!(displacing.len() > 1);
        let (tx, _rx) = channel();
        let mut s = Session::new(Engine::new(), tx);
        s.engine.set_variant("royalstandard").unwrap();
        s.engine.set_start(pos);
        let l = s.limits();
        assert!(!l.searchmoves.is_empty());
        for &m in &displacing {
            assert_eq!(
                l.searchmoves.contains(&m),
                parse_xboard_move(&pos, &xboard_move(&pos, m)) == Ok(m),
                "{m:?}"
            );
            // What a referee relays to a peer that reads move text is the move itself.
            assert_eq!(parse_xboard_move(&pos, &xboard_move_full(&pos, m)), Ok(m));
        }
        // One displacement per plain capture (from, to) is left.
        let mut captures: Vec<(u8, u8)> = displacing.iter().map(|m| (m.from(), m.to())).collect();
        captures.sort();
        captures.dedup();
        assert!(captures.len() < displacing.len());
        assert_eq!(
            displacing
                .iter()
                .filter(|&&m| l.searchmoves.contains(&m))
                .count(),
            captures.len()
        );
    }

    #[test]
    fn level_times_saturate() {
        // Found by fuzzing CECP: `level 0 99999999999999999:0 0` overflowed.
        assert_eq!(parse_time_ms("1:30"), Some(90_000));
        assert_eq!(parse_time_ms("2.5"), Some(150_000));
        assert_eq!(parse_time_ms("99999999999999999:0"), Some(u64::MAX));
        assert_eq!(parse_time_ms("0:99999999999999999"), Some(u64::MAX));
        assert_eq!(parse_time_ms("1e300"), Some(u64::MAX));
        assert_eq!(parse_time_ms("x:1"), None);
    }

    #[test]
    fn fullcavalry_castling_keeps_the_lancer_facing() {
        let (tx, _rx) = channel();
        let mut s = Session::new(Engine::new(), tx);
        s.handle("variant fullcavalry");
        s.handle("setboard 4k3/8/8/8/8/8/8/4K2L(w) w K - 0 1");
        let pos = *s.engine.position();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let castles: Vec<Move> = list
            .iter()
            .copied()
            .filter(|m| m.move_type() == MoveType::Castle)
            .collect();
        assert!(!castles.is_empty());
        // The engine searches only castlings that keep the facing.
        let l = s.limits();
        let turns = |m: &Move| m.facing().is_some_and(|f| f != pos.facing_at(m.to()));
        if castles.iter().any(turns) {
            assert!(!l.searchmoves.is_empty());
            assert!(!l
                .searchmoves
                .iter()
                .any(|m| m.move_type() == MoveType::Castle && turns(m)));
        }
        // A user's castling keeps the facing.
        let m = parse_xboard_move(&pos, "e1g1").unwrap();
        assert_eq!(m.move_type(), MoveType::Castle);
        assert!(!turns(&m));
        assert_eq!(xboard_move(&pos, m), "e1g1");
        s.handle("quit");
    }

    #[test]
    fn royalstandard_displacements_are_played_in_the_form_the_receiver_reads() {
        let (tx, _rx) = channel();
        let mut s = Session::new(Engine::new(), tx);
        s.handle("variant royalstandard");
        // The start position: the a2 bishop may capture its own b1 bearer and put
        // it on a2 or c2; over XBoard both are the plain `a2b1`.
        s.handle("force");
        let pos = *s.engine.position();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let disp: Vec<Move> = list
            .iter()
            .copied()
            .filter(|m| m.is_displacement() && square_name(m.from()) == "a2")
            .collect();
        assert!(disp.len() >= 2, "{disp:?}");
        let l = s.limits();
        let allowed: Vec<&Move> = disp.iter().filter(|m| l.searchmoves.contains(m)).collect();
        // Exactly one of them is searched: the one `usermove a2b1` means.
        assert_eq!(allowed.len(), 1, "{allowed:?}");
        assert_eq!(parse_xboard_move(&pos, "a2b1"), Ok(*allowed[0]));
        // Ordinary moves stay searchable.
        assert!(l.searchmoves.len() > disp.len());
        // After the plain `a2b1` XBoard no longer shows the b1 bearer; the engine
        // keeps it on its displacement square but never moves it.
        s.handle("usermove a2b1");
        s.handle("usermove c6c5");
        s.handle("usermove d2c2");
        s.handle("usermove c5c4");
        let ghost = allowed[0].aux();
        assert_eq!(hidden_bearers(s.engine.game().moves()), vec![ghost]);
        let pos = *s.engine.position();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        assert!(
            list.iter().any(|m| m.from() == ghost),
            "the bearer may move"
        );
        let l = s.limits();
        assert!(!l.searchmoves.is_empty());
        assert!(!l.searchmoves.iter().any(|m| m.from() == ghost));
        s.handle("quit");
    }

    #[test]
    fn ponder_hit_and_miss() {
        let (tx, rx) = channel();
        let mut s = Session::new(Engine::new(), tx);
        let next_done = |s: &mut Session| loop {
            match rx.recv_timeout(std::time::Duration::from_secs(30)) {
                Ok(Event::Done(g, r)) => {
                    if g == s.gen {
                        s.done(g, r);
                        return;
                    }
                }
                Ok(_) => {}
                Err(e) => panic!("no search result: {e}"),
            }
        };
        s.handle("new");
        s.handle("hard");
        s.handle("sd 3");
        s.handle("usermove e2e4");
        next_done(&mut s);
        assert_eq!(
            s.engine.game().moves().len(),
            3,
            "engine move + expected reply"
        );
        let p = s.pondering.expect("pondering");
        // Hit: the user plays the expected move; the search goes on as the real one.
        let mut g = s.engine.game().clone();
        g.undo();
        let text = xboard_move(g.position(), p);
        s.handle(&format!("usermove {text}"));
        assert!(s.pondering.is_none());
        next_done(&mut s);
        assert_eq!(s.engine.game().moves().len(), 5);
        // Miss: another move is played instead of the expected one.
        let p = s.pondering.expect("pondering again");
        let mut g = s.engine.game().clone();
        g.undo();
        let mut list = MoveList::new();
        g.position().legal_moves(&mut list);
        let other = list.iter().copied().find(|&m| m != p).unwrap();
        let text = xboard_move(g.position(), other);
        s.handle(&format!("usermove {text}"));
        assert_eq!(s.engine.game().moves()[4], other);
        next_done(&mut s);
        assert_eq!(s.engine.game().moves().len(), 7);
        // Commands that change the game end pondering and take the reply back.
        s.handle("force");
        assert!(s.pondering.is_none());
        assert_eq!(s.engine.game().moves().len(), 6);
        s.handle("quit");
    }

    #[test]
    fn pondering_counts_the_time_of_the_move_just_made() {
        let (tx, _rx) = channel();
        let mut s = Session::new(Engine::new(), tx);
        s.handle("new");
        s.handle("level 0 1 0.5");
        s.handle("time 3000");
        s.handle("otim 2500");
        // Black (the engine) to move after its own move and the expected reply.
        s.engine
            .play(parse_xboard_move(s.engine.position(), "e2e4").unwrap());
        let l = s.ponder_limits(1200);
        assert!(l.ponder);
        assert_eq!(l.time[Color::Black.idx()], Some(30_000 - 1200 + 500));
        assert_eq!(l.time[Color::White.idx()], Some(25_000));
        assert_eq!(l.inc, [500, 500]);
        // More than the clock: the least clock, not an underflow.
        assert_eq!(s.ponder_limits(40_000).time[Color::Black.idx()], Some(500));
        s.handle("st 2");
        assert_eq!(s.ponder_limits(1200).movetime, Some(2000));
    }
}
