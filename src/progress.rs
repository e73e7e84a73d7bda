//! A one-line progress display on stderr for long command-line runs (`lancer perft`,
//! `lancer openings`, `lancer annotate`): redrawn in place with `\r`, cleared at the end, and silent
//! unless stderr is a terminal, so redirected output and pipes see nothing new.

use std::io::{IsTerminal, Write};
use std::sync::Mutex;

/// A progress line on stderr. Safe to share between threads; cleared when dropped.
pub struct Progress {
    /// Whether anything is drawn (stderr is a terminal).
    enabled: bool,
    /// Characters of the line now on screen (0: none), to blank a longer old text.
    shown: Mutex<usize>,
}

impl Progress {
    /// A progress line, drawn only if stderr is a terminal.
    pub fn stderr() -> Progress {
        Progress::new(std::io::stderr().is_terminal())
    }

    /// A progress line, drawn only if `enabled`.
    pub fn new(enabled: bool) -> Progress {
        Progress {
            enabled,
            shown: Mutex::new(0),
        }
    }

    /// Whether the line is drawn at all (callers may skip work for it otherwise).
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Replaces the line with `text`.
    pub fn show(&self, text: &str) {
        if !self.enabled {
            return;
        }
        if let Ok(mut shown) = self.shown.lock() {
            write_stderr(&redraw(*shown, text));
            *shown = text.chars().count();
        }
    }

    /// Prints `line` on stdout without mixing it into the progress line (both may be
    /// the same terminal): the line is blanked first and redrawn after.
    pub fn println(&self, line: &str) {
        let Ok(mut shown) = self.shown.lock() else {
            println!("{line}");
            return;
        };
        if !self.enabled || *shown == 0 {
            println!("{line}");
            return;
        }
        write_stderr(&blank(*shown));
        println!("{line}");
        *shown = 0;
    }

    /// Blanks the line (also done on drop, so an early error leaves a clean line).
    pub fn clear(&self) {
        if let Ok(mut shown) = self.shown.lock() {
            if self.enabled && *shown > 0 {
                write_stderr(&blank(*shown));
            }
            *shown = 0;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}

fn write_stderr(s: &str) {
    // A progress line that cannot be written is no reason to stop the work.
    let mut e = std::io::stderr().lock();
    let _ = e.write_all(s.as_bytes());
    let _ = e.flush();
}

/// What replaces a line of `shown` characters by `text`: back to the start, the
/// text, and blanks over what is left of a longer old line.
pub fn redraw(shown: usize, text: &str) -> String {
    let pad = shown.saturating_sub(text.chars().count());
    format!("\r{text}{}", " ".repeat(pad))
}

/// What blanks a line of `shown` characters and puts the cursor at its start.
pub fn blank(shown: usize) -> String {
    format!("\r{}\r", " ".repeat(shown))
}

/// `lancer perft`'s line: `root move 12/20 done, 1234567 nodes`.
pub fn perft_text(done: usize, total: usize, nodes: u64) -> String {
    format!("root move {done}/{total} done, {nodes} nodes")
}

/// `lancer openings`' line: `  37/100 openings (412 tried)`.
pub fn openings_text(found: usize, wanted: usize, tried: usize) -> String {
    format!("  {found}/{wanted} openings ({tried} tried)")
}

/// `lancer datagen`'s line: `  12/100 games, 1234 positions, 56 positions/s, ETA 3m05s`.
pub fn datagen_text(games: usize, wanted: usize, positions: usize, secs: f64) -> String {
    let rate = positions as f64 / secs;
    let left = (wanted.saturating_sub(games)) as f64 * secs / games.max(1) as f64;
    let left = left.round() as u64;
    format!(
        "  {games}/{wanted} games, {positions} positions, {rate:.0} positions/s, ETA {}m{:02}s",
        left / 60,
        left % 60
    )
}

/// `lancer annotate`'s line: `game 2: 45/121 positions, ETA 15s`.
pub fn annotate_text(game: usize, done: usize, total: usize, secs: f64) -> String {
    let left = (total.saturating_sub(done)) as f64 * secs / done.max(1) as f64;
    format!(
        "game {game}: {done}/{total} positions, ETA {}s",
        left.round() as u64
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_redrawn_in_place() {
        assert_eq!(
            redraw(0, &perft_text(12, 20, 1234567)),
            "\rroot move 12/20 done, 1234567 nodes"
        );
        // A shorter text blanks the rest of the old one.
        assert_eq!(redraw(8, "abc"), "\rabc     ");
        assert_eq!(redraw(2, "abc"), "\rabc");
        assert_eq!(blank(3), "\r   \r");
        assert_eq!(openings_text(37, 100, 412), "  37/100 openings (412 tried)");
        assert_eq!(
            annotate_text(2, 10, 121, 2.0),
            "game 2: 10/121 positions, ETA 22s"
        );
        assert_eq!(
            datagen_text(10, 100, 500, 5.0),
            "  10/100 games, 500 positions, 100 positions/s, ETA 0m45s"
        );
    }

    #[test]
    fn a_disabled_line_keeps_nothing() {
        let p = Progress::new(false);
        assert!(!p.enabled());
        p.show("x");
        assert_eq!(*p.shown.lock().unwrap(), 0);
        p.clear();
    }
}
