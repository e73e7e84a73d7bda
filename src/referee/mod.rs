//! `lancer match`: an engine-vs-engine referee with cutechess-cli's interface for the
//! variants cutechess cannot play. The rules core holds the game: every move is
//! checked, the clock is kept here, and every game end is decided here.

pub mod player;
pub mod stats;
pub mod wire;

use crate::rules::notation::pgn;
use crate::rules::notation::xboard::{parse_xboard_move, xboard_move, xboard_move_full};
use crate::rules::notation::xboard_fen::xboard_fen;
use crate::rules::notation::{move_text, parse_move, parse_san};
use crate::rules::tree::{Tree, ROOT};
use crate::rules::variant::{Start, Variant};
use crate::rules::{Color, Game, GameEnd, Move, Position, Termination, Variants};
use player::{Clock, Player, PlayerConfig, PlayerError, Proto};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use stats::{PlayerStats, Sprt};
use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

mod args;
pub(crate) mod game;
mod openings;
mod schedule;

pub use args::{parse_args, MatchConfig, Openings, PgnOut, Policy, TimeControl, Tournament};
pub use game::{play_game, GameResult};
use openings::load_openings;
use schedule::Schedule;

/// How a match ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchReport {
    /// Games lost by an illegal move, the clock, a crash or a protocol error.
    pub forfeits: u32,
    /// Why the match stopped before its last game (an engine failed or could not
    /// start); `None` when it ran to the end or an SPRT decided it.
    pub terminated: Option<String>,
}

/// The standings as cutechess prints them (`-ratinginterval` and the end of the
/// match): for two engines the first one's results by colour and the Elo
/// difference; for more, the ranking table (cutechess's default columns).
fn results_text(cfg: &MatchConfig, players: &[PlayerStats]) -> String {
    use stats::{fixed, general, CuteElo};
    let mut ret = String::new();
    if players.len() == 2 {
        let p = players[0];
        let name = &cfg.engines[0].name;
        for (side, r) in [("White", p.white), ("Black", p.black)] {
            if r.n() > 0 {
                ret.push_str(&format!("...      {name} playing {side}: {r}\n"));
            }
        }
        let t = p.total();
        if t.n() > 0 {
            let white_points = 2 * p.white.w + p.white.d + 2 * p.black.l + p.black.d;
            ret.push_str(&format!(
                "...      White vs Black: {} - {} - {}  [{:.3}] {}\n",
                p.white.w + p.black.l,
                p.white.l + p.black.w,
                t.d,
                white_points as f64 / (2 * t.n()) as f64,
                t.n()
            ));
        }
        let e = CuteElo::new(&t);
        ret.push_str(&format!(
            "Elo difference: {} +/- {}, LOS: {} %, DrawRatio: {} %",
            fixed(e.diff(), 1),
            fixed(e.error_margin(), 1),
            fixed(e.los(), 1),
            fixed(e.draw_ratio() * 100.0, 1)
        ));
    } else {
        // Order: the gauntlet engine first (ranked 0), then by points per game;
        // engines without a finished game last. Ties list the later engine first.
        let gauntlet = cfg.tournament == Tournament::Gauntlet;
        let mut rows: Vec<(f64, usize)> = players
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let key = if gauntlet && i == 0 {
                    -1.0
                } else if p.total().n() > 0 {
                    1.0 - CuteElo::new(&p.total()).point_ratio()
                } else {
                    2.0
                };
                (key, i)
            })
            .collect();
        rows.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        ret.push_str(&format!(
            "{:>4} {:<25} {:>7} {:>7} {:>7} {:>7} {:>7} \n",
            "Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw"
        ));
        for (n, (_, i)) in rows.iter().enumerate() {
            let t = players[*i].total();
            let e = CuteElo::new(&t);
            let rank = if gauntlet { n as i64 } else { n as i64 + 1 };
            ret.push_str(&format!(
                "{rank:>4} {:<25} {:>7} {:>7} {:>7} {:>6}% {:>6}% \n",
                cfg.engines[*i].name,
                fixed(e.diff(), 0),
                fixed(e.error_margin(), 0),
                t.n(),
                fixed(e.point_ratio() * 100.0, 1),
                fixed(e.draw_ratio() * 100.0, 1)
            ));
        }
    }
    if let Some(sp) = cfg.sprt {
        let r = players.first().map(|p| p.total()).unwrap_or_default();
        let llr = sp.llr(&r);
        let (lo, hi) = sp.bounds();
        ret.push_str(&format!(
            "\nSPRT: llr {} ({}%), lbound {}, ubound {}",
            general(llr, 3),
            fixed(llr / hi * 100.0, 1),
            general(lo, 3),
            general(hi, 3)
        ));
        if llr >= hi {
            ret.push_str(" - H1 was accepted");
        } else if llr <= lo {
            ret.push_str(" - H0 was accepted");
        }
    }
    ret
}

