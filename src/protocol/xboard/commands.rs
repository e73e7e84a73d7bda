//! The CECP commands: [`Session::handle`] reads one line and acts on it.

use super::setup::send_setup;
use super::*;

/// Whether pondering goes on through `cmd`: only commands that leave the game alone.
fn keeps_pondering(cmd: &str) -> bool {
    matches!(
        cmd,
        "usermove"
            | "ping"
            | "time"
            | "otim"
            | "post"
            | "nopost"
            | "hard"
            | "accepted"
            | "rejected"
            | "computer"
            | "name"
            | "rating"
            | "ics"
            | "hint"
            | "bk"
            | "draw"
            | "."
    )
}

/// The first word of `s` as a number.
fn first_number(s: &str) -> Option<i64> {
    s.split_whitespace()
        .next()
        .and_then(|t| t.parse::<i64>().ok())
}

/// `level MPS BASE INC`: moves per period, base time (ms), increment (ms).
fn parse_level(rest: &str) -> Option<(u32, u64, u64)> {
    let t: Vec<&str> = rest.split_whitespace().collect();
    if t.len() != 3 {
        return None;
    }
    let mps = t[0].parse::<u32>().ok()?;
    let base = parse_time_ms(t[1])?;
    let inc = t[2]
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x >= 0.0)?;
    Some((mps, base, (inc * 1000.0) as u64))
}

impl Session {
    /// Handles one line; false on `quit`.
    pub fn handle(&mut self, raw: &str) -> bool {
        let line = raw.trim();
        if line.is_empty() {
            return true;
        }
        let (cmd, rest) = crate::protocol::split_command(line);
        if self.pondering.is_some() && !keeps_pondering(cmd) {
            self.unponder();
        }
        match cmd {
            "hard" => self.ponder = true,
            "easy" => self.ponder = false,
            "xboard" | "accepted" | "rejected" | "computer" | "name" | "random" | "ics"
            | "rating" | "draw" | "hint" | "bk" | "hover" | "." | "pause" | "resume" | "nps" => {}
            "option" => self.option(line, rest),
            "protover" => self.protover(),
            "new" => self.new_game(),
            "variant" => self.variant(line, rest),
            "force" => {
                self.cancel();
                self.engine_side = None;
            }
            "go" => {
                self.engine_side = Some(self.engine.position().side());
                self.think();
            }
            "playother" => {
                self.cancel();
                self.engine_side = Some(self.engine.position().side().flip());
            }
            "white" | "black" => {
                self.cancel();
                self.engine_side = Some(if cmd == "white" {
                    Color::Black
                } else {
                    Color::White
                });
            }
            "usermove" => {
                if rest.is_empty() {
                    error("missing move", line)
                } else {
                    self.usermove(rest)
                }
            }
            "level" | "st" | "sd" | "time" | "otim" => self.time_control(cmd, line, rest),
            "?" => {
                if self.thinking {
                    self.engine.request_stop();
                }
            }
            "ping" => out(&format!("pong {rest}")),
            "result" => {
                self.cancel();
                self.over = true;
            }
            "undo" | "remove" => self.take_back(if cmd == "undo" { 1 } else { 2 }, line),
            "post" => self.post = true,
            "nopost" => self.post = false,
            "memory" | "cores" => self.resources(cmd, line, rest),
            "setboard" => self.setboard(line, rest),
            "analyze" => {
                self.analyzing = true;
                self.engine_side = None;
                self.analyze();
            }
            "exit" => {
                self.cancel();
                self.analyzing = false;
            }
            "lift" => self.lift(line, rest),
            "put" => self.put(line, rest),
            "quit" => {
                self.cancel();
                return false;
            }
            _ => {
                // A bare move (XBoard without usermove=1).
                let pos = *self.engine.position();
                if rest.is_empty() && parse_xboard_move(&pos, cmd).is_ok() {
                    self.usermove(cmd);
                } else {
                    error("unknown command", line);
                }
            }
        }
        true
    }

    /// `option NAME=VALUE` (match tools send it unasked): an option of the engine's
    /// table is set (Hash and Threads too, which XBoard itself sets with `memory` and
    /// `cores`), and so is a search parameter; unknown names are ignored.
    fn option(&mut self, line: &str, rest: &str) {
        let (k, v) = match rest.split_once('=') {
            Some((k, v)) => (k.trim(), Some(v.trim())),
            None => (rest.trim(), None),
        };
        if k.eq_ignore_ascii_case(FULL_TEXT_OPTION) {
            self.full_text = v == Some("1");
        } else if crate::engine::options::xboard_settable(k) {
            if let Err(e) = self.engine.set_option(k, v) {
                error(&e, line);
            }
        }
    }

