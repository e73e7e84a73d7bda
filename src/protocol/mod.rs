//! Protocol adapters: the only place that reads stdin.

pub mod board;
pub mod uci;
pub mod xboard;

use std::io::{BufRead, Write};

/// `lancer` with no arguments: `xboard` as the first line starts CECP; any other
/// first line starts UCI and is its first command, as UCI-first engines (Stockfish,
/// Fairy-Stockfish) take it: a bare `position startpos` is UCI.
pub fn run_auto(variants: crate::rules::Variants) {
    let mut buf = Vec::new();
    // Lossy, like every later line: garbage bytes in the first line are a bad UCI
    // command, not the end of the session.
    while let Some(first) = read_line(&mut buf) {
        match first.trim() {
            "" => continue,
            "xboard" => return xboard::run(Some(first.trim().to_string()), variants),
            line => return uci::run(Some(line.to_string()), variants),
        }
    }
}

/// Writes one line to stdout and flushes it: a GUI waits for whole lines.
pub fn out(line: &str) {
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    let _ = writeln!(lock, "{line}");
    let _ = lock.flush();
}

/// Reads one line from stdin (garbage bytes replaced, never fatal); None at the end.
pub fn read_line(buf: &mut Vec<u8>) -> Option<String> {
    buf.clear();
    match std::io::stdin().lock().read_until(b'\n', buf) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(String::from_utf8_lossy(buf).to_string()),
    }
}

/// A trimmed command line split into its first word and the trimmed rest.
pub fn split_command(line: &str) -> (&str, &str) {
    match line.split_once(char::is_whitespace) {
        Some((c, r)) => (c, r.trim()),
        None => (line, ""),
    }
}
