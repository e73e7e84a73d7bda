//! One game between two engine processes: moves checked by the rules core, clocks
//! kept here, every end of game decided here, the PGN record written.

use super::*;

/// How a game ends, and a forfeit's detail (the log's word for it).
type End = (GameEnd, Option<String>);

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
                GameEnd::draw("Draw by adjudication", Termination::Adjudication),
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
                    GameEnd::draw("Draw by adjudication", Termination::Adjudication),
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
                let winner = side.flip().name();
                return Some((
                    GameEnd::loss(
                        side,
                        format!("{winner} wins by adjudication"),
                        Termination::Adjudication,
                    ),
                    None,
                ));
            }
        }
        None
    }
}

/// The end of a game that `side` forfeits: its loss, with the reason, the PGN
/// termination and the forfeit's detail.
fn forfeit(side: Color, reason: String, termination: Termination, detail: String) -> End {
    (GameEnd::loss(side, reason, termination), Some(detail))
}

/// The end of a game whose engine for `side` failed to answer a `go`.
fn engine_failure(side: Color, e: PlayerError) -> End {
    let (reason, termination, detail) = match e {
        PlayerError::Timeout => (
            format!("{} loses on time", side.name()),
            Termination::TimeForfeit,
            "hang/time".into(),
        ),
        PlayerError::Disconnected => (
            format!("{}'s connection stalls", side.name()),
            Termination::Abandoned,
            "crash".into(),
        ),
        PlayerError::Protocol(p) => (
            format!("{} makes a protocol error: {p}", side.name()),
            Termination::Abandoned,
            p,
        ),
    };
    forfeit(side, reason, termination, detail)
}

/// The result of one game.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// How it ended; `None` when it did not (an engine went missing).
    pub end: Option<GameEnd>,
    pub pgn: String,
    /// True when an engine played an illegal move, lost on time or crashed.
    pub forfeit: Option<String>,
    /// An engine could not be started for this game.
    pub start_failed: bool,
}

/// A game in progress: the game itself, and its moves as each protocol and the PGN
/// want them.
struct Moves {
    game: Game,
    /// Move text (UCI; docs/notation.md, "Move text").
    texts: Vec<String>,
    /// XBoard's forms (CECP).
    xb_texts: Vec<String>,
    /// XBoard's forms, and move text where they cannot say the move (`Full move text`).
    xb_full: Vec<String>,
    /// Each move with its PGN comment.
    record: Vec<(Move, String)>,
}

impl Moves {
    fn play(&mut self, m: Move, comment: String) {
        let pos = self.game.position();
        self.texts.push(move_text(pos, m));
        self.xb_texts.push(xboard_move(pos, m));
        self.xb_full.push(xboard_move_full(pos, m));
        self.record.push((m, comment));
        self.game.play(m);
    }
}

/// The start position as the engines get it: None for the variant's own start, else
/// the EFEN, and XBoard's FEN for CECP peers without move text.
struct StartFens {
    efen: Option<String>,
    xboard: Option<String>,
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
    let fens = if is_standard_start {
        StartFens {
            efen: None,
            xboard: None,
        }
    } else {
        StartFens {
            efen: Some(start_fen.to_string()),
            xboard: Some(xboard_fen(&start)),
        }
    };
    let mut moves = Moves {
        game: Game::new(start),
        texts: Vec::new(),
        xb_texts: Vec::new(),
        xb_full: Vec::new(),
        record: Vec::new(),
    };
    for &m in pre {
        moves.play(m, "book".into());
    }
    let ids = [white, black];
    let mut clocks = [cfg.tcs[white].clock(), cfg.tcs[black].clock()];
    let (mut engines, failed) = start_engines(cfg, v, ids, &clocks, &fens);
    let start_failed = failed.is_some();
    let outcome = match failed {
        Some(end) => Some(end),
        None => play_out(cfg, v, ids, &mut engines, &mut clocks, &mut moves, &fens),
    };
    for e in engines.iter_mut() {
        if let Some(e) = e.take() {
            e.quit();
        }
    }
    let (end, forfeit) = match outcome {
        Some((end, forfeit)) => (Some(end), forfeit),
        None => (None, None),
    };
    let score = end.as_ref().map_or("*", GameEnd::result);
    let reason = end
        .as_ref()
        .map_or_else(|| "unterminated".to_string(), |e| e.reason.clone());
    let termination = end
        .as_ref()
        .map_or(Termination::Unterminated, |e| e.termination);
    let (tcw, tcb) = (cfg.tcs[white].pgn(), cfg.tcs[black].pgn());
    let mut record = moves.record;
    let tags = pgn::tags(&pgn::TagInfo {
        event: &cfg.event,
        round: &round.to_string(),
        white: &cfg.engines[white].name,
        black: &cfg.engines[black].name,
        result: score,
        variant: v,
        start_fen,
        time: if tcw == tcb {
            pgn::TimeTags::Both(tcw)
        } else {
            pgn::TimeTags::Each(tcw, tcb)
        },
        plies: record.len(),
        termination,
        game_number: Some(game_no),
    });
    // As cutechess: the end reason joins the last move's comment.
    let mut tree = Tree::new();
    match record.last_mut() {
        Some((_, c)) if c.is_empty() => *c = reason.clone(),
        Some((_, c)) => *c = format!("{c}, {reason}"),
        None => tree.node_mut(ROOT).comment = reason.clone(),
    }
    let mut at = ROOT;
    for (m, c) in record {
        at = tree.push(at, m);
        tree.node_mut(at).comment = c;
    }
    let pgn = pgn::write(
        &pgn::PgnGame {
            tags,
            start,
            tree,
            result: score.to_string(),
        },
        // cutechess's layout: no move number after a comment.
        pgn::Style {
            minimal: cfg.pgnout.as_ref().is_some_and(|p| p.minimal),
            number_after_comment: false,
        },
    );
    GameResult {
        end,
        pgn,
        forfeit,
        start_failed,
    }
}