    /// The answer to `protover`: the features, the options, `done=1`.
    fn protover(&self) {
        let names: Vec<String> = self
            .engine
            .variants()
            .all()
            .iter()
            .map(|v| v.xboard_name.clone())
            .collect();
        out(&format!(
            "feature ping=1 setboard=1 usermove=1 san=0 time=1 draw=1 sigint=0 sigterm=0 reuse=1 analyze=1 colors=0 memory=1 smp=1 exclude=0 highlight=1 myname=\"{}\" variants=\"{}\"",
            crate::version::engine_name(),
            names.join(",")
        ));
        for o in crate::engine::options::OPTIONS {
            if let Some(f) = o.xboard_feature() {
                out(&format!("feature option=\"{f}\""));
            }
        }
        out(&format!(
            "feature option=\"{FULL_TEXT_OPTION} -check 0\" done=1"
        ));
    }

    /// `level MPS BASE INC`, `st SECONDS`, `sd DEPTH`, `time CS`, `otim CS`.
    fn time_control(&mut self, cmd: &str, line: &str, rest: &str) {
        match cmd {
            "level" => match parse_level(rest) {
                Some((mps, base, inc)) => {
                    self.mps = mps;
                    self.base_ms = base;
                    self.inc_ms = inc;
                    self.st_ms = None;
                }
                None => error("expected 'level MPS BASE INC'", line),
            },
            "st" => match rest
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x > 0.0)
            {
                Some(s) => self.st_ms = Some((s * 1000.0) as u64),
                None => error("expected seconds", line),
            },
            "sd" => match first_number(rest) {
                Some(d) if d > 0 => self.sd = Some(d.min(1000) as i32),
                _ => error("expected a depth", line),
            },
            _ => match first_number(rest) {
                Some(cs) => {
                    let ms = (cs.max(1) as u64).saturating_mul(10);
                    if cmd == "time" {
                        self.time_ms = Some(ms);
                    } else {
                        self.otim_ms = Some(ms);
                    }
                }
                None => error("expected centiseconds", line),
            },
        }
    }

    /// `undo` (n = 1) and `remove` (n = 2).
    fn take_back(&mut self, n: usize, line: &str) {
        if self.engine.game().moves().len() < n {
            return error("no move to take back", line);
        }
        self.cancel();
        for _ in 0..n {
            self.engine.undo();
        }
        self.over = false;
        if self.analyzing {
            self.analyze();
        }
    }

    /// `memory MB` and `cores N`.
    fn resources(&mut self, cmd: &str, line: &str, rest: &str) {
        match (cmd, first_number(rest)) {
            ("memory", Some(mb)) if mb > 0 => {
                if let Err(e) = self.engine.set_hash((mb as usize).min(MAX_HASH)) {
                    error(&e, line);
                }
            }
            ("memory", _) => error("expected megabytes", line),
            (_, Some(n)) if n > 0 => self.engine.set_threads((n as usize).min(MAX_THREADS)),
            _ => error("expected a number of cores", line),
        }
    }

    pub(super) fn new_game(&mut self) {
        self.cancel();
        self.analyzing = false;
        let _ = self.engine.set_variant("chess");
        self.engine.set_chess960(false);
        if let Err(e) = self.engine.clear_hash() {
            error(&e, "new");
        }
        self.engine_side = Some(Color::Black);
        self.over = false;
        self.sd = None;
        self.st_ms = None;
        self.time_ms = None;
        self.otim_ms = None;
        send_setup(&self.engine);
    }

    pub(super) fn usermove(&mut self, tok: &str) {
        if let Some(p) = self.pondering {
            let mut g = self.engine.game().clone();
            g.undo();
            if parse_xboard_move(g.position(), tok) == Ok(p) {
                // Ponder hit: the search goes on as the real one.
                self.pondering = None;
                self.clock_start = std::time::Instant::now();
                self.engine.ponderhit();
                return;
            }
            self.unponder();
        }
        let pos = *self.engine.position();
        if self.over && !self.analyzing {
            return out(&format!("Illegal move (game is over): {tok}"));
        }
        let m = match parse_xboard_move(&pos, tok) {
            Ok(m) => m,
            Err(e) => return out(&format!("Illegal move ({e}): {tok}")),
        };
        self.cancel();
        self.engine.play(m);
        self.unplayed_setup = None;
        if self.analyzing {
            self.analyze();
            return;
        }
        if !self.check_end() {
            self.think();
        }
    }
}
