//! A player of `lancer match`: an engine process under the referee, started, spoken
//! to in UCI or CECP, timed, and killed when it hangs or the game ends.

use super::wire::{cecp_score, edit_commands, read_uci_info};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Which protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    Uci,
    Xboard,
}

/// How an engine is started and set up (`-engine` / `-each` fields).
#[derive(Clone, Debug)]
pub struct PlayerConfig {
    pub name: String,
    pub cmd: String,
    pub dir: Option<String>,
    pub proto: Proto,
    pub options: Vec<(String, String)>,
    pub tc: Option<String>,
    pub st: Option<f64>,
    pub timemargin: u64,
    /// Node limit per move (`nodes=`), sent to UCI engines as `go ... nodes N`.
    pub nodes: Option<u64>,
    /// Depth limit per move (`plies=`): UCI `go ... depth N`, CECP `sd N`.
    pub plies: Option<u32>,
    /// Extra command-line arguments (`arg=`, in order).
    pub args: Vec<String>,
    /// Lines sent right after the handshake (`initstr=`; `\n` separates lines).
    pub initstr: Vec<String>,
    /// `whitepov`: the engine reports scores from White's side; the referee turns
    /// them to the mover's side.
    pub white_pov: bool,
    /// `-debug`: every line to and from the engine is printed.
    pub debug: bool,
    /// `ponder`: the engine thinks on the opponent's time (UCI `go ponder`, CECP
    /// `hard`) in timed games.
    pub ponder: bool,
}

/// When the referee started (the time stamps of `-debug` lines).
static START: std::sync::LazyLock<Instant> = std::sync::LazyLock::new(Instant::now);

/// The clock of one side.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    /// Remaining time (ms); ignored with a fixed time per move.
    pub left: i64,
    pub inc: i64,
    /// Moves until the next time control (0 = sudden death).
    pub moves_to_go: u32,
    /// Fixed time per move (ms).
    pub per_move: Option<i64>,
    /// `tc=inf`: no clock is sent; only `nodes=`/`plies=` bound the search.
    pub infinite: bool,
}

/// Whether a UCI `option` line declares the `Ponder` option.
fn is_ponder_option(line: &str) -> bool {
    let t: Vec<&str> = line.split_whitespace().collect();
    t.len() >= 4 && t[0] == "option" && t[1] == "name" && t[2] == "Ponder" && t[3] == "type"
}

/// What cutechess sends a CECP engine as the time of a `tc=inf` game: `st` at the
/// start and `time` before each move (seconds, and centiseconds as it writes them).
const CECP_INFINITE: i64 = 86_400;

/// What went wrong with an engine.
#[derive(Debug)]
pub enum PlayerError {
    /// It exited or closed its output.
    Disconnected,
    /// It did not answer in time.
    Timeout,
    /// It said something the referee cannot use.
    Protocol(String),
}

use crate::rules::notation::xboard::FULL_TEXT_OPTION;

/// A player: a running engine process.
pub struct Player {
    pub config: PlayerConfig,
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<String>,
    usermove: bool,
    setboard: bool,
    /// The engine offered the `Full move text` option (lancer does): the moves XBoard's
    /// forms cannot carry (a Royal Standard displacement, a castling that turns the
    /// lancer) then travel in move text (docs/notation.md, "Move text") both ways.
    pub full_text: bool,
    started_moves: usize,
    /// UCI: the engine declared the `Ponder` option (cutechess ponders only then).
    can_ponder: bool,
    /// This game is pondered: `ponder` was asked for, the game is timed, and a UCI
    /// engine has the `Ponder` option.
    ponder_game: bool,
    /// UCI: a `go ponder` runs on this expected reply (its move text).
    pondering: Option<String>,
    /// CECP: the engine has left force mode (a `go` was sent this game); a pondering
    /// engine then gets the opponent's move as cutechess sends it, without `force`
    /// and `go`, so that its pondering goes on.
    playing: bool,
}

/// An engine's move text, with the last score and depth it reported and its ponder
/// move (UCI).
type Reply = (String, Option<i32>, Option<i32>, Option<String>);

/// The answer to one `go`.
#[derive(Debug, Clone)]
pub struct PlayerMove {
    pub text: String,
    /// Last score the engine reported, from its side (centipawns; mates see
    /// [`super::wire::MATE_SCORE`]).
    pub score: Option<i32>,
    pub depth: Option<i32>,
    pub elapsed_ms: i64,
    /// The reply the engine expects (UCI `bestmove M ponder P`), when it ponders.
    pub ponder: Option<String>,
}