/// The match's schedule (`-openings`, the tournament's pairs, rounds, games) and the
/// number of games it holds.
fn make_schedule(cfg: &MatchConfig, v: &'static Variant) -> Result<(Schedule, u64), String> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(cfg.seed);
    let openings = match &cfg.openings {
        Some(o) => {
            let mut list = load_openings(o, v, &mut rng)?;
            let first = (o.start - 1) % list.len();
            list.rotate_left(first);
            Some(list)
        }
        None => None,
    };
    // Random-setup variants: each game pair shares one drawn setup.
    let random = matches!(v.start, Start::Random(_));
    let n = cfg.engines.len();
    let pairs: Vec<(usize, usize)> = match cfg.tournament {
        Tournament::RoundRobin => (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect(),
        Tournament::Gauntlet => (1..n).map(|b| (0, b)).collect(),
    };
    let total = (cfg.rounds as u64)
        .saturating_mul(pairs.len() as u64)
        .saturating_mul(cfg.games as u64);
    let schedule = Schedule {
        variant: v,
        pairs,
        rounds: cfg.rounds,
        games: cfg.games,
        repeat: cfg.repeat || random,
        policy: cfg.openings.as_ref().map_or(Policy::Default, |o| o.policy),
        openings,
        opening_idx: 0,
        rng,
        round: 1,
        pair: 0,
        game: 0,
        current: None,
        number: 0,
    };
    Ok((schedule, total))
}

/// The standings and the match's state, shared by the workers.
struct Tally {
    players: Vec<PlayerStats>,
    finished: u64,
    forfeits: u32,
    terminated: Option<String>,
    error: Option<String>,
}

/// What every worker reads: the match, its schedule, the tally, the PGN file, the
/// stop flag.
struct Shared<'a> {
    cfg: &'a MatchConfig,
    v: &'static Variant,
    schedule: Mutex<Schedule>,
    tally: Mutex<Tally>,
    pgn_file: Option<Mutex<std::fs::File>>,
    stop: AtomicBool,
    total: u64,
    started: std::time::Instant,
}

/// Runs the match (`parse_args`' result) and prints cutechess-style lines.
pub fn run(cfg: MatchConfig, variants: &Variants) -> Result<MatchReport, String> {
    let v = variants
        .get(&cfg.variant)
        .ok_or_else(|| format!("unknown variant '{}'", cfg.variant))?;
    let (schedule, total) = make_schedule(&cfg, v)?;
    let pgn_file = match &cfg.pgnout {
        Some(p) => Some(Mutex::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&p.file)
                .map_err(|e| format!("{}: {e}", p.file))?,
        )),
        None => None,
    };
    let shared = Shared {
        cfg: &cfg,
        v,
        schedule: Mutex::new(schedule),
        tally: Mutex::new(Tally {
            players: vec![PlayerStats::default(); cfg.engines.len()],
            finished: 0,
            forfeits: 0,
            terminated: None,
            error: None,
        }),
        pgn_file,
        stop: AtomicBool::new(false),
        total,
        started: std::time::Instant::now(),
    };
    let workers = (cfg.concurrency as u64).min(total).max(1) as usize;
    std::thread::scope(|s| {
        for _ in 0..workers {
            let shared = &shared;
            s.spawn(move || worker(shared));
        }
    });
    let t = shared
        .tally
        .into_inner()
        .map_err(|_| "a match worker panicked".to_string())?;
    if let Some(e) = t.error {
        return Err(e);
    }
    if cfg.rating_interval == 0 || t.finished % cfg.rating_interval as u64 != 0 {
        println!("{}", results_text(&cfg, &t.players));
    }
    println!("Finished match");
    Ok(MatchReport {
        forfeits: t.forfeits,
        terminated: t.terminated,
    })
}

