//! One game between two engine processes: moves checked by the rules core, clocks
//! kept here, every end of game decided here, the PGN record written.

use super::*;

/// How a game ends: result, reason, PGN termination, forfeit detail.
type End = (&'static str, String, &'static str, Option<String>);

/// `-maxmoves`, `-draw` and `-resign`, counted as cutechess counts them: per engine
/// move, on the engines' own scores.
struct Adjudicator {
    maxmoves: Option<u32>,
    draw: Option<(u32, u32, i32)>,
    resign: Option<(u32, i32, bool)>,
    resign_count: [u32; 2],
    win_count: [u32; 2],
    draw_count: u32,
}

impl Adjudicator {
    fn new(cfg: &MatchConfig) -> Adjudicator {
        Adjudicator {
            maxmoves: cfg.maxmoves,
            draw: cfg.draw,
            resign: cfg.resign,
            resign_count: [0; 2],
            win_count: [0; 2],
            draw_count: 0,
        }
    }

    /// The end by `-maxmoves`, checked before each move.
    fn before_move(&self, game: &Game) -> Option<End> {
        let mm = self.maxmoves?;
        (game.moves().len() as u32 >= 2 * mm).then(|| {
            (
                "1/2-1/2",
                "Draw by adjudication".into(),
                "adjudication",
                None,
            )
        })
    }

    /// Resign and draw adjudication after `side` played with `score` (its own view):
    /// an irreversible move or a move without a score restarts the draw count; the
    /// draw needs `movecount` moves a side within the score once `movenumber` moves
    /// are played; a resignation needs `movecount` moves of one engine at or below
    /// -score (and, two-sided, as many of the other at or above +score).
    fn after_move(&mut self, game: &Game, side: Color, score: Option<i32>) -> Option<End> {
        let si = side.idx();
        let Some(s) = score else {
            self.draw_count = 0;
            self.resign_count[si] = 0;
            self.win_count[si] = 0;
            return None;
        };
        if game.position().halfmove() == 0 {
            self.draw_count = 0;
        }
        if let Some((movenumber, count, score)) = self.draw {
            self.draw_count = if s.abs() <= score {
                self.draw_count + 1
            } else {
                0
            };
            if movenumber > 0
                && game.moves().len() as u32 / 2 >= movenumber
                && self.draw_count >= 2 * count
            {
                return Some((
                    "1/2-1/2",
                    "Draw by adjudication".into(),
                    "adjudication",
                    None,
                ));
            }
        }
        if let Some((count, score, two_sided)) = self.resign {
            self.resign_count[si] = if s <= -score {
                self.resign_count[si] + 1
            } else {
                0
            };
            self.win_count[si] = if s >= score {
                self.win_count[si] + 1
            } else {
                0
            };
            if count > 0
                && self.resign_count[si] >= count
                && (!two_sided || self.win_count[1 - si] >= count)
            {
                let loss = if side == Color::White { "0-1" } else { "1-0" };
                let winner = side.flip().name();
                return Some((
                    loss,
                    format!("{winner} wins by adjudication"),
                    "adjudication",
                    None,
                ));
            }
        }
        None
    }
}

/// The end of a game that `side` forfeits: its loss, with the reason, the PGN
/// termination and the forfeit's detail.
fn forfeit(side: Color, reason: String, termination: &'static str, detail: String) -> End {
    let loss = if side == Color::White { "0-1" } else { "1-0" };
    (loss, reason, termination, Some(detail))
}

/// The end of a game whose engine for `side` failed to answer a `go`.
fn engine_failure(side: Color, e: EngineError) -> End {
    let (reason, termination, detail) = match e {
        EngineError::Timeout => (
            format!("{} loses on time", side.name()),
            "time forfeit",
            "hang/time".into(),
        ),
        EngineError::Disconnected => (
            format!("{}'s connection stalls", side.name()),
            "abandoned",
            "crash".into(),
        ),
        EngineError::Protocol(p) => (
            format!("{} makes a protocol error: {p}", side.name()),
            "abandoned",
            p,
        ),
    };
    forfeit(side, reason, termination, detail)
}