/// Splits an engine's `cmd=` into program and arguments as a POSIX shell would
/// (quotes group words, `''` is an empty argument); unbalanced quotes are an error.
pub(crate) fn split_cmd(cmd: &str) -> Result<Vec<String>, String> {
    shlex::split(cmd).ok_or_else(|| format!("cmd={cmd}: unbalanced quotes or a trailing backslash"))
}

impl Player {
    /// Starts the engine and runs the protocol handshake.
    pub fn start(config: &PlayerConfig, variant: &str) -> Result<Player, String> {
        let argv = split_cmd(&config.cmd).map_err(|e| format!("{}: {e}", config.name))?;
        let prog = argv
            .first()
            .ok_or_else(|| format!("{}: empty cmd", config.name))?;
        let mut cmd = Command::new(prog);
        cmd.args(&argv[1..])
            .args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(d) = &config.dir {
            cmd.current_dir(d);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start {} ({}): {e}", config.name, config.cmd))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let l = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut e = Player {
            config: config.clone(),
            child,
            stdin,
            rx,
            usermove: false,
            full_text: false,
            setboard: true,
            started_moves: 0,
            can_ponder: false,
            ponder_game: false,
            pondering: None,
            playing: false,
        };
        e.handshake(variant)
            .map_err(|err| format!("{}: handshake failed: {err:?}", config.name))?;
        for l in config.initstr.clone() {
            e.send(&l);
        }
        Ok(e)
    }

    fn send(&mut self, line: &str) {
        log::debug!("{} < {line}", self.config.name);
        if self.config.debug {
            println!(
                "{} >{}: {line}",
                START.elapsed().as_millis(),
                self.config.name
            );
        }
        let _ = writeln!(self.stdin, "{line}");
        let _ = self.stdin.flush();
    }

    fn recv(&mut self, deadline: Instant) -> Result<String, PlayerError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(left) {
            Ok(l) => {
                log::debug!("{} > {l}", self.config.name);
                if self.config.debug {
                    println!("{} <{}: {l}", START.elapsed().as_millis(), self.config.name);
                }
                Ok(l)
            }
            Err(RecvTimeoutError::Timeout) => Err(PlayerError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(PlayerError::Disconnected),
        }
    }

    fn handshake(&mut self, variant: &str) -> Result<(), PlayerError> {
        let deadline = Instant::now() + Duration::from_secs(10);
        match self.config.proto {
            Proto::Uci => {
                self.send("uci");
                loop {
                    let l = self.recv(deadline)?;
                    if l == "uciok" {
                        break;
                    }
                    if is_ponder_option(&l) {
                        self.can_ponder = true;
                    }
                }
                // The engine's own options first, as cutechess sends them: an option
                // may define what the variant means (Fairy-Stockfish's VariantPath
                // must come before `UCI_Variant lighthouse`). The variant follows
                // at the start of the game.
                for (k, v) in self.config.options.clone() {
                    self.send(&format!("setoption name {k} value {v}"));
                }
                if variant != "chess" {
                    self.send(&format!("setoption name UCI_Variant value {variant}"));
                }
                self.send("isready");
                while self.recv(deadline)? != "readyok" {}
            }
            Proto::Xboard => {
                self.send("xboard");
                self.send("protover 2");
                // Engines that send no features get two seconds (CECP).
                let soft = Instant::now() + Duration::from_secs(2);
                loop {
                    let l = match self.recv(soft) {
                        Ok(l) => l,
                        Err(PlayerError::Timeout) => break,
                        Err(e) => return Err(e),
                    };
                    if l.starts_with("feature") {
                        if l.contains("usermove=1") {
                            self.usermove = true;
                        }
                        if l.contains("setboard=0") {
                            self.setboard = false;
                        }
                        if l.contains(&format!("option=\"{FULL_TEXT_OPTION} -check")) {
                            self.full_text = true;
                        }
                        if l.contains("done=1") {
                            break;
                        }
                    }
                }
                if self.full_text {
                    self.send(&format!("option {FULL_TEXT_OPTION}=1"));
                }
                for (k, v) in self.config.options.clone() {
                    self.send(&format!("option {k}={v}"));
                }
            }
        }
        Ok(())
    }