/// One worker: plays the schedule's next game until there is none or the match stops.
fn worker(sh: &Shared) {
    let cfg = sh.cfg;
    let mut first = true;
    loop {
        if sh.stop.load(Ordering::SeqCst) {
            return;
        }
        let job = match sh.schedule.lock().map(|mut q| q.next()) {
            Ok(Ok(Some(job))) => job,
            Ok(Ok(None)) | Err(_) => return,
            Ok(Err(e)) => {
                if let Ok(mut t) = sh.tally.lock() {
                    t.error.get_or_insert(e);
                }
                sh.stop.store(true, Ordering::SeqCst);
                return;
            }
        };
        if !first {
            std::thread::sleep(std::time::Duration::from_millis(cfg.wait_ms));
        }
        first = false;
        let (wn, bn) = (&cfg.engines[job.white].name, &cfg.engines[job.black].name);
        println!("Started game {} of {} ({wn} vs {bn})", job.number, sh.total);
        let r = play_game(
            cfg, sh.v, job.white, job.black, &job.fen, &job.moves, job.round, job.number,
        );
        let Ok(mut t) = sh.tally.lock() else { return };
        finish_game(sh, &mut t, &job, &r);
    }
}

/// Reports a finished game as cutechess does, writes its PGN, counts it, and stops the
/// match when an engine failed (without `-recover`) or the SPRT decided.
fn finish_game(sh: &Shared, t: &mut Tally, job: &schedule::Job, r: &GameResult) {
    let cfg = sh.cfg;
    let (wn, bn) = (&cfg.engines[job.white].name, &cfg.engines[job.black].name);
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "Finished game {} ({wn} vs {bn}): {} {{{}}}",
        job.number,
        r.score(),
        r.reason()
    );
    if let Some(f) = &r.forfeit {
        t.forfeits += 1;
        log::warn!("game {}: {f}", job.number);
        // An engine that cannot start ends the match (as in cutechess);
        // one that fails during a game does unless -recover.
        let abandoned = r
            .end
            .as_ref()
            .is_some_and(|e| e.termination == Termination::Abandoned);
        if abandoned && (!cfg.recover || r.start_failed) {
            let why = if r.start_failed {
                "an engine could not start"
            } else {
                "an engine failed (use -recover to go on)"
            };
            let _ = writeln!(out, "Terminating the match: {why}");
            t.terminated.get_or_insert_with(|| why.to_string());
            sh.stop.store(true, Ordering::SeqCst);
        }
    }
    if let Some(f) = &sh.pgn_file {
        let write = !(r.end.is_none() && cfg.pgnout.as_ref().is_some_and(|p| p.finished_only));
        if let (true, Ok(mut f)) = (write, f.lock()) {
            let _ = f.write_all(r.pgn.as_bytes());
        }
    }
    let (wi, bi) = (job.white, job.black);
    match r.score() {
        "1-0" => {
            t.players[wi].white.w += 1;
            t.players[bi].black.l += 1;
        }
        "0-1" => {
            t.players[wi].white.l += 1;
            t.players[bi].black.w += 1;
        }
        "1/2-1/2" => {
            t.players[wi].white.d += 1;
            t.players[bi].black.d += 1;
        }
        _ => {}
    }
    t.finished += 1;
    if cfg.engines.len() == 2 {
        let p = t.players[0].total();
        let _ = writeln!(
            out,
            "Score of {} vs {}: {p}",
            cfg.engines[0].name, cfg.engines[1].name
        );
    }
    if cfg.rating_interval > 0 && t.finished.is_multiple_of(cfg.rating_interval as u64) {
        let _ = writeln!(out, "{}", results_text(cfg, &t.players));
        if t.finished < sh.total {
            let eta = eta_text(
                sh.started.elapsed(),
                t.finished,
                sh.total,
                cfg.sprt.is_some(),
            );
            let _ = writeln!(out, "{eta}");
        }
    }
    if let Some(sp) = cfg.sprt {
        let llr = sp.llr(&t.players[0].total());
        let (lo, hi) = sp.bounds();
        if llr >= hi || llr <= lo {
            sh.stop.store(true, Ordering::SeqCst);
        }
    }
    let _ = out.flush();
}