/// The result of one game.
#[derive(Clone, Debug)]
pub struct GameResult {
    pub score: &'static str,
    pub reason: String,
    pub termination: &'static str,
    pub pgn: String,
    /// True when an engine played an illegal move, lost on time or crashed.
    pub forfeit: Option<String>,
    /// An engine could not be started for this game.
    pub start_failed: bool,
}

/// Plays one game between `white` and `black` from `start` (EFEN) with `pre` moves.
#[allow(clippy::too_many_arguments)]
pub fn play_game(
    cfg: &MatchConfig,
    v: &'static Variant,
    white: usize,
    black: usize,
    start_fen: &str,
    pre: &[Move],
    round: u32,
    game_no: u64,
) -> GameResult {
    let start = Position::from_efen(v, start_fen).expect("opening positions are validated");
    let is_standard_start =
        start_fen == v.default_start_fen() && !matches!(v.start, Start::Random(_));
    let send_fen = if is_standard_start {
        None
    } else {
        Some(start_fen.to_string())
    };
    let mut game = Game::new(start);
    // Move lists as each protocol wants them: move text (UCI, docs/notation.md) and XBoard forms (CECP).
    let mut texts: Vec<String> = Vec::new();
    let mut xb_texts: Vec<String> = Vec::new();
    let mut xb_full: Vec<String> = Vec::new();
    let xb_fen = send_fen.as_ref().map(|_| xboard_fen(&start));
    let mut record: Vec<(Move, String)> = Vec::new();
    for &m in pre {
        texts.push(move_text(game.position(), m));
        xb_texts.push(xboard_move(game.position(), m));
        xb_full.push(xboard_move_full(game.position(), m));
        record.push((m, "book".into()));
        game.play(m);
    }
    let ids = [white, black];
    let mut clocks = [cfg.tcs[white].clock(), cfg.tcs[black].clock()];
    let mut engines: [Option<EngineProcess>; 2] = [None, None];
    let mut outcome: Option<(&'static str, String, &'static str, Option<String>)> = None;
    let mut start_failed = false;
    for (i, &id) in ids.iter().enumerate() {
        match EngineProcess::start(&cfg.engines[id], &v.name) {
            Ok(mut e) => {
                // A peer that reads move text also reads EFEN, which keeps what XBoard's
                // FEN drops (frozen standard-bearers, lancer-corner castling rights).
                let fen = match e.config.proto {
                    Proto::Uci => send_fen.as_deref(),
                    Proto::Xboard if e.full_text => send_fen.as_deref(),
                    Proto::Xboard => xb_fen.as_deref(),
                };
                e.new_game(&v.name, &v.xboard_name, fen, &clocks[i], cfg.tcs[id].moves);
                engines[i] = Some(e);
            }
            Err(err) => {
                let c = Color::from_idx(i);
                outcome = Some((
                    if c == Color::White { "0-1" } else { "1-0" },
                    format!("{} fails to start: {err}", c.name()),
                    "abandoned",
                    Some(err),
                ));
                start_failed = true;
                break;
            }
        }
    }
    let mut adjudicator = Adjudicator::new(cfg);
    while outcome.is_none() {
        if let Some(o) = game.outcome() {
            outcome = Some((o.score(), o.describe(v).to_string(), "normal", None));
            break;
        }
        if let Some(end) = adjudicator.before_move(&game) {
            outcome = Some(end);
            break;
        }
        let side = game.position().side();
        let si = side.idx();
        let (mine, theirs) = (clocks[si], clocks[1 - si]);
        let Some(eng) = engines[si].as_mut() else {
            break;
        };
        let xboard = eng.config.proto == Proto::Xboard;
        let (fen_for_engine, list) = if xboard && eng.full_text {
            (send_fen.clone(), &xb_full)
        } else if xboard {
            (xb_fen.clone(), &xb_texts)
        } else {
            (send_fen.clone(), &texts)
        };
        let reply = eng.go(
            fen_for_engine.as_deref(),
            list,
            side == Color::White,
            &mine,
            &theirs,
        );
        let em = match reply {
            Ok(m) => m,
            Err(e) => {
                outcome = Some(engine_failure(side, e));
                break;
            }
        };
        let mut em = em;
        if cfg.engines[ids[si]].white_pov && side == Color::Black {
            em.score = em.score.map(|s| -s);
        }
        let margin = cfg.engines[ids[si]].timemargin.min(i64::MAX as u64) as i64;
        let limit = mine.per_move.unwrap_or(mine.left).saturating_add(margin);
        if em.elapsed_ms > limit {
            outcome = Some(forfeit(
                side,
                format!("{} loses on time", side.name()),
                "time forfeit",
                "time".into(),
            ));
            break;
        }
        let pos = *game.position();
        let parsed = if xboard {
            parse_xboard_move(&pos, &em.text).map_err(|_| ())
        } else {
            Err(())
        };
        // As cutechess: SAN, or long algebraic once the decorations `x=+#!?` are dropped.
        let m = match parsed.or_else(|_| {
            parse_move(&pos, &em.text)
                .or_else(|_| parse_san(&pos, &em.text))
                .or_else(|_| {
                    let bare: String = em.text.chars().filter(|c| !"x=+#!?".contains(*c)).collect();
                    parse_move(&pos, &bare)
                })
        }) {
            Ok(m) => m,
            Err(_) => {
                outcome = Some(forfeit(
                    side,
                    format!("{} makes an illegal move: {}", side.name(), em.text),
                    "illegal move",
                    format!("illegal move {}", em.text),
                ));
                break;
            }
        };
        let c = &mut clocks[si];
        if c.per_move.is_none() {
            c.left -= em.elapsed_ms;
            c.left += c.inc;
            if c.moves_to_go > 0 {
                c.moves_to_go -= 1;
                if c.moves_to_go == 0 {
                    c.moves_to_go = cfg.tcs[ids[si]].moves;
                    c.left += cfg.tcs[ids[si]].base_ms;
                }
            }
        }
        let comment = pgn::eval_comment(em.score, em.depth, em.elapsed_ms);
        texts.push(move_text(&pos, m));
        xb_texts.push(xboard_move(&pos, m));
        xb_full.push(xboard_move_full(&pos, m));
        record.push((m, comment));
        game.play(m);
        outcome = adjudicator.after_move(&game, side, em.score);
    }
    for e in engines.iter_mut() {
        if let Some(e) = e.take() {
            e.quit();
        }
    }
    let (score, reason, termination, forfeit) =
        outcome.unwrap_or(("*", "unterminated".into(), "unterminated", None));
    let mut headers = vec![
        ("Event".to_string(), cfg.event.clone()),
        ("Site".to_string(), "?".to_string()),
        ("Date".to_string(), today()),
        ("Round".to_string(), format!("{round}")),
        ("White".to_string(), cfg.engines[white].name.clone()),
        ("Black".to_string(), cfg.engines[black].name.clone()),
        ("Result".to_string(), score.to_string()),
    ];
    if v.name != "chess" {
        headers.push(("Variant".into(), v.name.clone()));
    }
    if !is_standard_start {
        headers.push(("FEN".into(), start_fen.to_string()));
        headers.push(("SetUp".into(), "1".into()));
    }
    let (tcw, tcb) = (cfg.tcs[white].pgn(), cfg.tcs[black].pgn());
    if tcw == tcb {
        headers.push(("TimeControl".into(), tcw));
    } else {
        headers.push(("WhiteTimeControl".into(), tcw));
        headers.push(("BlackTimeControl".into(), tcb));
    }
    headers.push(("PlyCount".into(), record.len().to_string()));
    headers.push(("Termination".into(), termination.to_string()));
    headers.push(("GameNumber".into(), game_no.to_string()));
    // As cutechess: the end reason joins the last move's comment.
    let mut initial_comment = None;
    match record.last_mut() {
        Some((_, c)) if c.is_empty() => *c = reason.clone(),
        Some((_, c)) => *c = format!("{c}, {reason}"),
        None => initial_comment = Some(reason.clone()),
    }
    let pgn = pgn::write(&pgn::PgnGame {
        headers,
        start,
        moves: &record,
        result: score,
        initial_comment,
        minimal: cfg.pgnout.as_ref().is_some_and(|p| p.minimal),
    });
    GameResult {
        score,
        reason,
        termination,
        pgn,
        forfeit,
        start_failed,
    }
}

pub(super) fn today() -> String {
    // Days since 1970 to a civil date (no time-zone crate needed).
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0) as i64;
    let z = secs / 86400 + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}
