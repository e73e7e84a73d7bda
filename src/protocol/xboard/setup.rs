//! Presenting a variant to XBoard (`setup` and `piece` lines, from the variant's
//! data alone), and the commands that choose the variant or the position.

use super::*;

/// The board field of an EFEN.
fn board_field(efen: &str) -> &str {
    efen.split(' ').next().unwrap_or("")
}

/// XBoard drops every castling right whose partner is not its Rook when it writes
/// a FEN (lancer and jailer corners), so the start position it relays to a second
/// engine (`setboard`) lacks them. A `setboard` of a start position of the variant
/// (move 1, no ply of the 50-move count) gets the start's castling rights back;
/// other positions are taken as they come.
fn with_start_castling(v: &'static crate::rules::Variant, p: Position) -> Position {
    if p.fullmove() != 1 || p.halfmove() != 0 {
        return p;
    }
    let board = p.efen();
    let board = board_field(&board);
    let have: Vec<_> = p.castling_rights().collect();
    let better = |c: Position| {
        let rights: Vec<_> = c.castling_rights().collect();
        (board_field(&c.efen()) == board
            && c.side() == p.side()
            && rights.len() > have.len()
            && have.iter().all(|r| rights.contains(r)))
        .then_some(c)
    };
    match &v.start {
        Start::Random(r) => (0..crate::rules::setups::setup_count(*r))
            .filter_map(|n| v.setup_fen(*r, n).ok())
            .filter(|f| board_field(f).len() == board.len())
            .filter_map(|f| Position::from_efen(v, &f).ok())
            .find_map(better)
            .unwrap_or(p),
        _ => Position::from_efen(v, &v.default_start_fen())
            .ok()
            .and_then(better)
            .unwrap_or(p),
    }
}

/// The `setup` and `piece` lines that present `v` to XBoard, starting from `start`
/// (none for a variant XBoard knows: no `xboardSetup` in variants.ini).
pub fn setup_lines(v: &crate::rules::Variant, start: &Position) -> Vec<String> {
    let Some(table) = &v.xboard_setup else {
        return Vec::new();
    };
    let holdings = if v.drops { 4 } else { 0 };
    let mut lines = vec![format!(
        "setup ({table}) {}x{}+{holdings}_{} {}",
        v.width,
        v.height,
        v.xboard_parent,
        xboard_fen(start)
    )];
    lines.extend(v.xboard_pieces.iter().map(|p| format!("piece {p}")));
    lines
}

/// Sends `setup` and `piece` lines for the engine's variant.
pub(super) fn send_setup(engine: &Engine) {
    for l in setup_lines(engine.variant(), engine.game().start()) {
        out(&l);
    }
}

impl Session {
    pub(super) fn variant(&mut self, line: &str, name: &str) {
        let found = self
            .engine
            .variants()
            .all()
            .iter()
            .find(|v| v.xboard_name.eq_ignore_ascii_case(name) || v.name.eq_ignore_ascii_case(name))
            .map(|v| v.name.clone());
        let Some(vname) = found else {
            return error("unknown variant", line);
        };
        self.cancel();
        if let Err(e) = self.engine.set_variant(&vname) {
            return error(&e, line);
        }
        // Random setups: a fresh one per game (unless XBoard shuffles them itself and
        // sends them with setboard, as for fischerandom).
        let v = self.engine.variant();
        if let Start::Random(_) = &v.start {
            if !v.xboard_shuffles {
                let again = self.unplayed_setup.filter(|p| p.variant().name == v.name);
                let drawn = again.or_else(|| {
                    let f = v.random_start(&mut rand::thread_rng()).ok()?;
                    Position::from_efen(v, &f).ok()
                });
                if let Some(p) = drawn {
                    self.engine.set_start(p);
                    self.unplayed_setup = Some(p);
                }
            }
        }
        self.over = false;
        send_setup(&self.engine);
    }

    pub(super) fn setboard(&mut self, line: &str, fen: &str) {
        let v = self.engine.effective_variant();
        let p = Position::from_efen(v, fen)
            .or_else(|e| Position::from_efen(v, &efen_from_xboard(v, fen)).map_err(|_| e));
        match p {
            Ok(p) => {
                let p = with_start_castling(v, p);
                self.cancel();
                self.engine.set_start(p);
                self.over = false;
                if self.analyzing {
                    self.analyze();
                }
            }
            Err(e) => error(&format!("bad FEN: {e}"), line),
        }
    }
}
