//! Protocol adapters: the only place that reads stdin.

pub mod board;
pub mod uci;
pub mod xboard;

use std::io::BufRead;

/// `lancer` with no arguments: the first line picks the protocol.
pub fn run_auto(variants: crate::rules::Variants) {
    let stdin = std::io::stdin();
    let mut first = String::new();
    loop {
        first.clear();
        match stdin.lock().read_line(&mut first) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        match first.trim() {
            "" => continue,
            "uci" => return uci::run(Some(first.trim().to_string()), variants),
            "xboard" => return xboard::run(Some(first.trim().to_string()), variants),
            other => {
                println!(
                    "info string error: expected 'uci' or 'xboard', got '{}'",
                    other.chars().take(80).collect::<String>()
                );
            }
        }
    }
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