/// The `-ratinginterval` estimate of the time left: the wall time per finished game so
/// far (concurrency included) times the games still to play. With an SPRT it is an
/// upper bound, since the test may stop early.
fn eta_text(elapsed: std::time::Duration, finished: u64, total: u64, sprt: bool) -> String {
    let per_game = elapsed.as_secs_f64() / finished.max(1) as f64;
    let left = (per_game * total.saturating_sub(finished) as f64).round() as u64;
    let (h, m, s) = (left / 3600, left / 60 % 60, left % 60);
    let time = if h > 0 {
        format!("{h}h {m:02}m {s:02}s")
    } else if m > 0 {
        format!("{m}m {s:02}s")
    } else {
        format!("{s}s")
    };
    format!(
        "ETA: {}{time} ({finished} of {total} games, {per_game:.1} s a game)",
        if sprt { "at most " } else { "" }
    )
}

/// Replays a PGN file; prints how many games replayed.
pub fn pgn_check(path: &str, variants: &Variants) -> Result<usize, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    pgn::check(&text, variants).map_err(|e| format!("{path}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eta_from_time_per_finished_game() {
        let d = std::time::Duration::from_secs;
        assert_eq!(
            eta_text(d(120), 4, 100, false),
            "ETA: 48m 00s (4 of 100 games, 30.0 s a game)"
        );
        assert_eq!(
            eta_text(d(10), 1, 1000, true),
            "ETA: at most 2h 46m 30s (1 of 1000 games, 10.0 s a game)"
        );
        assert_eq!(
            eta_text(d(3), 3, 4, false),
            "ETA: 1s (3 of 4 games, 1.0 s a game)"
        );
    }

    #[test]
    fn time_controls() {
        let t = TimeControl::parse("40/60+0.5").unwrap();
        assert_eq!((t.moves, t.base_ms, t.inc_ms), (40, 60000, 500));
        assert_eq!(t.pgn(), "40/60+0.5");
        let t = TimeControl::parse("1:30+1").unwrap();
        assert_eq!((t.moves, t.base_ms, t.inc_ms), (0, 90000, 1000));
        assert!(TimeControl::parse("abc").is_err());
        assert!(TimeControl::parse("0+1").is_err());
        assert!(pgn::today().len() == 10);
    }

    #[test]
    fn parses_cutechess_arguments() {
        let a: Vec<String> = "-engine cmd=lancer name=A -engine cmd=lancer name=B proto=xboard option.Hash=32 -each tc=2+0.05 -games 4 -repeat -variant lighthouse -draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=900 -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 -seed 7"
            .split_whitespace()
            .map(String::from)
            .collect();
        let c = parse_args(&a).unwrap();
        assert_eq!(c.engines.len(), 2);
        assert_eq!(c.engines[1].proto, Proto::Xboard);
        assert_eq!(
            c.engines[1].options,
            vec![("Hash".to_string(), "32".to_string())]
        );
        assert_eq!(c.tcs[0].base_ms, 2000);
        assert_eq!(
            (c.games, c.repeat, c.variant.as_str(), c.seed),
            (4, true, "lighthouse", 7)
        );
        assert_eq!(c.draw, Some((40, 8, 10)));
        assert_eq!(c.resign, Some((3, 900, false)));
        assert!(parse_args(&["-engine".into(), "cmd=x".into()]).is_err());
    }
}