impl GameResult {
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` for a game that did not end.
    pub fn score(&self) -> &'static str {
        self.end.as_ref().map_or("*", GameEnd::result)
    }

    /// The end in words, `unterminated` for a game that did not end.
    pub fn reason(&self) -> &str {
        self.end
            .as_ref()
            .map_or("unterminated", |e| e.reason.as_str())
    }
}

/// Starts both engines and sets up the game in each; an engine that cannot start
/// ends the game (the engines started so far are returned to be ended).
fn start_engines(
    cfg: &MatchConfig,
    v: &'static Variant,
    ids: [usize; 2],
    clocks: &[Clock; 2],
    fens: &StartFens,
) -> ([Option<Player>; 2], Option<End>) {
    let mut engines: [Option<Player>; 2] = [None, None];
    for (i, &id) in ids.iter().enumerate() {
        match Player::start(&cfg.engines[id], &v.name) {
            Ok(mut e) => {
                // A peer that reads move text also reads EFEN, which keeps what XBoard's
                // FEN drops (frozen standard-bearers, lancer-corner castling rights).
                let fen = match e.config.proto {
                    Proto::Uci => fens.efen.as_deref(),
                    Proto::Xboard if e.full_text => fens.efen.as_deref(),
                    Proto::Xboard => fens.xboard.as_deref(),
                };
                e.new_game(&v.name, &v.xboard_name, fen, &clocks[i], cfg.tcs[id].moves);
                engines[i] = Some(e);
            }
            Err(err) => {
                let c = Color::from_idx(i);
                let reason = format!("{} fails to start: {err}", c.name());
                let end = GameEnd::loss(c, reason, Termination::Abandoned);
                return (engines, Some((end, Some(err))));
            }
        }
    }
    (engines, None)
}

/// Plays the game to its end: each engine's move checked, clocks kept, the rules'
/// end and the adjudications applied. None: an engine is missing.
fn play_out(
    cfg: &MatchConfig,
    v: &'static Variant,
    ids: [usize; 2],
    engines: &mut [Option<Player>; 2],
    clocks: &mut [Clock; 2],
    moves: &mut Moves,
    fens: &StartFens,
) -> Option<End> {
    let mut adjudicator = Adjudicator::new(cfg);
    loop {
        if let Some(o) = moves.game.outcome() {
            return Some((GameEnd::by_rules(o, v), None));
        }
        if let Some(end) = adjudicator.before_move(&moves.game) {
            return Some(end);
        }
        let side = moves.game.position().side();
        let si = side.idx();
        let (mine, theirs) = (clocks[si], clocks[1 - si]);
        let eng = engines[si].as_mut()?;
        let xboard = eng.config.proto == Proto::Xboard;
        let (fen_for_engine, list) = if xboard && eng.full_text {
            (&fens.efen, &moves.xb_full)
        } else if xboard {
            (&fens.xboard, &moves.xb_texts)
        } else {
            (&fens.efen, &moves.texts)
        };
        let reply = eng.go(
            fen_for_engine.as_deref(),
            list,
            side == Color::White,
            &mine,
            &theirs,
        );
        let mut em = match reply {
            Ok(m) => m,
            Err(e) => return Some(engine_failure(side, e)),
        };
        let config = &cfg.engines[ids[si]];
        if config.white_pov && side == Color::Black {
            em.score = em.score.map(|s| -s);
        }
        let margin = config.timemargin.min(i64::MAX as u64) as i64;
        let limit = mine.per_move.unwrap_or(mine.left).saturating_add(margin);
        if em.elapsed_ms > limit {
            return Some(forfeit(
                side,
                format!("{} loses on time", side.name()),
                Termination::TimeForfeit,
                "time".into(),
            ));
        }
        let Some(m) = read_move(moves.game.position(), &em.text, xboard) else {
            return Some(forfeit(
                side,
                format!("{} makes an illegal move: {}", side.name(), em.text),
                Termination::IllegalMove,
                format!("illegal move {}", em.text),
            ));
        };
        charge(&mut clocks[si], &cfg.tcs[ids[si]], em.elapsed_ms);
        moves.play(m, eval_comment(em.score, em.depth, em.elapsed_ms));
        if let Some(end) = adjudicator.after_move(&moves.game, side, em.score) {
            return Some(end);
        }
        if let Some(p) = em.ponder {
            if adjudicator.before_move(&moves.game).is_none() {
                let eng = engines[si].as_mut()?;
                ponder(
                    eng,
                    moves,
                    &fens.efen,
                    side,
                    &clocks[si],
                    &clocks[1 - si],
                    &p,
                );
            }
        }
    }
}

/// Sets a UCI engine pondering on `expected`, the reply it named after its move,
/// as cutechess does: not when the reply is illegal (or not a move) or ends the
/// game, nor when the game is over.
fn ponder(
    eng: &mut Player,
    moves: &Moves,
    start: &Option<String>,
    side: Color,
    mine: &Clock,
    theirs: &Clock,
    expected: &str,
) {
    if moves.game.outcome().is_some() {
        return;
    }
    let pos = moves.game.position();
    let Some(reply) = read_move(pos, expected, false) else {
        return;
    };
    let mut after = moves.game.clone();
    after.play(reply);
    if after.outcome().is_some() {
        return;
    }
    let mut list = moves.texts.clone();
    list.push(move_text(pos, reply));
    eng.ponder(start.as_deref(), &list, side == Color::White, mine, theirs);
}

/// An engine's move text read as cutechess reads it: SAN, or long algebraic once the
/// decorations `x=+#!?` are dropped; CECP engines also in XBoard's forms.
fn read_move(pos: &Position, text: &str, xboard: bool) -> Option<Move> {
    let parsed = if xboard {
        parse_xboard_move(pos, text).map_err(|_| ())
    } else {
        Err(())
    };
    parsed
        .or_else(|_| {
            parse_move(pos, text)
                .or_else(|_| parse_san(pos, text))
                .or_else(|_| {
                    let bare: String = text.chars().filter(|c| !"x=+#!?".contains(*c)).collect();
                    parse_move(pos, &bare)
                })
                .map_err(|_| ())
        })
        .ok()
}

/// Charges a move that took `elapsed_ms` to the clock: the time, the increment, and
/// a new period once `moves/` moves are played.
fn charge(c: &mut Clock, tc: &TimeControl, elapsed_ms: i64) {
    if c.per_move.is_some() {
        return;
    }
    c.left -= elapsed_ms;
    c.left += c.inc;
    if c.moves_to_go > 0 {
        c.moves_to_go -= 1;
        if c.moves_to_go == 0 {
            c.moves_to_go = tc.moves;
            c.left += tc.base_ms;
        }
    }
}

/// The text of a move comment as cutechess writes it: score (`+0.26`, mates in
/// plies `+M3`/`-M3`), `/depth`, then the time with fewer decimals as it grows
/// (`0.004s`, `0.63s`, `1.2s`, `12s`). Empty when the engine told nothing and
/// moved within half a second.
pub fn eval_comment(score: Option<i32>, depth: Option<i32>, ms: i64) -> String {
    use super::wire::MATE_SCORE;
    let depth = depth.filter(|&d| d > 0);
    if score.is_none() && depth.is_none() && ms < 500 {
        return String::new();
    }
    let mut s = String::new();
    if let (Some(_), Some(sc)) = (depth, score) {
        let abs = sc.saturating_abs();
        if abs > MATE_SCORE - 200 {
            s.push_str(if sc > 0 { "+M" } else { "-M" });
            s.push_str(&(MATE_SCORE - abs).to_string());
        } else {
            if sc > 0 {
                s.push('+');
            }
            s.push_str(&format!("{:.2}", sc as f64 / 100.0));
        }
    }
    if let Some(d) = depth {
        s.push_str(&format!("/{d} "));
    }
    if ms <= 0 {
        s.push_str("0s");
        return s;
    }
    let decimals = match ms {
        0..=99 => 3,
        100..=999 => 2,
        1000..=9999 => 1,
        _ => 0,
    };
    s.push_str(&format!("{:.*}s", decimals, ms as f64 / 1000.0));
    s
}