    /// Sets up a new game: the variant, the start position (EFEN, or None for the
    /// variant's standard start), the time control.
    pub fn new_game(
        &mut self,
        variant: &str,
        xboard_variant: &str,
        start: Option<&str>,
        clock: &Clock,
        tc_moves: u32,
    ) {
        self.started_moves = 0;
        self.playing = false;
        self.pondering = None;
        // Pondering applies to timed games (`tc=` or `st=`), not to `tc=inf` nor to
        // node- or depth-limited ones.
        let timed = !clock.infinite && self.config.nodes.is_none() && self.config.plies.is_none();
        self.ponder_game =
            self.config.ponder && timed && (self.config.proto == Proto::Xboard || self.can_ponder);
        match self.config.proto {
            Proto::Uci => {
                self.send("ucinewgame");
                // As cutechess: only to an engine that declared the option.
                if self.ponder_game {
                    self.send("setoption name Ponder value true");
                }
                let _ = variant;
            }
            Proto::Xboard => {
                self.send("new");
                if xboard_variant != "normal" {
                    self.send(&format!("variant {xboard_variant}"));
                }
                self.send("force");
                if let Some(f) = start {
                    if self.setboard {
                        self.send(&format!("setboard {f}"));
                    } else {
                        for l in edit_commands(f, self.usermove) {
                            self.send(&l);
                        }
                    }
                }
                match clock.per_move {
                    // cutechess: a search without a clock and without a depth gets a
                    // day a move.
                    _ if clock.infinite => {
                        if self.config.plies.is_none() {
                            self.send(&format!("st {CECP_INFINITE}"));
                        }
                    }
                    Some(ms) => self.send(&format!("st {}", (ms / 1000).max(1))),
                    None => {
                        let base = clock.left / 1000;
                        let inc = clock.inc as f64 / 1000.0;
                        self.send(&format!(
                            "level {tc_moves} {}:{:02} {inc}",
                            base / 60,
                            base % 60
                        ));
                    }
                }
                if let Some(d) = self.config.plies {
                    self.send(&format!("sd {d}"));
                }
                self.send("post");
                // As cutechess: `hard` lets the engine ponder on its own, `easy` not.
                self.send(if self.ponder_game { "hard" } else { "easy" });
            }
        }
    }

    /// Asks for a move in the game given by its start and moves (move text), with both
    /// clocks; waits at most the engine's time plus its margin plus a grace second.
    pub fn go(
        &mut self,
        start: Option<&str>,
        moves: &[String],
        white: bool,
        mine: &Clock,
        theirs: &Clock,
    ) -> Result<PlayerMove, PlayerError> {
        let t0 = Instant::now();
        let budget = mine.per_move.unwrap_or(mine.left).max(0) as u64;
        // Saturating: `tc=inf` and large margins must not overflow the clock.
        let wait = budget
            .saturating_add(self.config.timemargin)
            .saturating_add(1000)
            .min(1 << 40);
        let deadline = t0 + Duration::from_millis(wait);
        let ((text, score, depth, ponder), hit) = match self.config.proto {
            Proto::Uci => match self.pondering.take() {
                Some(expected) => {
                    self.go_after_ponder(start, moves, white, mine, theirs, &expected, deadline)?
                }
                None => (
                    self.go_uci(start, moves, white, mine, theirs, deadline)?,
                    None,
                ),
            },
            Proto::Xboard => (self.go_cecp(moves, mine, theirs, deadline)?, None),
        };
        // After a ponder hit the clock runs from `ponderhit`: the thinking before it
        // was on the opponent's time.
        let t0 = hit.unwrap_or(t0);
        Ok(PlayerMove {
            text,
            score,
            depth,
            elapsed_ms: t0.elapsed().as_millis() as i64,
            ponder: ponder.filter(|_| self.ponder_game),
        })
    }

    /// A UCI move: `position`, `go`, then `info` lines up to `bestmove`. Returns the
    /// move text, the last score and depth reported and the ponder move.
    fn go_uci(
        &mut self,
        start: Option<&str>,
        moves: &[String],
        white: bool,
        mine: &Clock,
        theirs: &Clock,
        deadline: Instant,
    ) -> Result<Reply, PlayerError> {
        self.send_position(start, moves);
        let go = self.uci_go(white, mine, theirs);
        self.send(&go);
        self.read_bestmove(deadline, None, None)
    }

    /// UCI `position startpos|fen EFEN [moves ...]`.
    fn send_position(&mut self, start: Option<&str>, moves: &[String]) {
        let pos = match start {
            Some(f) => format!("position fen {f}"),
            None => "position startpos".into(),
        };
        if moves.is_empty() {
            self.send(&pos);
        } else {
            self.send(&format!("{pos} moves {}", moves.join(" ")));
        }
    }

    /// Starts a UCI engine pondering after its move: the game's moves (`moves`, the
    /// expected reply last, in move text) and `go ponder` with the clocks as they
    /// stand, as cutechess sends them. `mine` is the engine's clock, `white` its side.
    pub fn ponder(
        &mut self,
        start: Option<&str>,
        moves: &[String],
        white: bool,
        mine: &Clock,
        theirs: &Clock,
    ) {
        let Some(expected) = moves.last() else {
            return;
        };
        if self.config.proto != Proto::Uci || !self.ponder_game {
            return;
        }
        self.pondering = Some(expected.clone());
        self.send_position(start, moves);
        let go = self.uci_go(white, mine, theirs);
        self.send(&format!("go ponder{}", &go[2..]));
    }

    /// The move of a UCI engine that pondered on `expected`: `ponderhit` when the
    /// opponent played it (the clock starts then), else `stop`, its `bestmove`
    /// dropped, and the usual `position` and `go`. An engine that answered before
    /// either (it must not) has its answer dropped and gets the usual `go` too, as
    /// under cutechess. Returns the reply and, for a hit, when `ponderhit` was sent.
    #[allow(clippy::too_many_arguments)]
    fn go_after_ponder(
        &mut self,
        start: Option<&str>,
        moves: &[String],
        white: bool,
        mine: &Clock,
        theirs: &Clock,
        expected: &str,
        deadline: Instant,
    ) -> Result<(Reply, Option<Instant>), PlayerError> {
        // What the ponder search has said so far (its lines are about this position
        // when the move was the expected one).
        let (mut score, mut depth) = (None, None);
        let mut answered = false;
        loop {
            match self.recv(Instant::now()) {
                Ok(l) => match l.split_whitespace().next() {
                    Some("info") if l.contains(" currmove ") => {}
                    Some("info") => read_uci_info(&l, &mut score, &mut depth),
                    Some("bestmove") => answered = true,
                    _ => {}
                },
                Err(PlayerError::Timeout) => break,
                Err(e) => return Err(e),
            }
        }
        if !answered && moves.last().map(String::as_str) == Some(expected) {
            let hit = Instant::now();
            self.send("ponderhit");
            return Ok((self.read_bestmove(deadline, score, depth)?, Some(hit)));
        }
        if !answered {
            self.send("stop");
            self.read_bestmove(deadline, None, None)?;
        }
        Ok((
            self.go_uci(start, moves, white, mine, theirs, deadline)?,
            None,
        ))
    }

    /// Reads `info` lines up to `bestmove` (scores and depths after `score`/`depth`).
    fn read_bestmove(
        &mut self,
        deadline: Instant,
        mut score: Option<i32>,
        mut depth: Option<i32>,
    ) -> Result<Reply, PlayerError> {
        loop {
            let l = self.recv(deadline)?;
            let mut t = l.split_whitespace();
            match t.next() {
                // A current-move line names the unfinished iteration's depth;
                // the move's depth is the last full line's.
                Some("info") if l.contains(" currmove ") => {}
                Some("info") => read_uci_info(&l, &mut score, &mut depth),
                Some("bestmove") => {
                    let m = t
                        .next()
                        .ok_or_else(|| PlayerError::Protocol("bestmove without a move".into()))?;
                    let ponder = match (t.next(), t.next()) {
                        (Some("ponder"), Some(p)) => Some(p.to_string()),
                        _ => None,
                    };
                    return Ok((m.to_string(), score, depth, ponder));
                }
                _ => {}
            }
        }
    }

    /// A CECP move: the moves since the last `go` in force mode, the clocks, `go`,
    /// then thinking output up to `move`.
    fn go_cecp(
        &mut self,
        moves: &[String],
        mine: &Clock,
        theirs: &Clock,
        deadline: Instant,
    ) -> Result<Reply, PlayerError> {
        let new = &moves[self.started_moves.min(moves.len())..];
        if self.ponder_game && self.playing && new.len() == 1 {
            // As cutechess with an engine out of force mode: the clocks, then the
            // opponent's move, which the engine answers; `force` would end its
            // pondering.
            self.send_clocks(mine, theirs);
            self.send_usermove(&new[0]);
            self.started_moves = moves.len();
        } else {
            self.send("force");
            for m in new {
                self.send_usermove(m);
            }
            self.started_moves = moves.len();
            self.send_clocks(mine, theirs);
            self.send("go");
            self.playing = true;
        }
        let (mut score, mut depth) = (None, None);
        loop {
            let l = self.recv(deadline)?;
            let toks: Vec<&str> = l.split_whitespace().collect();
            match toks.first().copied() {
                Some("move") => {
                    let m = toks
                        .get(1)
                        .ok_or_else(|| PlayerError::Protocol("move without a move".into()))?;
                    self.started_moves += 1;
                    return Ok((m.to_string(), score, depth, None));
                }
                Some(w) if w.starts_with("Illegal") => {
                    return Err(PlayerError::Protocol(l.clone()));
                }
                // As cutechess: an engine that refuses a command (`memory`,
                // `cores`, an option it lacks) plays on.
                Some("Error") => {}
                Some(d) if d.parse::<i32>().is_ok() && toks.len() >= 4 => {
                    // Thinking output: depth score time nodes pv.
                    depth = d.parse().ok();
                    score = toks[1].parse::<i64>().ok().map(cecp_score);
                }
                _ => {}
            }
        }
    }

    fn send_usermove(&mut self, m: &str) {
        if self.usermove {
            self.send(&format!("usermove {m}"));
        } else {
            self.send(m);
        }
    }

    /// CECP `time` and `otim` (centiseconds), as cutechess sends them before a move.
    fn send_clocks(&mut self, mine: &Clock, theirs: &Clock) {
        if mine.infinite {
            self.send(&format!("time {CECP_INFINITE}"));
        } else if mine.per_move.is_none() {
            self.send(&format!("time {}", (mine.left / 10).max(1)));
            self.send(&format!("otim {}", (theirs.left / 10).max(1)));
        }
    }

    /// Ends a UCI engine's pondering (the game is over): `stop`, and its `bestmove`
    /// read and dropped; an engine that does not answer within its time margin and a
    /// second is left to `quit` (and the kill after it).
    fn stop_pondering(&mut self) {
        if self.pondering.take().is_none() {
            return;
        }
        self.send("stop");
        let wait = self.config.timemargin.saturating_add(1000).min(60_000);
        let _ = self.read_bestmove(Instant::now() + Duration::from_millis(wait), None, None);
    }

    /// The UCI `go` line, as cutechess writes it: `movetime` for a fixed time a move,
    /// else both clocks (increments only when they are not 0); no clock for `tc=inf`,
    /// where `infinite` stands in when neither `depth` nor `nodes` bounds the search.
    fn uci_go(&self, white: bool, mine: &Clock, theirs: &Clock) -> String {
        let mut go = String::from("go");
        if mine.infinite {
            if self.config.plies.is_none() && self.config.nodes.is_none() {
                go.push_str(" infinite");
            }
        } else if let Some(ms) = mine.per_move {
            go.push_str(&format!(" movetime {ms}"));
        } else {
            let (w, b) = if white {
                (mine, theirs)
            } else {
                (theirs, mine)
            };
            go.push_str(&format!(" wtime {} btime {}", w.left.max(1), b.left.max(1)));
            if w.inc > 0 {
                go.push_str(&format!(" winc {}", w.inc));
            }
            if b.inc > 0 {
                go.push_str(&format!(" binc {}", b.inc));
            }
            if mine.moves_to_go > 0 {
                go.push_str(&format!(" movestogo {}", mine.moves_to_go));
            }
        }
        if let Some(d) = self.config.plies {
            go.push_str(&format!(" depth {d}"));
        }
        if let Some(n) = self.config.nodes {
            go.push_str(&format!(" nodes {n}"));
        }
        go
    }

    /// Ends the engine: `quit`, then a kill if it does not exit soon.
    pub fn quit(mut self) {
        self.stop_pondering();
        self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_commands_split_as_a_shell_would() {
        let v = |s: &str| split_cmd(s).unwrap();
        assert_eq!(
            v("lancer --variants my.ini"),
            ["lancer", "--variants", "my.ini"]
        );
        assert_eq!(
            v("'/opt/my engine/x' \"a b\" c"),
            ["/opt/my engine/x", "a b", "c"]
        );
        assert_eq!(v("x '' y"), ["x", "", "y"], "an empty argument is kept");
        assert!(v("").is_empty());
        assert!(split_cmd("x 'unclosed").is_err());
        assert!(split_cmd("x \"unclosed").is_err());
    }
}
